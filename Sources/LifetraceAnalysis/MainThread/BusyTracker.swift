import LifetraceFormat

/// A blame candidate before its name is resolved.
struct PendingBlame {
    var kind: BlameEntry.Kind
    var name: Symbol
    var duration: Int64
}

/// Tracks the main thread's current busy interval and the longest callbacks and signposts that
/// ran during it, in fixed storage: the top ``Stall/blameLimit`` are kept, the rest dropped.
struct BusyTracker {
    /// When the open busy interval started, or nil when the main thread is idle.
    var start: Int64?
    /// The event that opened it (`runloop.wake` or the outermost callback's begin).
    var startEvent: TraceEvent?
    /// The longest intervals that completed during it, longest first: the first `blameCount`
    /// entries of a buffer allocated once, so opening and closing intervals allocates nothing.
    var blame: [PendingBlame]
    var blameCount = 0

    init() {
        blame = [PendingBlame](repeating: PendingBlame(kind: .callback, name: .none, duration: 0), count: Stall.blameLimit)
    }

    /// Opens a busy interval, unless one is open (a second wake without a sleep).
    @inline(__always)
    mutating func open(_ event: TraceEvent) {
        guard start == nil else { return }
        start = event.timestamp
        startEvent = event
        blameCount = 0
    }

    /// Notes that an interval `[begin, end]` of the main thread completed.
    @inline(__always)
    mutating func completed(_ kind: BlameEntry.Kind, name: Symbol, begin: Int64, end: Int64) {
        guard let start else { return }
        let duration = end - max(begin, start)
        guard duration > 0 else { return }
        if blameCount == Stall.blameLimit && blame[blameCount - 1].duration >= duration { return }
        insert(PendingBlame(kind: kind, name: name, duration: duration))
    }

    private mutating func insert(_ entry: PendingBlame) {
        if blameCount < Stall.blameLimit { blameCount += 1 }
        let count = blameCount
        // One uniqueness check for the whole insertion rather than one per moved entry.
        blame.withUnsafeMutableBufferPointer { entries in
            var position = count - 1
            while position > 0 && entries[position - 1].duration < entry.duration {
                entries[position] = entries[position - 1]
                position -= 1
            }
            entries[position] = entry
        }
    }

    /// Closes the interval at `end`; returns its start and the blame with the still-open
    /// intervals of the main thread counted up to `end`, or nil when none was open.
    mutating func close(
        at end: Int64, open main: ThreadIntervals, symbols: SymbolTable
    ) -> (start: Int64, event: TraceEvent, blame: [BlameEntry])? {
        guard let start, let startEvent else { return nil }
        for interval in main.callbacks {
            completed(.callback, name: interval.name, begin: interval.begin.timestamp, end: end)
        }
        for interval in main.signposts {
            completed(.signpost, name: interval.name, begin: interval.begin.timestamp, end: end)
        }
        let entries = blame[0..<blameCount].map {
            BlameEntry(kind: $0.kind, name: symbols.string($0.name) ?? "(unnamed)", duration: $0.duration)
        }
        reset()
        return (start, startEvent, entries)
    }

    /// Closes without a result (the interval was too short to be a stall).
    @inline(__always)
    mutating func reset() {
        start = nil
        startEvent = nil
        blameCount = 0
    }
}
