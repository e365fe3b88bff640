import LifetraceFormat
import LifetraceOutput

/// A blame candidate before its name is resolved.
struct PendingBlame {
    var kind: BlameEntry.Kind
    var name: Symbol
    /// Where the interval began, or the stall's start when it began before.
    var begin: Int64
    var end: Int64
    var duration: Int64 { end - begin }
}

/// Tracks the main thread's current busy interval and the longest callbacks and signposts that
/// ran during it, in fixed storage: the top ``Stall/blameLimit`` are kept, the rest dropped.
struct BusyTracker {
    /// When the open busy interval started, or nil when the main thread is idle.
    var start: Int64?
    /// The event that opened it (`runloop.wake` or the outermost callback's begin).
    var startEvent: TraceEvent?
    /// The state the rules read (``Lifetime/trustedState``) when it opened.
    var startedIn: LifecycleState?
    /// When the app first left the foreground while it was open (the system view's move, or the
    /// app's own: didEnterBackground, sceneDidEnterBackground), nil while it has not: the end of
    /// the part the user saw.
    var leftForeground: Int64?
    /// The built-in rules found on main-thread callbacks that ended during it (a callback judged
    /// itself is not judged again as the busy interval).
    var foundInCallbacks = RuleSet()
    /// The longest intervals that completed during it, longest first: the first `blameCount`
    /// entries of a buffer allocated once, so opening and closing intervals allocates nothing.
    var blame: [PendingBlame]
    var blameCount = 0

    init() {
        blame = [PendingBlame](repeating: PendingBlame(kind: .callback, name: .none, begin: 0, end: 0), count: Stall.blameLimit)
    }

    /// Opens a busy interval, unless one is open (a second wake without a sleep).
    @inline(__always)
    mutating func open(_ event: TraceEvent, state: @autoclosure () -> LifecycleState?) {
        guard start == nil else { return }
        start = event.timestamp
        startEvent = event
        startedIn = state()
        leftForeground = nil
        foundInCallbacks = RuleSet()
        blameCount = 0
    }

    /// Notes a move of a view from `previous` to `state` at `time`: from the foreground (Inactive,
    /// Active) out of it, the app left the foreground.
    @inline(__always)
    mutating func stateChanged(from previous: LifecycleState?, to state: LifecycleState?, at time: Int64) {
        guard start != nil, leftForeground == nil, previous == .inactive || previous == .active,
            state == .background || state == .suspended || state == .notRunning
        else { return }
        leftForeground = time
    }

    /// Notes that an interval `[begin, end]` of the main thread completed.
    @inline(__always)
    mutating func completed(_ kind: BlameEntry.Kind, name: Symbol, begin: Int64, end: Int64) {
        guard let start else { return }
        let from = max(begin, start)
        let duration = end - from
        guard duration > 0 else { return }
        if blameCount == Stall.blameLimit && blame[blameCount - 1].duration >= duration { return }
        insert(PendingBlame(kind: kind, name: name, begin: from, end: end))
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

    /// Closes the interval at `end`; returns its start, the blame with the still-open intervals
    /// of the main thread counted up to `end`, and the work the stall is blamed on, or nil when
    /// none was open.
    mutating func close(
        at end: Int64, open main: ThreadIntervals, symbols: SymbolTable
    ) -> (start: Int64, event: TraceEvent, blame: [BlameEntry], work: BlameEntry?)? {
        guard let start, let startEvent else { return nil }
        for interval in main.callbacks {
            completed(.callback, name: interval.name, begin: interval.begin.timestamp, end: end)
        }
        for interval in main.signposts {
            completed(.signpost, name: interval.name, begin: interval.begin.timestamp, end: end)
        }
        let kept = Array(blame[0..<blameCount])
        let entries = kept.map {
            BlameEntry(kind: $0.kind, name: symbols.shown($0.name) ?? "(unnamed)", duration: $0.duration)
        }
        let work = Self.work(in: kept, stall: end - start, symbols: symbols)
        reset()
        return (start, startEvent, entries, work)
    }

    /// The work a stall is blamed on: the innermost interval that covers most (more than half) of
    /// the stall, or the longest when none does; with the chain of intervals that enclose it.
    ///
    /// `kept` is longest first, and among equally long intervals in the order they ended, so a
    /// nested interval with its parent's span comes before the parent.
    static func work(in kept: [PendingBlame], stall: Int64, symbols: SymbolTable) -> BlameEntry? {
        guard !kept.isEmpty else { return nil }
        // Among the intervals covering most of the stall, the shortest is the innermost: they all
        // overlap, and on one thread a shorter interval that overlaps a longer one lies inside it.
        var chosenIndex = 0
        for (index, entry) in kept.enumerated()
        where entry.duration > stall / 2 && entry.duration < kept[chosenIndex].duration {
            chosenIndex = index
        }
        if kept[chosenIndex].duration > stall / 2 {
            while chosenIndex > 0 && kept[chosenIndex - 1].duration == kept[chosenIndex].duration {
                chosenIndex -= 1
            }
        }
        let chosen = kept[chosenIndex]
        let enclosing = kept.indices.filter { index in
            index != chosenIndex && kept[index].begin <= chosen.begin && kept[index].end >= chosen.end
                && (kept[index].duration > chosen.duration || index > chosenIndex)
        }.sorted { kept[$0].duration != kept[$1].duration ? kept[$0].duration > kept[$1].duration : $0 > $1 }
        let name = { (entry: PendingBlame) in symbols.shown(entry.name) ?? "(unnamed)" }
        return BlameEntry(
            kind: chosen.kind, name: name(chosen), duration: chosen.duration,
            chain: enclosing.map { name(kept[$0]) } + [name(chosen)])
    }

    /// Closes without a result (the interval was too short to be a stall).
    @inline(__always)
    mutating func reset() {
        start = nil
        startEvent = nil
        blameCount = 0
    }
}
