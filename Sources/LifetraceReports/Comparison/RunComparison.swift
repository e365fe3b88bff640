import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// `lifetrace diff`: two sets of runs compared metric by metric with the Mann-Whitney U test,
/// and checked against a ``ComparisonGate``. Every metric counts higher as worse (durations,
/// counts).
public struct RunComparison: Sendable {
    /// The fewest runs per side the gate accepts: a single run says nothing about noise.
    public static let minimumRunsToGate = 2

    /// One metric's comparison.
    public struct Row: Sendable {
        /// The metric.
        public var metric: RunMetric
        /// The baseline samples.
        public var baseline: SampleDistribution
        /// The candidate samples.
        public var candidate: SampleDistribution
        /// The test of candidate against baseline; nil with fewer than two samples on a side.
        public var test: MannWhitneyU?
        /// The test's p-value after Holm's adjustment over every test of the comparison.
        public var adjustedP: Double?
        /// The Hodges–Lehmann shift of the candidate against the baseline with its interval;
        /// nil when ``test`` is.
        public var shift: HodgesLehmannShift?
        /// The change of the median in percent; nil when the baseline median is zero or missing.
        public var medianChange: Double?
        /// Whether the candidate is significantly worse (adjusted p below alpha, higher median,
        /// or higher values in most pairs when the medians are equal).
        public var isRegression: Bool
        /// Whether the candidate is significantly better.
        public var isImprovement: Bool
        /// Whether the runs are too few for any change to be significant: the smallest p-value
        /// these samples' sizes and ties can give is not below alpha (``MannWhitneyU/smallestP``).
        public var tooFewToTell = false

        /// The baseline's median as every report writes it (``RunMetric/Unit/percentile(_:_:)``).
        public var baselineMedian: Double? { metric.unit.percentileValue(baseline, 50) }
        /// The candidate's median as every report writes it.
        public var candidateMedian: Double? { metric.unit.percentileValue(candidate, 50) }

        /// A word for the outcome. Samples on one side only are a finding, not a lack of data:
        /// stalls that only the candidate has are new stalls.
        public var verdict: String {
            if baseline.count == 0 && candidate.count > 0 { return "new: only in the candidate" }
            if candidate.count == 0 && baseline.count > 0 { return "gone: only in the baseline" }
            if test == nil { return "too few samples" }
            if isRegression { return "worse (significant)" }
            if isImprovement { return "better (significant)" }
            if tooFewToTell, let smallest = test?.smallestP {
                return "too few runs to tell (p \(pValue(smallest)) at best)"
            }
            return "no significant change"
        }
    }

    /// The violations of one rule, per run, on both sides.
    public struct ViolationRow: Sendable {
        /// The rule.
        public var rule: Rule
        /// The candidate's count per run and the baseline's, with the test of the two for a
        /// warning; nil for an error, which is never tested: a new broken rule is not noise.
        public var test: ConditionalPoissonTest?
        /// The candidate's violations in all, and per run.
        public var candidateCount: Int
        /// The baseline's violations in all.
        public var baselineCount: Int
        /// The candidate's count per run.
        public var candidatePerRun: Double
        /// The baseline's count per run.
        public var baselinePerRun: Double
        /// The test's p-value after Holm's adjustment (warnings only).
        public var adjustedP: Double?
        /// Whether this row fails the gate: an error rule broken more often per run than in the
        /// baseline, or a warning significantly more frequent (adjusted p below alpha).
        public var failed: Bool

        /// A word for the outcome.
        public var verdict: String {
            if rule.severity == .error {
                return candidatePerRun > baselinePerRun ? "worse (more errors)" : "no more than the baseline"
            }
            if failed { return "worse (significant)" }
            return candidatePerRun > baselinePerRun ? "more, not significant" : "no more than the baseline"
        }
    }

    /// A gate check that failed or passed.
    public struct Check: Sendable {
        /// What was checked (`launch.cold.p50 <= 400 ms`, `launch.cold median +10% at most`).
        public var description: String
        /// Whether it failed.
        public var failed: Bool
        /// Why it passed or failed.
        public var detail: String
        /// What kind of check it is, for the verdict's count of failures by kind.
        public var kind: Kind

        /// The kinds of check.
        public enum Kind: Sendable, Hashable, CaseIterable {
            /// An absolute budget (`--budget`, `--budgets`).
            case budget
            /// A median's rise against `--max-regression`.
            case regression
            /// More violations per run than the baseline.
            case violations
        }
    }

    /// The baseline runs.
    public let baseline: [RunFacts]
    /// The candidate runs.
    public let candidate: [RunFacts]
    /// The gate.
    public let gate: ComparisonGate
    /// The metrics with samples on either side, in metric order.
    public let rows: [Row]
    /// The rules violated on either side, in rule order.
    public let violationRows: [ViolationRow]
    /// How many tests the comparison made (metrics and warning counts), the family Holm's
    /// adjustment corrects for.
    public let testCount: Int
    /// The gate's checks, budgets first.
    public let checks: [Check]

    /// Compares `candidate` with `baseline` under `gate`.
    public init(baseline: [RunFacts], candidate: [RunFacts], gate: ComparisonGate) {
        self.baseline = baseline
        self.candidate = candidate
        self.gate = gate
        var rows: [Row] = []
        for metric in RunMetric.all {
            let before = metric.integers(baseline)
            let after = metric.integers(candidate)
            guard !before.isEmpty || !after.isEmpty else { continue }
            let tested = before.count >= 2 && after.count >= 2
            let test = tested ? MannWhitneyU(after.map(Double.init), before.map(Double.init)) : nil
            let shift = tested ? HodgesLehmannShift(after, before, alpha: gate.alpha) : nil
            let base = SampleDistribution(integers: before)
            let cand = SampleDistribution(integers: after)
            var change: Double?
            if let from = metric.unit.percentileValue(base, 50), let to = metric.unit.percentileValue(cand, 50), from != 0 { change = (to - from) / from * 100 }
            rows.append(Row(
                metric: metric, baseline: base, candidate: cand, test: test, shift: shift, medianChange: change,
                isRegression: false, isImprovement: false))
        }
        var violationRows = Self.violationRows(baseline: baseline, candidate: candidate)
        // One family: every Mann-Whitney test and every test of a warning's count.
        let testedRows = rows.indices.filter { rows[$0].test != nil }
        let testedRules = violationRows.indices.filter { violationRows[$0].test != nil }
        let adjusted = HolmAdjustment.adjusted(testedRows.map { rows[$0].test!.p } + testedRules.map { violationRows[$0].test!.p })
        testCount = adjusted.count
        for (position, index) in testedRows.enumerated() {
            let p = adjusted[position]
            rows[index].adjustedP = p
            let test = rows[index].test!
            let cand = rows[index].candidateMedian ?? 0
            let base = rows[index].baselineMedian ?? 0
            let worse = cand > base || (cand == base && test.cliffsDelta > 0)
            let better = cand < base || (cand == base && test.cliffsDelta < 0)
            rows[index].isRegression = p < gate.alpha && worse
            rows[index].isImprovement = p < gate.alpha && better
            // Holm's adjustment never lowers a p-value: past alpha here, past it after.
            rows[index].tooFewToTell = test.smallestP >= gate.alpha
        }
        for (position, index) in testedRules.enumerated() {
            let p = adjusted[testedRows.count + position]
            violationRows[index].adjustedP = p
            violationRows[index].failed = p < gate.alpha
                && violationRows[index].candidatePerRun > violationRows[index].baselinePerRun
        }
        for index in violationRows.indices where violationRows[index].rule.severity == .error {
            violationRows[index].failed = violationRows[index].candidatePerRun > violationRows[index].baselinePerRun
        }
        self.rows = rows
        self.violationRows = violationRows
        checks = Self.checks(rows: rows, gate: gate) + Self.violationCheck(violationRows, gate: gate)
    }

    /// Per rule violated on either side: the counts per run, and for a warning the conditional
    /// Poisson test of the candidate's rate against the baseline's.
    private static func violationRows(baseline: [RunFacts], candidate: [RunFacts]) -> [ViolationRow] {
        guard !baseline.isEmpty, !candidate.isEmpty else { return [] }
        func counts(_ runs: [RunFacts], _ rule: Rule) -> [Int] {
            runs.map { run in run.violations.first { $0.rule == rule }?.count ?? 0 }
        }
        let rules = Set((baseline + candidate).flatMap { $0.violations.filter { $0.count > 0 }.map(\.rule) }).sorted()
        return rules.map { rule in
            let after = counts(candidate, rule)
            let before = counts(baseline, rule)
            let total = (after.reduce(0, +), before.reduce(0, +))
            return ViolationRow(
                rule: rule, test: rule.severity == .error ? nil : ConditionalPoissonTest(candidate: after, baseline: before),
                candidateCount: total.0, baselineCount: total.1,
                candidatePerRun: Double(total.0) / Double(after.count), baselinePerRun: Double(total.1) / Double(before.count),
                adjustedP: nil, failed: false)
        }
    }

    /// The violations check: no error-severity rule broken more often per run than in the
    /// baseline, no warning significantly more frequent; the rules that fail it are named.
    private static func violationCheck(_ rows: [ViolationRow], gate: ComparisonGate) -> [Check] {
        guard gate.failsOnMoreViolations, !rows.isEmpty else { return [] }
        let failing = rows.filter(\.failed)
        let errors = rows.filter { $0.rule.severity == .error }
        let warnings = rows.filter { $0.rule.severity != .error }
        func perRun(_ rows: [ViolationRow], _ value: (ViolationRow) -> Double) -> String {
            DecimalText.compact(rows.reduce(0) { $0 + value($1) })
        }
        var detail = "errors per run: candidate \(perRun(errors, \.candidatePerRun)), baseline \(perRun(errors, \.baselinePerRun)); "
            + "warnings per run: candidate \(perRun(warnings, \.candidatePerRun)), baseline \(perRun(warnings, \.baselinePerRun))"
        if !failing.isEmpty {
            detail += "; more " + failing.map { row in
                "\(row.rule.id) (\(DecimalText.compact(row.candidatePerRun)) against \(DecimalText.compact(row.baselinePerRun))"
                    + (row.adjustedP.map { ", p \(pValue($0)) after Holm" } ?? ", \(row.rule.severity.rawValue)") + ")"
            }.joined(separator: ", ")
        }
        return [Check(
            description: "no error more often per run than in the baseline, no warning significantly more often",
            failed: !failing.isEmpty, detail: detail, kind: .violations)]
    }

    private static func checks(rows: [Row], gate: ComparisonGate) -> [Check] {
        var checks: [Check] = []
        for budget in gate.budgets {
            let row = rows.first { $0.metric == budget.metric }
            let value = row.flatMap { budget.statistic.value($0.candidate, unit: budget.metric.unit) }
            let written = budget.metric.format(limit: budget.limit, value: value ?? budget.limit)
            let description = "\(budget.key) <= \(written.limit)"
            guard let value else {
                // No sample is not a pass: runs cut before their first frame have no launch
                // duration at all. Only where no sample means nothing happened (no stall) is the
                // budget met.
                let met = budget.metric.noSampleMeansNone
                let baseline = row.map { " (the baseline has \($0.baseline.count))" } ?? ""
                checks.append(Check(
                    description: description, failed: !met,
                    detail: met ? "no candidate samples: no \(budget.metric.summary)"
                        : "no candidate sample of \(budget.metric.key)\(baseline); a budget is not met by nothing",
                    kind: .budget))
                continue
            }
            // An absolute budget holds whatever the baseline did: over is over. Significance is
            // only for relative regressions (--max-regression).
            let over = value > budget.limit
            let failed = over
            let detail = "candidate \(written.value)" + (over ? ", over the budget" : "")
            checks.append(Check(description: description, failed: failed, detail: detail, kind: .budget))
        }
        if let limit = gate.maxRegression {
            // A metric the baseline measured and no candidate did: the regression cannot be
            // measured, and a gate never passes what it could not measure.
            for row in rows where row.baseline.count >= minimumRunsToGate && row.candidate.count == 0 && !row.metric.noSampleMeansNone {
                checks.append(Check(
                    description: "\(row.metric.key) median +\(DecimalText.compact(limit))% at most", failed: true,
                    detail: "no candidate sample (the baseline has \(row.baseline.count))", kind: .regression))
            }
            for row in rows where row.test != nil {
                guard let change = row.medianChange else { continue }
                let failed = change > limit && row.isRegression
                guard failed || change > limit else { continue }
                checks.append(Check(
                    description: "\(row.metric.key) median +\(DecimalText.compact(limit))% at most", failed: failed,
                    detail: "median \(signedPercent(change)), shift \(row.shiftText), p \(pValue(row.test?.p)), "
                        + "\(pValue(row.adjustedP)) after Holm" + (failed ? "" : ", not significant")
                        + (row.tooFewToTell
                            ? ": too few runs to see any change, the smallest p-value \(row.baseline.count) and \(row.candidate.count) runs "
                                + "with these ties can give is \(pValue(row.test?.smallestP))" : ""),
                    kind: .regression))
            }
        }
        return checks
    }

    /// Whether a check failed.
    public var failed: Bool { checks.contains { $0.failed } }

    /// Whether either side has too few runs for the gate to mean anything.
    public var tooFewRunsToGate: Bool {
        baseline.count < Self.minimumRunsToGate || candidate.count < Self.minimumRunsToGate
    }
}

/// A p-value for reports: four decimals, or `< 0.0001`.
func pValue(_ p: Double?) -> String {
    guard let p else { return "-" }
    return p < 0.0001 ? "< 0.0001" : DecimalText.string(p, decimals: 4)
}

/// `+12.3%` or `-4.0%`.
func signedPercent(_ value: Double) -> String { (value >= 0 ? "+" : "-") + DecimalText.string(abs(value), decimals: 1) + "%" }

/// A signed number with a sign and two decimals (Cliff's delta).
func signedFixed(_ value: Double) -> String { (value >= 0 ? "+" : "-") + DecimalText.string(abs(value), decimals: 2) }
