import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// A budget could not be read (a bad `--budget`, `--max-regression` or budget file).
public struct BudgetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the budget came from (`--budget`, or the file's path).
    public var source: String
    /// What is wrong.
    public var reason: String

    /// Creates an error.
    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    /// One line for the command line.
    public var description: String { "\(source): \(reason)" }
}

/// An absolute limit on a statistic of a metric in the candidate runs: `launch.cold.p50=400ms`.
public struct Budget: Sendable, Hashable {
    /// The statistics a budget can limit.
    public enum Statistic: String, Sendable, Hashable, CaseIterable {
        /// The median (also written `median`).
        case p50
        /// The 90th percentile.
        case p90
        /// The 99th percentile.
        case p99
        /// The largest value.
        case max
        /// The arithmetic mean.
        case mean

        /// The statistic of `distribution`, samples in `unit`: a percentile as every report
        /// writes it (``RunMetric/Unit/percentile(_:_:)``), so that a budget is checked against
        /// the figure the summary prints.
        public func value(_ distribution: SampleDistribution, unit: RunMetric.Unit) -> Double? {
            switch self {
            case .p50: unit.percentileValue(distribution, 50)
            case .p90: unit.percentileValue(distribution, 90)
            case .p99: unit.percentileValue(distribution, 99)
            case .max: unit.percentileValue(distribution, 100)
            case .mean: distribution.mean
            }
        }
    }

    /// The metric.
    public var metric: RunMetric
    /// The statistic.
    public var statistic: Statistic
    /// The limit, in the metric's unit (ns for durations).
    public var limit: Double

    /// The key as written: `launch.cold.p50`.
    public var key: String { "\(metric.key).\(statistic.rawValue)" }

    /// Creates a budget.
    public init(metric: RunMetric, statistic: Statistic, limit: Double) {
        self.metric = metric
        self.statistic = statistic
        self.limit = limit
    }

    /// Reads `KEY=VALUE`, for example `launch.cold.p50=400ms` or `stalls.count.p90=1`.
    public init(parsing text: String, source: String = "--budget") throws(BudgetError) {
        guard let equals = text.firstIndex(of: "=") else {
            throw BudgetError(source: source, reason: "\"\(text)\" is not METRIC.STATISTIC=LIMIT (e.g. launch.cold.p50=400ms)")
        }
        let value = text[text.index(after: equals)...]
        guard !value.contains("=") else {
            throw BudgetError(
                source: source, reason: "\"\(text)\" has more than one '=': write METRIC.STATISTIC=LIMIT (e.g. launch.cold.p50=400ms)")
        }
        try self.init(key: String(text[..<equals]), value: String(value), source: source)
    }

    /// The statistics as a message lists them.
    static let statisticNames = "p50 (or median), p90, p99, max, mean"

    /// What a budget's key is, for a message about one that is not: the form, the metrics and
    /// the statistics.
    static var expectedKey: String {
        "a budget's key is METRIC.STATISTIC, such as launch.cold.p50 (launch.<kind>.<statistic>); the metrics are: "
            + RunMetric.all.map(\.key).joined(separator: ", ") + "; the statistics: " + statisticNames
    }

    /// Reads a budget from its key (`launch.cold.p50`) and limit (`400ms`, `1`).
    public init(key: String, value: String, source: String) throws(BudgetError) {
        if RunMetric.named(key) != nil {
            throw BudgetError(source: source, reason: "\"\(key)\" names a metric but no statistic: \(Self.expectedKey)")
        }
        guard let dot = key.lastIndex(of: ".") else {
            throw BudgetError(source: source, reason: "\"\(key)\" is not METRIC.STATISTIC: \(Self.expectedKey)")
        }
        let statisticName = String(key[key.index(after: dot)...])
        guard let statistic = statisticName == "median" ? .p50 : Statistic(rawValue: statisticName) else {
            throw BudgetError(source: source, reason: "unknown statistic \"\(statisticName)\" in \"\(key)\": \(Self.expectedKey)")
        }
        let metricKey = String(key[..<dot])
        guard let metric = RunMetric.named(metricKey) else {
            throw BudgetError(source: source, reason: "unknown metric \"\(metricKey)\" in \"\(key)\": \(Self.expectedKey)")
        }
        self.metric = metric
        self.statistic = statistic
        switch metric.unit {
        case .duration:
            do throws(DurationError) {
                limit = Double(try DurationParser.nanoseconds(value))
            } catch {
                throw BudgetError(source: source, reason: "\(key): \(error.description)")
            }
        case .count:
            guard let number = Double(value.trimmingCharacters(in: .whitespaces)), number >= 0, number.isFinite else {
                throw BudgetError(source: source, reason: "\(key): \"\(value)\" is not a non-negative number")
            }
            limit = number
        }
    }

    /// Reads a percentage, a number and `%`, with or without a space between them: `10%` and
    /// `10 %` are 10. A plain number is refused: `0.1` could mean 10% as well as 0.1%.
    public static func percentage(_ text: String, source: String = "--max-regression") throws(BudgetError) -> Double {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        let hasSign = trimmed.hasSuffix("%")
        if hasSign { trimmed = String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces) }
        if let value = Double(trimmed), value < 0 {
            throw BudgetError(source: source, reason: "\"\(text)\" is negative: give the largest allowed rise, such as 10%")
        }
        guard let value = Double(trimmed), value >= 0, value.isFinite, trimmed.allSatisfy({ !$0.isLetter || $0 == "e" || $0 == "E" }) else {
            throw BudgetError(source: source, reason: "\"\(text)\" is not a percentage (e.g. 10%)")
        }
        guard hasSign else {
            throw BudgetError(
                source: source,
                reason: "\"\(text)\" has no '%': write the rise as a percentage, such as 10% (a plain number could mean a fraction or a percentage)")
        }
        return value
    }
}
