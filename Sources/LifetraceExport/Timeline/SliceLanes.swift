import LifetraceAnalysis

/// Tracks for intervals that need not nest (signposts, background tasks): each open interval
/// takes the lowest lane that has none open, so every lane's slices nest trivially.
///
/// Lanes are few (as many as intervals were open at once), so searches are linear.
struct SliceLanes {
    /// One lane and the interval open on it.
    struct Lane {
        var track: Int
        var interval: EdgeInterval?
    }

    /// The lanes, in the order they were created.
    private(set) var lanes: [Lane] = []

    /// The lane holding `interval` (the analyzer's own, as its begin edge had it).
    func lane(holding interval: EdgeInterval) -> Int? {
        lanes.indices.last { lanes[$0].interval == interval }
    }

    /// The lowest lane with nothing open, or nil when every lane is busy.
    var free: Int? { lanes.firstIndex { $0.interval == nil } }

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
