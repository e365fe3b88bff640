import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports

/// One figure of one point of a series: its value and the spread of the samples it comes from.
public struct HistoryFigure: Sendable, Hashable {
    /// The figure.
    public var value: Double
    /// The lowest and highest sample behind it (for a percentile: the point's fastest and
    /// slowest launch; for a rate per run: the lowest and highest run).
    public var low: Double
    public var high: Double
    /// How many samples it comes from.
    public var n: Int
}

/// What a metric measures and how its figures are written.
public struct HistoryMetric: Sendable, Hashable {
    /// How a metric's figures read.
    public enum Unit: String, Sendable, Hashable {
        /// Nanoseconds.
        case duration
        /// Seconds of hang per hour on screen.
        case hangRate
        /// A count per run.
        case perRun
        /// A share of lifetimes, in percent.
        case percent
    }

    /// The key (`launch.cold.p50`, `hangRate`, `violations.launch-stall`, `exits.killedInForeground`).
    public var key: String
    /// What it measures, in words.
    public var title: String
    /// Its unit.
    public var unit: Unit

    /// `value` as people read it.
    public func format(_ value: Double) -> String {
        switch unit {
        case .duration: DurationFormat.fixed.string(TraceTime.nanoseconds(value))
        case .hangRate: DecimalText.string(value, decimals: 1) + " s/h"
        case .perRun: DecimalText.string(value, decimals: 2)
        case .percent: DecimalText.string(value, decimals: 1) + " %"
        }
    }
}

/// The figures of one point of the history (a build, or a version's builds), computed from its
/// runs by the many-run summary's own code (``RunSummary``, docs/REPORTS.md "Aggregation").
enum HistoryFigures {
    /// The percentiles a launch series is drawn for.
    static let launchPercents = [50, 90, 99]

    /// The figures of `runs`, by metric, in metric order.
    static func figures(_ runs: [HistoryRun]) -> [(HistoryMetric, HistoryFigure)] {
        let summary = RunSummary(runs: runs.map(\.facts))
        var figures: [(HistoryMetric, HistoryFigure)] = []
        for row in summary.launchRows {
            let unit = row.metric.unit
            for percent in launchPercents where row.distribution.count >= RunSummary.samplesNeeded(percent: percent) {
                guard let value = unit.percentileValue(row.distribution, percent), let low = unit.percentileValue(row.distribution, 0),
                    let high = unit.percentileValue(row.distribution, 100)
                else { continue }
                figures.append((
                    HistoryMetric(key: "launch.\(row.label).p\(percent)", title: "\(row.label) launch, p\(percent)", unit: .duration),
                    HistoryFigure(value: value, low: low, high: high, n: row.distribution.count)
                ))
            }
        }
        // Hangs are the summary's stalls; the rate over every run together, the spread per run.
        let total = summary.groups.reduce(into: (stallTime: Int64(0), onScreen: Int64(0))) {
            $0.stallTime &+= $1.stallTime
            $0.onScreen &+= $1.onScreen
        }
        if let rate = RunSummary.Group.hangRate(stallTime: total.stallTime, onScreen: total.onScreen) {
            let perRun = runs.compactMap { run in
                RunSummary.Group.hangRate(
                    stallTime: run.lifetimes.reduce(0) { $0 &+ $1.stalls.reduce(0) { $0 &+ $1.duration } },
                    onScreen: run.lifetimes.reduce(0) { $0 &+ $1.onScreen })
            }
            figures.append((
                HistoryMetric(key: "hangRate", title: "hang rate (seconds of hang per hour on screen)", unit: .hangRate),
                HistoryFigure(value: rate, low: perRun.min() ?? rate, high: perRun.max() ?? rate, n: perRun.count)
            ))
        }
        let stalls = runs.map { run in Double(run.lifetimes.reduce(0) { $0 + $1.stalls.count + $1.omittedStalls }) }
        if let figure = perRun(stalls) {
            figures.append((HistoryMetric(key: "stalls.perRun", title: "stalls (hangs) per run", unit: .perRun), figure))
        }
        var rules: [String] = []
        for run in runs { for entry in run.violations where !rules.contains(entry.rule) { rules.append(entry.rule) } }
        for rule in rules.sorted(by: ruleOrder) {
            let counts = runs.map { run in Double(run.violations.reduce(0) { $1.rule == rule ? $0 + $1.count : $0 }) }
            if let figure = perRun(counts) {
                figures.append((HistoryMetric(key: "violations.\(rule)", title: "\(rule) violations per run", unit: .perRun), figure))
            }
        }
        let background = runs.flatMap { $0.lifetimes.map(\.background) }
        let distribution = SampleDistribution(integers: background)
        if let median = RunMetric.Unit.duration.percentileValue(distribution, 50), let low = distribution.min,
            let high = distribution.max
        {
            figures.append((
                HistoryMetric(key: "background.p50", title: "time in the background per lifetime, median", unit: .duration),
                HistoryFigure(value: median, low: low, high: high, n: distribution.count)
            ))
        }
        let lifetimes = summary.endings.reduce(0) { $0 + $1.count }
        for ending in summary.endings where lifetimes > 0 {
            let share = 100 * Double(ending.count) / Double(lifetimes)
            figures.append((
                HistoryMetric(key: "exits.\(ending.kind.rawValue)", title: "share of lifetimes that ended \(RunSummary.phrase(ending.kind))", unit: .percent),
                HistoryFigure(value: share, low: share, high: share, n: lifetimes)
            ))
        }
        return figures
    }

    /// The mean of per-run counts, with the lowest and highest run.
    private static func perRun(_ counts: [Double]) -> HistoryFigure? {
        guard let low = counts.min(), let high = counts.max() else { return nil }
        return HistoryFigure(value: counts.reduce(0, +) / Double(counts.count), low: low, high: high, n: counts.count)
    }

    /// Built-in rules in the rule table's order, then the others by id.
    private static func ruleOrder(_ lhs: String, _ rhs: String) -> Bool {
        switch (Rule(id: lhs), Rule(id: rhs)) {
        case (let left?, let right?): left < right
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): lhs < rhs
        }
    }
}
