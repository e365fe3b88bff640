import LifetraceAnalysis
import LifetraceFormat

/// The one adapter between the analyzer's ``LifecycleEdge``s and the rule engine: the edges of
/// one event (or of one lifetime's end) as the engine's steps.
struct EdgeSteps {
    /// Whether the current lifetime's launch window was closed by an event.
    private var launchWindowClosed = false

    /// The steps of `edges`, derived from `cause`, in the order the rules take them: the state
    /// an event enters comes before the event itself (docs/RULES.md: "A state stretch begins with
    /// the event that enters the state"), everything else in the order derived.
    mutating func steps<Taker: RuleStepTaker>(_ edges: ArraySlice<LifecycleEdge>, cause: TraceEvent, into taker: inout Taker) {
        var statesTaken = false
        func takeStates() {
            guard !statesTaken else { return }
            statesTaken = true
            for edge in edges {
                guard case .stateChanged(let change) = edge, case .trusted = change.view, case .system(let state)? = change.to
                else { continue }
                taker.take(.stateChanged(state, by: cause))
            }
        }
        for edge in edges {
            switch edge {
            case .lifetimeBegan(let begin):
                launchWindowClosed = false
                taker.take(.lifetimeBegan(at: begin.timestamp))
            case .launchInferred, .stateChanged, .busyBegan, .busyEnded, .finding:
                continue
            case .launchTimed(_, let from, let settled):
                // Before the states the event enters: the event that resumes a prewarmed
                // launch, and the state it enters, belong to the launch.
                taker.take(.launchTimed(from: from, settled: settled, by: cause))
            case .intervalBegan(let interval):
                takeStates()
                var occurrence = Occurrence(interval, kind: interval.kind.beginKind, at: interval.begin, event: cause)
                occurrence.thread = interval.thread
                taker.take(&occurrence)
            case .intervalEnded(let interval, let end, let how):
                takeStates()
                var occurrence = Occurrence(interval, kind: interval.kind.endKind, at: end, event: cause)
                switch how {
                case .ended:
                    taker.take(&occurrence)
                case .expired, .enclosingEnded:
                    // Not an end event of its own (the expiry is an instant of its own): the
                    // interval ends for `max-duration`, no selector matches.
                    occurrence.thread = interval.thread
                    taker.takeIntervalEnd(&occurrence)
                case .lifetimeEnded:
                    // Judged with the lifetime's end, as an interval that had not ended.
                    continue
                }
            case .point(let point):
                takeStates()
                if var occurrence = Occurrence(point) { taker.take(&occurrence) }
            case .stall(let stall, _):
                takeStates()
                var occurrence = Occurrence(kind: .stall, timestamp: stall.start, event: stall.opening ?? cause, duration: stall.duration)
                taker.take(&occurrence)
            case .launchWindowClosed(_, let end):
                takeStates()
                launchWindowClosed = true
                taker.take(.launchWindowEnded(at: end))
            case .launchWindowEnded(let window):
                takeStates()
                // A window no event closed ends at the first activation's end, known only now.
                if !launchWindowClosed, window.finished { taker.take(.launchWindowEnded(at: window.end)) }
            case .lifetimeEnded(let report):
                takeStates()
                taker.take(.lifetimeEnded(at: report.end.timestamp, judged: report.end.kind != .endOfTrace))
            }
        }
        takeStates()
    }
}

extension Occurrence {
    /// The begin or end of `interval` at `timestamp`, revealed by `event`.
    init(_ interval: EdgeInterval, kind: OccurrenceKind, at timestamp: Int64, event: TraceEvent) {
        self.init(kind: kind, timestamp: timestamp, event: event, thread: event.thread)
        name = interval.name
        scene = interval.scene
        key = interval.kind == .callback ? .min : interval.key
        self.interval = interval
    }

    /// The occurrence of an instant; nil for lost events, which no selector matches.
    init?(_ point: EdgePoint) {
        self.init(kind: .mark, timestamp: point.timestamp, event: point.event, name: point.name, thread: point.thread)
        switch point.kind {
        case .mark: kind = .mark
        case .frame: kind = .frame
        case .firstFrame: kind = .firstFrame
        case .launch: kind = .launch
        case .exit: kind = .exit
        case .dropped: return nil
        case .backgroundTaskExpired:
            kind = .bgtaskExpire
            if case .backgroundTask(let id) = point.fact { key = id }
        case .unmatchedEnd:
            // An end that matched nothing open is still the end event a selector names.
            guard case .unmatchedEnd(let ended, let endKey) = point.fact else { return nil }
            switch ended {
            case .callback:
                kind = .callbackEnd
                scene = Symbol(rawValue: UInt32(truncatingIfNeeded: endKey))
            case .signpost:
                kind = .signpostEnd
                key = endKey
            case .backgroundTask:
                kind = .bgtaskEnd
                key = endKey
            }
        }
    }
}

extension EdgeInterval.Kind {
    /// The occurrence kind of the interval's begin.
    var beginKind: OccurrenceKind {
        switch self {
        case .callback: .callback
        case .signpost: .signpost
        case .backgroundTask: .bgtaskBegin
        }
    }

    /// The occurrence kind of the interval's end.
    var endKind: OccurrenceKind {
        switch self {
        case .callback: .callbackEnd
        case .signpost: .signpostEnd
        case .backgroundTask: .bgtaskEnd
        }
    }
}
