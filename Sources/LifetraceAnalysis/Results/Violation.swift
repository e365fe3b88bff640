import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// A rule broken by a trace: which, when, a message for the app's developer, and the witnesses.
public struct Violation: Sendable, Hashable {
    /// The rule.
    public var rule: Rule
    /// The rule's severity.
    public var severity: Severity { rule.severity }
    /// When it happened (ns on the trace's clock).
    public var timestamp: Int64
    /// The time since the lifetime's launch (ns), or nil when there is no launch event.
    public var sinceLaunch: Int64?
    /// The time since the trace's first event (ns): the moment every output prints
    /// (``TraceClock``); nil when not known.
    public var sinceStart: Int64?
    /// The lifetime it happened in, counted from 0.
    public var lifetime: Int
    /// What happened, when, what was expected, and why.
    public var message: String
    /// The witness events: the state-changing event before (when there is one), then the
    /// offending event.
    public var events: [EventSummary]
    /// How far past its rule's limit (ns), for a rule with a duration limit (a stall's duration
    /// less the threshold, a callback's, a launch's or a background stretch's time less its
    /// limit); nil for the others. It ranks violations of one severity, worst first
    /// (`check --format github`).
    public var overrun: Int64?

    /// Creates a violation.
    public init(
        rule: Rule, timestamp: Int64, sinceLaunch: Int64?, lifetime: Int, message: String,
        events: [EventSummary], sinceStart: Int64? = nil, overrun: Int64? = nil
    ) {
        self.overrun = overrun
        self.rule = rule
        self.timestamp = timestamp
        self.sinceLaunch = sinceLaunch
        self.sinceStart = sinceStart
        self.lifetime = lifetime
        self.message = message
        self.events = events
    }

    /// The documented fact a built-in rule rests on; nil for a rule from a file.
    public var fact: LifecycleFact? { rule.fact }

    /// Its moment with its origin, as it heads the violation in every output for people:
    /// `+1.234 s into the trace` (``TraceClock``), or the raw timestamp when not known.
    public var when: String { sinceStart.map(TraceClock.labelled) ?? "\(timestamp) ns" }
}
