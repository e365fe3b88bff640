import LifetraceFormat
import LifecycleModel

/// The analysis of one trace: violations, lifetimes, and the reader's recovered problems.
public struct TraceAnalysis: Sendable {
    /// The trace's path as the user named it.
    public var path: String
    /// The trace's metadata.
    public var metadata: TraceMetadata
    /// How many events were read.
    public var eventCount: Int
    /// The violations kept in full, in time order (ties in the order they were found): the first
    /// ``violationLimit`` found.
    public var violations: [Violation]
    /// The violations found past ``violationLimit``, counted by rule.
    public var omittedViolations: [Rule: Int]
    /// The most violations the analysis kept in full.
    public var violationLimit: Int
    /// The lifetimes, in trace order (none when the analysis did not keep them:
    /// ``AnalysisOptions/keepsLifetimes``).
    public var lifetimes: [LifetimeReport]
    /// The number of lifetimes, kept or not.
    public var lifetimeCount: Int
    /// Problems the reader recovered from (a truncated end, a skipped corrupt chunk).
    public var issues: [TraceError]
    /// The time of the trace's first event (ns on its clock), which reports count from; nil
    /// when it had none.
    public var origin: Int64?
    /// What the analysis counted instead of keeping, past its caps: lifetimes, stalls, threads,
    /// scenes.
    public var capped: CappedCounts
    /// How long reading and checking the trace took (wall clock), when it was measured: by
    /// ``TraceInputs/analyze(path:options:prefetch:lifetimeEnded:)``. JUnit's `time` attributes.
    public var checkDuration: Duration?
    /// The allowances for real iOS the analysis applied (docs/LIFECYCLE.md, "Real iOS"), in the
    /// table's order: where the trace got a verdict the textbook would not give it. Every output of
    /// a check names them (``capNotes``).
    public var allowancesUsed: [Allowance] = []
    /// What the stack samples of each stall say, when the trace has samples (``StallSamplePass``).
    public var stallProfiles: [StallProfile] = []

    /// Creates an analysis.
    public init(
        path: String, metadata: TraceMetadata, eventCount: Int, violations: [Violation],
        omittedViolations: [Rule: Int] = [:], violationLimit: Int = ViolationList.defaultLimit,
        lifetimes: [LifetimeReport], lifetimeCount: Int? = nil, issues: [TraceError], origin: Int64? = nil,
        capped: CappedCounts = CappedCounts()
    ) {
        self.capped = capped
        self.path = path
        self.metadata = metadata
        self.eventCount = eventCount
        self.violations = violations
        self.omittedViolations = omittedViolations
        self.violationLimit = violationLimit
        self.lifetimes = lifetimes
        self.lifetimeCount = lifetimeCount ?? lifetimes.count
        self.issues = issues
        self.origin = origin
    }

    /// The kept violations of error severity.
    public var errors: [Violation] { violations.filter { $0.severity == .error } }

    /// The kept violations of warning severity.
    public var warnings: [Violation] { violations.filter { $0.severity == .warning } }

    /// The number of violations found, kept or not.
    public var violationCount: Int { violations.count + omittedCount }

    /// The number of violations found but not kept.
    public var omittedCount: Int { omittedViolations.values.reduce(0, +) }

    /// The number of error-severity violations found, kept or not.
    public var errorCount: Int { count(of: .error) }

    /// The number of warning-severity violations found, kept or not.
    public var warningCount: Int { count(of: .warning) }

    /// The number of violations of `rule` found, kept or not.
    public func count(of rule: Rule) -> Int {
        violations.count { $0.rule == rule } + omittedViolations[rule, default: 0]
    }

    private func count(of severity: Severity) -> Int {
        violations.count { $0.severity == severity }
            + omittedViolations.reduce(0) { $0 + ($1.key.severity == severity ? $1.value : 0) }
    }

    /// Whether the trace fails a check: any error, or with `strict` any warning too.
    public func fails(strict: Bool) -> Bool {
        strict ? violationCount > 0 : errorCount > 0
    }

    /// Whether what was read falls short of the whole trace in a way a CI gate must not pass:
    /// data skipped inside it (a corrupt chunk, bytes skipped to the next frame), a file cut
    /// inside a frame (data lost at its end), or nothing read at all; with `strict`, any problem,
    /// an unclosed end included. An end at a frame boundary without the end-of-trace record
    /// alone (``TraceError/isNotClosed``) is how a trace of an app killed without notice looks
    /// before `lifetrace recover` seals it, so it passes without `strict`.
    public func isIncomplete(strict: Bool) -> Bool {
        guard !issues.isEmpty else { return false }
        return strict || eventCount == 0 || issues.losesData
    }

    /// The problems of the trace that a check judges it with all the same, which every output
    /// of the check carries as notes: an unclosed end (``TraceError/isNotClosed``, the trace of an
    /// app killed before `lifetrace recover` sealed it), unless `strict`. Empty for a trace read
    /// whole, and for one not read whole (``isIncomplete(strict:)``), whose problems are errors.
    public func readingNotes(strict: Bool) -> [TraceError] {
        isIncomplete(strict: strict) ? [] : issues
    }

    /// The lines outputs print as notes of the analysis, each without a final period: what it
    /// counted instead of keeping past its caps (``CappedCounts/notes``), then the allowances for
    /// real iOS it applied, each with its source (``allowanceNote``); empty when neither.
    public var capNotes: [String] { capped.notes + (allowanceNote.map { [$0] } ?? []) }

    /// The line naming the allowances the analysis applied, each with its first source, or nil
    /// when it applied none (or ran with `--textbook`).
    public var allowanceNote: String? {
        guard !allowancesUsed.isEmpty else { return nil }
        let named = allowancesUsed.map { allowance in
            let source = allowance.entry.sources.first ?? ""
            // The source's title, without the address or quote docs/LIFECYCLE.md gives.
            let title = source.firstRange(of: " (").map { String(source[..<$0.lowerBound]) } ?? source
            return "\(allowance.id) (\(title))"
        }
        return "allowances for real iOS applied (docs/LIFECYCLE.md, Real iOS; --textbook turns them off): "
            + named.joined(separator: "; ")
    }

    /// The ids of the rules violated, without repetition, in table order.
    public var violatedRules: [Rule] {
        Array(Set(violations.map(\.rule)).union(omittedViolations.keys)).sorted()
    }

    /// The line outputs print when violations were left out, or nil: `1,000 more violations were
    /// found and not listed (...)`.
    public var omittedNote: String? {
        let omitted = omittedCount
        guard omitted > 0 else { return nil }
        let rules = omittedViolations.keys.sorted().map { "\($0.id) \(omittedViolations[$0, default: 0])" }
        return "\(omitted) more violation\(omitted == 1 ? " was" : "s were") found and not listed "
            + "(\(rules.joined(separator: ", "))): an analysis keeps the first \(violationLimit) of a trace in full"
    }
}
