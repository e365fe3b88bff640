import LifetraceAnalysis
import LifetraceReports

extension HistoryRun {
    /// The run of `analysis` (its lifetimes kept, up to the summary's cap), through the same rows
    /// as a trace `history add` reads (``init(trace:lifetimes:)``), so that `check --history`
    /// stores what `history add` would.
    public init(_ analysis: TraceAnalysis) {
        self.init(trace: TraceRow(analysis), lifetimes: RunFacts.lifetimeRows(analysis))
    }
}
