import LifetraceFormat

/// Tracks for intervals that need not nest (signposts, background tasks): each open interval
/// takes the lowest lane that has none open, so every lane's slices nest trivially.
///
/// Lanes are few (as many as intervals were open at once), so searches are linear.
struct SliceLanes {
    /// One lane and the interval open on it.
    struct Lane {
        var track: Int
        var isOpen = false
        var thread = ThreadID.main
        var name = Symbol.none
        var key: Int64 = 0
    }

    /// The lanes, in the order they were created.
    private(set) var lanes: [Lane] = []

    /// The lane holding the open interval with `name` and `key`, preferring one on `thread`.
    func open(name: Symbol, key: Int64, thread: ThreadID) -> Int? {
        var fallback: Int?
        for index in lanes.indices.reversed() where lanes[index].isOpen {
            let lane = lanes[index]
            guard lane.name == name && lane.key == key else { continue }
            if lane.thread == thread { return index }
            if fallback == nil { fallback = index }
        }
        return fallback
    }

    /// The lane holding the open interval with `key`, whatever its name.
    func open(key: Int64) -> Int? {
        lanes.indices.last { lanes[$0].isOpen && lanes[$0].key == key }
    }

    /// The lowest lane with nothing open, or nil when every lane is busy.
    var free: Int? { lanes.firstIndex { !$0.isOpen } }

    /// Adds a lane drawn on `track`; returns its index.
    mutating func add(track: Int) -> Int {
        lanes.append(Lane(track: track))
        return lanes.count - 1
    }

    /// Marks `lane` as holding an interval.
    mutating func take(_ lane: Int, thread: ThreadID, name: Symbol, key: Int64) {
        lanes[lane].isOpen = true
        lanes[lane].thread = thread
        lanes[lane].name = name
        lanes[lane].key = key
    }

    /// Marks `lane` as free.
    mutating func release(_ lane: Int) { lanes[lane].isOpen = false }

    /// The lanes with an interval open.
    var openLanes: [Int] { lanes.indices.filter { lanes[$0].isOpen } }
}
