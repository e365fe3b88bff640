import LifetraceAnalysis
import LifetraceReports

extension HistoryRun {
    /// The run of `analysis` (its lifetimes kept, up to the summary's cap), through the same rows
    /// as a trace `history add` reads (``init(trace:lifetimes:)``), so that `check --history`
    /// stores what `history add` would.
    public init(_ analysis: TraceAnalysis) {
        let rows = analysis.lifetimes.map { lifetime in
            LifetimeRow(
                path: analysis.path, metadata: analysis.metadata, lifetime: lifetime,
                violations: analysis.violations.lazy.filter { $0.lifetime == lifetime.index })
        }
        self.init(trace: TraceRow(analysis), lifetimes: rows)
    }
}
