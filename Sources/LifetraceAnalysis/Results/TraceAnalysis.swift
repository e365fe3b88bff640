import LifetraceFormat

/// The analysis of one trace: violations, lifetimes, and the reader's recovered problems.
public struct TraceAnalysis: Sendable {
    /// The trace's path as the user named it.
    public var path: String
    /// The trace's metadata.
    public var metadata: TraceMetadata
    /// How many events were read.
    public var eventCount: Int
    /// The violations, in time order (ties in the order they were found).
    public var violations: [Violation]
    /// The lifetimes, in trace order (none when the analysis did not keep them:
    /// ``AnalysisOptions/keepsLifetimes``).
    public var lifetimes: [LifetimeReport]
    /// The number of lifetimes, kept or not.
    public var lifetimeCount: Int
    /// Problems the reader recovered from (a truncated end, a skipped corrupt chunk).
    public var issues: [TraceError]

    /// Creates an analysis.
    public init(
        path: String, metadata: TraceMetadata, eventCount: Int, violations: [Violation],
        lifetimes: [LifetimeReport], lifetimeCount: Int? = nil, issues: [TraceError]
    ) {
        self.path = path
        self.metadata = metadata
        self.eventCount = eventCount
        self.violations = violations
        self.lifetimes = lifetimes
        self.lifetimeCount = lifetimeCount ?? lifetimes.count
        self.issues = issues
    }

    /// The violations of error severity.
    public var errors: [Violation] { violations.filter { $0.severity == .error } }

    /// The violations of warning severity.
    public var warnings: [Violation] { violations.filter { $0.severity == .warning } }

    /// Whether the trace fails a check: any error, or with `strict` any warning too.
    public func fails(strict: Bool) -> Bool {
        strict ? !violations.isEmpty : violations.contains { $0.severity == .error }
    }

    /// The ids of the rules violated, without repetition, in table order.
    public var violatedRules: [Rule] { Array(Set(violations.map(\.rule))).sorted() }
}
