import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// One thing a selector can match, as the rule engine takes it in.
struct Occurrence {
    var kind: OccurrenceKind
    var timestamp: Int64
    /// The event behind it (the witness): for a stall, the event that opened it.
    var event: TraceEvent
    var name: Symbol = .none
    var scene: Symbol = .none
    var thread: ThreadID = .main
    /// For `state`: the state entered.
    var state: LifecycleState?
    /// A signpost's or background task's id (Int64.min when none).
    var key: Int64 = .min
    /// A stall's length (ns).
    var duration: Int64 = 0
    /// The patterns of the rules' names that `name` matches, and those that `scene` matches
    /// (set by the monitor before the rules take the occurrence).
    var names = PatternMatches.none
    var scenes = PatternMatches.none
    /// The interval that begins or ends here, as the analyzer follows it (nil for instants).
    var interval: EdgeInterval?
}

/// What the rule engine is told, in order: the whole of its input.
enum RuleStep {
    /// A lifetime began.
    case lifetimeBegan(at: Int64)
    /// The effective state became `state` by `event`.
    case stateChanged(LifecycleState, by: TraceEvent)
    /// Something a selector may match.
    case occurrence(Occurrence)
    /// An interval ended without an end event of its own (a background task expired, or an
    /// enclosing callback returned first): only `max-duration` takes it, no selector matches.
    case intervalEnded(Occurrence)
    /// The launch window ended.
    case launchWindowEnded(at: Int64)
    /// The lifetime ended; `judged` is false when the trace simply stopped.
    case lifetimeEnded(at: Int64, judged: Bool)
}
