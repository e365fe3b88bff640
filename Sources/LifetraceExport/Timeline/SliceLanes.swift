import LifetraceAnalysis

/// The tracks of intervals that need not nest (signposts, background tasks), one per lane the
/// analyzer gave them (``EdgeInterval/lane``: the lowest lane with nothing open), so every
/// lane's slices nest trivially and the page draws the same rows.
///
/// Lanes are few (as many as intervals were open at once), so searches are linear.
struct SliceLanes {
    /// One lane and the interval open on it.
    struct Lane {
        var track: Int
        var interval: EdgeInterval?
    }

    /// The lanes, in the order they were created (lane `n` is created once lanes 0 to `n - 1`
    /// are all busy, so in order of their numbers).
    private(set) var lanes: [Lane] = []

    /// The lane holding `interval` (the analyzer's own, as its begin edge had it).
    func lane(holding interval: EdgeInterval) -> Int? {
        lanes.indices.last { lanes[$0].interval == interval }
    }

    /// Adds a lane drawn on `track`; returns its index.
    mutating func add(track: Int) -> Int {
        lanes.append(Lane(track: track))
        return lanes.count - 1
    }

    /// Marks `lane` as holding `interval`.
    mutating func take(_ lane: Int, _ interval: EdgeInterval) { lanes[lane].interval = interval }

    /// Marks `lane` as free.
    mutating func release(_ lane: Int) { lanes[lane].interval = nil }
}
