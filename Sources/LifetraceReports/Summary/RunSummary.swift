import LifecycleModel
import LifetraceAnalysis

/// A summary over many runs for `lifetrace report DIR...`: launch time distribution by launch
/// kind, stalls per lifetime and their durations, violations by rule with the traces they occur
/// in, and how lifetimes ended. Rendered as text, Markdown, JSON or HTML.
public struct RunSummary: Sendable {
    /// The runs, in path order.
    public let runs: [RunFacts]
    /// The traces that could not be read, with their one-line errors, in path order.
    public let unreadable: [(path: String, error: String)]

    /// A summary of `runs`; `unreadable` are counted and named, nothing else.
    public init(runs: [RunFacts], unreadable: [(path: String, error: String)] = []) {
        self.runs = runs
        // Byte order of the paths' UTF-8, as the rule rows list their traces.
        self.unreadable = unreadable.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    }

    /// One line of a distribution table.
    public struct DistributionRow: Sendable, Hashable {
        /// What the row is about (a launch kind, "per lifetime", ...).
        public var label: String
        /// The metric the samples come from.
        public var metric: RunMetric
        /// The samples.
        public var distribution: SampleDistribution

        /// A row of `metric`'s samples in `distribution`.
        public init(label: String, metric: RunMetric, distribution: SampleDistribution) {
            self.label = label
            self.metric = metric
            self.distribution = distribution
        }
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
        kinds.map { DistributionRow(label: $0.rawValue, metric: .launch($0), distribution: SampleDistribution(integers: RunMetric.launch($0).integers(runs))) }
    }

    /// Main-thread busy time in the launch window per kind.
    public var busyRows: [DistributionRow] {
        kinds.map { DistributionRow(label: $0.rawValue, metric: .busy($0), distribution: SampleDistribution(integers: RunMetric.busy($0).integers(runs))) }
    }

    /// Stalls per lifetime, and the stalls' durations.
    public var stallRows: [DistributionRow] {
        [
            DistributionRow(label: "stalls per lifetime", metric: .stallCount, distribution: SampleDistribution(integers: RunMetric.stallCount.integers(runs))),
            DistributionRow(label: "stall duration", metric: .stallDuration, distribution: SampleDistribution(integers: RunMetric.stallDuration.integers(runs))),
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
        // Paths in byte order of their UTF-8, whatever order the traces came in, so that an
        // engine that reads the traces in another order lists them the same way.
        return rows.keys.sorted().map { rule in
            var row = rows[rule]!
            row.traces.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            return row
        }
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
    public var lifetimeCount: Int { runs.reduce(0) { $0 + $1.lifetimes.count + $1.omittedLifetimes } }

    /// The number of events.
    public var eventCount: Int { runs.reduce(0) { $0 + $1.eventCount } }

    /// Past ``CappedCounts/lifetimeLimit`` lifetimes in a trace, where its statistics come from.
    private var statisticsNote: String {
        let capped = runs.count { $0.omittedLifetimes > 0 }
        guard capped > 0 else { return "" }
        return "; the statistics of \(plural(capped, "trace")) come from the first \(CappedCounts.lifetimeLimit) lifetimes of each"
    }

    /// The headline: traces, lifetimes, events, and traces with violations.
    public var headline: String {
        let failing = runs.count { !$0.violations.isEmpty }
        return "\(plural(runs.count, "trace")), \(plural(lifetimeCount, "lifetime")), \(plural(eventCount, "event")); "
            + "\(failing) with violations"
            + statisticsNote
            + (unreadable.isEmpty ? "" : "; \(plural(unreadable.count, "trace")) could not be read")
    }

    /// The percentiles every distribution table shows (docs/REPORTS.md, "Aggregation"): the
    /// minimum and maximum are the 0th and 100th.
    public static let columns: [(title: String, percent: Int)] = [
        ("min", 0), ("median", 50), ("p90", 90), ("p99", 99), ("max", 100),
    ]

    /// A column's value for `row` as written: durations in whole nanoseconds, rounded half up;
    /// counts exactly (hundredths). Nil for an empty sample. The one definition every report
    /// uses (``RunMetric/Unit/percentile(_:_:)``).
    public static func value(_ row: DistributionRow, percent: Int) -> JSONValue? {
        row.metric.unit.percentile(row.distribution, percent)
    }

    /// A column's value for `row` as people read it (`536 ms`, `2.600 s`, `1.5`: ``RunMetric/format(_:)``), `-` where the sample
    /// is too small for it (``samplesNeeded(percent:)``): the table's cell and the figure's row
    /// under "Where the figures come from" both print this.
    public static func text(_ row: DistributionRow, percent: Int) -> String {
        guard row.distribution.count >= samplesNeeded(percent: percent) else { return "-" }
        return switch value(row, percent: percent) {
        case .int(let value)?: row.metric.format(Double(value))
        case .number(let value)?: row.metric.format(value)
        default: "-"
        }
    }

    /// The cells of `row`: label, n, then the percentiles, `-` where the sample is too small
    /// for one (``samplesNeeded(percent:)``).
    public func cells(_ row: DistributionRow) -> [String] {
        [row.label, String(row.distribution.count)] + Self.columns.map { Self.text(row, percent: $0.percent) }
    }

    /// The note under a distribution table for people.
    public static let percentileNote = "a percentile is written where the sample supports it: p90 from 10 samples, p99 from 100"

    /// A phrase for an ending.
    public static func phrase(_ kind: LifetimeEnd.Kind) -> String {
        LifetimeEnd(kind: kind, timestamp: 0, sinceLaunch: nil, code: nil, signal: nil, facts: []).phrase
    }
}
