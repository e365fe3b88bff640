import LifetraceAnalysis

/// Follows what a running ``LifecycleAnalyzer`` has found, so that an exporter writes each
/// violation and each finished lifetime once, as soon as it is known.
struct FindingsCursor {
    private var violations = 0
    private var lifetimes = 0

    /// The violations found since the last call, in the order found.
    mutating func newViolations(_ analyzer: LifecycleAnalyzer) -> ArraySlice<Violation> {
        guard analyzer.violations.count > violations else { return [] }
        let all = analyzer.violations
        defer { violations = all.count }
        return all[violations...]
    }

    /// The lifetimes finished since the last call.
    mutating func newLifetimes(_ analyzer: LifecycleAnalyzer) -> ArraySlice<LifetimeReport> {
        guard analyzer.finishedLifetimes.count > lifetimes else { return [] }
        let all = analyzer.finishedLifetimes
        defer { lifetimes = all.count }
        return all[lifetimes...]
    }
}
