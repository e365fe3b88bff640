import LifecycleModel
import LifetraceAnalysis

/// A summary over many runs for `lifetrace report DIR...`: launch time distribution by launch
/// kind, stalls per lifetime and their durations, violations by rule with the traces they occur
/// in, and how lifetimes ended. Rendered as text, Markdown, JSON or HTML.
public struct RunSummary: Sendable {
    /// The runs, in path order.
    public let runs: [RunFacts]

    /// A summary of `runs`.
    public init(runs: [RunFacts]) {
        self.runs = runs
    }

    /// One line of a distribution table.
    public struct DistributionRow: Sendable, Hashable {
        /// What the row is about (a launch kind, "per lifetime", ...).
        public var label: String
        /// The metric the samples come from.
        public var metric: RunMetric
        /// The samples.
        public var distribution: SampleDistribution
    }

    /// A rule and where it was broken.
    public struct RuleRow: Sendable, Hashable {
        /// The rule.
        public var rule: Rule
        /// How many violations in all.
        public var count: Int
        /// The traces it occurs in, in path order.
        public var traces: [String]
    }

    /// The launch kinds that occur, in declaration order.
    public var kinds: [LaunchKind] {
        LaunchKind.allCases.filter { kind in runs.contains { $0.lifetimes.contains { $0.kind == kind } } }
    }

    /// Launch duration per kind (finished windows only).
    public var launchRows: [DistributionRow] {
        kinds.map { DistributionRow(label: $0.rawValue, metric: .launch($0), distribution: SampleDistribution(RunMetric.launch($0).samples(runs))) }
    }

    /// Main-thread busy time in the launch window per kind.
    public var busyRows: [DistributionRow] {
        kinds.map { DistributionRow(label: $0.rawValue, metric: .busy($0), distribution: SampleDistribution(RunMetric.busy($0).samples(runs))) }
    }

    /// Stalls per lifetime, and the stalls' durations.
    public var stallRows: [DistributionRow] {
        [
            DistributionRow(label: "stalls per lifetime", metric: .stallCount, distribution: SampleDistribution(RunMetric.stallCount.samples(runs))),
            DistributionRow(label: "stall duration", metric: .stallDuration, distribution: SampleDistribution(RunMetric.stallDuration.samples(runs))),
        ]
    }

    /// Lifetimes whose launch window never closed, per kind.
    public func unfinishedLaunches(_ kind: LaunchKind) -> Int {
        runs.reduce(0) { $0 + $1.lifetimes.count { $0.kind == kind && $0.launchDuration == nil } }
    }

    /// Violations by rule, in rule order.
    public var ruleRows: [RuleRow] {
        var rows: [Rule: RuleRow] = [:]
        for run in runs {
            for entry in run.violations {
                rows[entry.rule, default: RuleRow(rule: entry.rule, count: 0, traces: [])].count += entry.count
                rows[entry.rule]!.traces.append(run.path)
            }
        }
        return rows.keys.sorted().map { rows[$0]! }
    }

    /// How many lifetimes ended each way, most frequent first (ties in declaration order).
    public var endings: [(kind: LifetimeEnd.Kind, count: Int)] {
        let order: [LifetimeEnd.Kind] = [
            .terminated, .killedWhileSuspended, .killedInBackground, .killedInForeground, .exitedInForeground,
            .relaunched, .endOfTrace,
        ]
        var counts: [LifetimeEnd.Kind: Int] = [:]
        for run in runs { for lifetime in run.lifetimes { counts[lifetime.end, default: 0] += 1 } }
        var result: [(kind: LifetimeEnd.Kind, count: Int)] = []
        for kind in order { if let count = counts[kind] { result.append((kind, count)) } }
        // A stable sort: most frequent first, declaration order among equals.
        let ranked = result.enumerated().sorted { lhs, rhs in
            lhs.element.count != rhs.element.count ? lhs.element.count > rhs.element.count : lhs.offset < rhs.offset
        }
        return ranked.map(\.element)
    }

    /// The number of lifetimes.
    public var lifetimeCount: Int { runs.reduce(0) { $0 + $1.lifetimes.count } }

    /// The number of events.
    public var eventCount: Int { runs.reduce(0) { $0 + $1.eventCount } }

    /// The headline: traces, lifetimes, events, and traces with violations.
    public var headline: String {
        let failing = runs.count { !$0.violations.isEmpty }
        return "\(plural(runs.count, "trace")), \(plural(lifetimeCount, "lifetime")), \(plural(eventCount, "event")); "
            + "\(failing) with violations"
    }

    /// The quantiles every distribution table shows.
    public static let columns: [(title: String, value: @Sendable (SampleDistribution) -> Double?)] = [
        ("min", { $0.min }), ("median", { $0.median }), ("p90", { $0.quantile(0.9) }), ("p99", { $0.quantile(0.99) }),
        ("max", { $0.max }),
    ]

    /// The cells of `row`: label, n, then the quantiles.
    public func cells(_ row: DistributionRow) -> [String] {
        [row.label, String(row.distribution.count)]
            + Self.columns.map { column in column.value(row.distribution).map(row.metric.format) ?? "-" }
    }

    /// A phrase for an ending.
    public static func phrase(_ kind: LifetimeEnd.Kind) -> String {
        LifetimeEnd(kind: kind, timestamp: 0, sinceLaunch: nil, code: nil, signal: nil, facts: []).phrase
    }
}
