import LifetraceAnalysis

extension Violation {
    /// The line of the text trace that holds the offending event (the last witness), as the
    /// reader gave it (``EventSummary/line``); nil for a binary trace. GitHub annotations and
    /// SARIF results point there without reading the trace again.
    var offendingLine: Int? { events.last?.line }
}
