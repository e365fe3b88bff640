import LifetraceAnalysis
import LifetraceFormat

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
        /// The change of the median in percent; nil when the baseline median is zero or missing.
        public var medianChange: Double?
        /// Whether the candidate is significantly worse (p below alpha, higher median, or higher
        /// values in most pairs when the medians are equal).
        public var isRegression: Bool
        /// Whether the candidate is significantly better.
        public var isImprovement: Bool

        /// A word for the outcome. More violations per run is worse whatever the test says: a
        /// new violation is a broken rule, not noise.
        public var verdict: String {
            if metric == .violationCount, let more = candidate.mean, let fewer = baseline.mean, more > fewer {
                return isRegression ? "worse (significant)" : "worse (more violations)"
            }
            if test == nil { return "too few samples" }
            if isRegression { return "worse (significant)" }
            if isImprovement { return "better (significant)" }
            return "no significant change"
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
    }

    /// The baseline runs.
    public let baseline: [RunFacts]
    /// The candidate runs.
    public let candidate: [RunFacts]
    /// The gate.
    public let gate: ComparisonGate
    /// The metrics with samples on either side, in metric order.
    public let rows: [Row]
    /// The gate's checks, budgets first.
    public let checks: [Check]

    /// Compares `candidate` with `baseline` under `gate`.
    public init(baseline: [RunFacts], candidate: [RunFacts], gate: ComparisonGate) {
        self.baseline = baseline
        self.candidate = candidate
        self.gate = gate
        var rows: [Row] = []
        for metric in RunMetric.all {
            let before = metric.samples(baseline)
            let after = metric.samples(candidate)
            guard !before.isEmpty || !after.isEmpty else { continue }
            let test = before.count >= 2 && after.count >= 2 ? MannWhitneyU(after, before) : nil
            let base = SampleDistribution(before)
            let cand = SampleDistribution(after)
            var change: Double?
            if let from = base.median, let to = cand.median, from != 0 { change = (to - from) / from * 100 }
            let significant = test.map { $0.p < gate.alpha } ?? false
            let worse = (cand.median ?? 0) > (base.median ?? 0)
                || ((cand.median ?? 0) == (base.median ?? 0) && (test?.cliffsDelta ?? 0) > 0)
            let better = (cand.median ?? 0) < (base.median ?? 0)
                || ((cand.median ?? 0) == (base.median ?? 0) && (test?.cliffsDelta ?? 0) < 0)
            rows.append(Row(
                metric: metric, baseline: base, candidate: cand, test: test, medianChange: change,
                isRegression: significant && worse, isImprovement: significant && better))
        }
        self.rows = rows
        checks = Self.checks(rows: rows, gate: gate) + Self.violationCheck(baseline: baseline, candidate: candidate, gate: gate)
    }

    /// The violations check: the candidates may not have more violations per run than the
    /// baseline; the rules with more are named.
    private static func violationCheck(baseline: [RunFacts], candidate: [RunFacts], gate: ComparisonGate) -> [Check] {
        guard gate.failsOnMoreViolations, !baseline.isEmpty, !candidate.isEmpty else { return [] }
        func perRun(_ runs: [RunFacts]) -> [Rule: Double] {
            var counts: [Rule: Double] = [:]
            for run in runs { for (rule, count) in run.violations { counts[rule, default: 0] += Double(count) } }
            return counts.mapValues { $0 / Double(runs.count) }
        }
        let before = perRun(baseline)
        let after = perRun(candidate)
        let totalBefore = before.values.reduce(0, +)
        let totalAfter = after.values.reduce(0, +)
        let more = after.keys.sorted().filter { after[$0]! > before[$0, default: 0] }
        let failed = totalAfter > totalBefore || !more.isEmpty
        let detail = "candidate \(DecimalText.compact(totalAfter)) per run, baseline \(DecimalText.compact(totalBefore))"
            + (more.isEmpty ? "" : "; more " + more.map {
                "\($0.id) (\(DecimalText.compact(after[$0]!)) against \(DecimalText.compact(before[$0, default: 0])))"
            }.joined(separator: ", "))
        return [Check(description: "violations per run no more than the baseline's", failed: failed, detail: detail)]
    }

    private static func checks(rows: [Row], gate: ComparisonGate) -> [Check] {
        var checks: [Check] = []
        for budget in gate.budgets {
            let row = rows.first { $0.metric == budget.metric }
            let description = "\(budget.key) <= \(budget.metric.format(budget.limit))"
            guard let row, let value = budget.statistic.value(row.candidate) else {
                // No sample is not a pass: runs cut before their first frame have no launch
                // duration at all. Only where no sample means nothing happened (no stall) is the
                // budget met.
                let met = budget.metric.noSampleMeansNone
                let baseline = row.map { " (the baseline has \($0.baseline.count))" } ?? ""
                checks.append(Check(
                    description: description, failed: !met,
                    detail: met ? "no candidate samples: no \(budget.metric.summary)"
                        : "no candidate sample of \(budget.metric.key)\(baseline); a budget is not met by nothing"))
                continue
            }
            // An absolute budget holds whatever the baseline did: over is over. Significance is
            // only for relative regressions (--max-regression).
            let over = value > budget.limit
            let failed = over
            let detail = "candidate \(budget.metric.format(value))" + (over ? ", over the budget" : "")
            checks.append(Check(description: description, failed: failed, detail: detail))
        }
        if let limit = gate.maxRegression {
            // A metric the baseline measured and no candidate did: the regression cannot be
            // measured, and a gate never passes what it could not measure.
            for row in rows where row.baseline.count >= minimumRunsToGate && row.candidate.count == 0 && !row.metric.noSampleMeansNone {
                checks.append(Check(
                    description: "\(row.metric.key) median +\(DecimalText.compact(limit))% at most", failed: true,
                    detail: "no candidate sample (the baseline has \(row.baseline.count))"))
            }
            for row in rows where row.test != nil {
                guard let change = row.medianChange else { continue }
                let failed = change > limit && row.isRegression
                guard failed || change > limit else { continue }
                checks.append(Check(
                    description: "\(row.metric.key) median +\(DecimalText.compact(limit))% at most", failed: failed,
                    detail: "median \(signedPercent(change)), p \(pValue(row.test?.p))"
                        + (failed ? "" : ", not significant")))
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
