import LifetraceAnalysis
import LifetraceFormat

/// One stretch of a rule's scope, and what its pattern has seen in it.
struct Stretch {
    /// When it began (the scope's boundary).
    var start: Int64
    /// The event that began it, when one did.
    var startEvent: TraceEvent?
    /// When it ended (Int64.max while open).
    var end: Int64 = .max
    /// Matches counted (`require`, `max-count`).
    var matches = 0
    /// Whether `precedence`'s `first` was seen.
    var sawFirst = false
    /// Whether the stretch's one violation (`never`, `precedence`) was reported.
    var reported = false
    /// `response`: the `after`s not yet answered, oldest first (at most ``pendingLimit``).
    var pending: [TraceEvent] = []
    /// `response`: the `after`s beyond ``pendingLimit``, judged with the last one kept.
    var pendingOverflow = 0

    /// The most unanswered `after`s kept one by one per stretch.
    static let pendingLimit = 1024

    /// Whether `timestamp` falls in the stretch.
    func holds(_ timestamp: Int64) -> Bool { timestamp >= start && timestamp <= end }
}

/// An interval `max-duration` watches, from its begin.
struct OpenInterval {
    /// The event that began it (the witness).
    var begin: TraceEvent
    /// The interval as the analyzer follows it: its end edge names the same.
    var interval: EdgeInterval
}
