import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// One thing a selector can match, as the rule engine takes it in.
struct Occurrence {
    var kind: OccurrenceKind
    var timestamp: Int64
    /// The event behind it (the witness): for a stall, the event that opened it.
    var event: TraceEvent
    // The defaults are written as raw values: the named constants of another module are
    // reached through a call each.
    var name = Symbol(rawValue: 0)
    var scene = Symbol(rawValue: 0)
    var thread = ThreadID(rawValue: 0)
    /// For `state`: the state entered.
    var state: LifecycleState?
    /// A signpost's or background task's id (Int64.min when none).
    var key: Int64 = .min
    /// A stall's length (ns).
    var duration: Int64 = 0
    /// The patterns of the rules' names that `name` matches, and those that `scene` matches
    /// (set by the monitor before the rules take the occurrence).
    var names = PatternMatches([])
    var scenes = PatternMatches([])
    /// The interval that begins or ends here, as the analyzer follows it (nil for instants).
    var interval: EdgeInterval?
}

/// What the rule engine is told besides occurrences, in order.
enum RuleStep {
    /// A lifetime began.
    case lifetimeBegan(at: Int64)
    /// The effective state became `state` by `event`.
    case stateChanged(LifecycleState, by: TraceEvent)
    /// The launch of a prewarmed lifetime is timed from `from`, found at `event`; `settled`: it
    /// moves no more (``LifecycleEdge/launchTimed(lifetime:from:settled:)``).
    case launchTimed(from: Int64, settled: Bool, by: TraceEvent)
    /// The launch window ended.
    case launchWindowEnded(at: Int64)
    /// The lifetime ended; `judged` is false when the trace simply stopped.
    case lifetimeEnded(at: Int64, judged: Bool)
}

/// What takes the rule engine's input, in order: the steps, and the occurrences, which come
/// apart so that they are built in place and never wrapped and unwrapped.
protocol RuleStepTaker {
    /// A step other than an occurrence.
    mutating func take(_ step: RuleStep)
    /// Something a selector may match.
    mutating func take(_ occurrence: inout Occurrence)
    /// An interval ended without an end event of its own (a background task expired, or an
    /// enclosing callback returned first): only `max-duration` takes it, no selector matches.
    mutating func takeIntervalEnd(_ occurrence: inout Occurrence)
}
