import LifetraceFormat
import LifecycleModel
import LifetraceOutput

/// A number measured in every run, compared across runs: each has a key (`launch.cold`,
/// `stalls.count`, ...) and yields samples from a run's facts.
public struct RunMetric: Sendable, Hashable {
    /// How the samples are written.
    public enum Unit: String, Sendable, Hashable {
        /// Nanoseconds, written as durations.
        case duration
        /// Plain counts.
        case count
    }

    /// The key used in reports and budgets.
    public let key: String
    /// What it measures, in words.
    public let summary: String
    /// The samples' unit.
    public let unit: Unit
    let values: @Sendable (RunFacts) -> [Int64]

    public static func == (lhs: RunMetric, rhs: RunMetric) -> Bool { lhs.key == rhs.key }
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The samples of `runs`, in run order.
    public func samples(_ runs: [RunFacts]) -> [Double] { runs.flatMap(values).map(Double.init) }

    /// The samples of `runs` as the integers they are (nanoseconds or counts), in run order.
    public func integers(_ runs: [RunFacts]) -> [Int64] { runs.flatMap(values) }

    /// Launch duration of the lifetimes of `kind` (one sample per finished launch window).
    public static func launch(_ kind: LaunchKind) -> RunMetric {
        RunMetric(key: "launch.\(kind.rawValue)", summary: "\(kind.rawValue) launch duration", unit: .duration) { run in
            run.lifetimes.compactMap { $0.kind == kind ? $0.launchDuration : nil }
        }
    }

    /// Main-thread busy time in the launch window of the lifetimes of `kind`.
    public static func busy(_ kind: LaunchKind) -> RunMetric {
        RunMetric(key: "launch.\(kind.rawValue).busy", summary: "\(kind.rawValue) launch, main thread busy in window", unit: .duration) { run in
            run.lifetimes.compactMap { $0.kind == kind ? $0.busyInWindow : nil }
        }
    }

    /// Stalls per lifetime.
    public static let stallCount = RunMetric(key: "stalls.count", summary: "stalls per lifetime", unit: .count) { run in
        run.lifetimes.map { Int64($0.stalls.count + $0.omittedStalls) }
    }

    /// Each stall's duration.
    public static let stallDuration = RunMetric(key: "stalls.duration", summary: "stall duration", unit: .duration) { run in
        run.lifetimes.flatMap(\.stalls)
    }

    /// Violations per trace.
    public static let violationCount = RunMetric(key: "violations.count", summary: "violations per trace", unit: .count) { run in
        [Int64(run.violations.reduce(0) { $0 + $1.count })]
    }

    /// Whether a run without samples of the metric is a run where nothing it measures happened
    /// (no stall: no stall duration), rather than one that could not be measured (no launch
    /// duration in a run cut before its first frame). A budget on a metric with no candidate
    /// sample fails unless this holds.
    public var noSampleMeansNone: Bool { self == .stallDuration }

    /// Every metric, in report order.
    public static let all: [RunMetric] =
        LaunchKind.allCases.map(launch) + LaunchKind.allCases.map(busy) + [stallCount, stallDuration, violationCount]

    /// The metric with `key`, if there is one.
    public static func named(_ key: String) -> RunMetric? { all.first { $0.key == key } }

    /// `value` in the metric's unit: a duration as every report writes it (`312 ms`, `2.600 s`:
    /// ``DurationFormat/fixed``) or a count (`1.5`).
    public func format(_ value: Double) -> String {
        switch unit {
        case .duration: DurationFormat.fixed.string(TraceTime.nanoseconds(value))
        case .count: DecimalText.compact(value)
        }
    }

    /// A budget's `limit` and the `value` checked against it, in the metric's unit: durations by
    /// ``DurationFormat/strings(limit:value:)`` (the limit as given, and neither reading as the
    /// other unless they are equal), counts as ``format(_:)`` writes them.
    public func format(limit: Double, value: Double) -> (limit: String, value: String) {
        switch unit {
        case .duration: DurationFormat.fixed.strings(limit: TraceTime.nanoseconds(limit), value: TraceTime.nanoseconds(value))
        case .count: (DecimalText.compact(limit), DecimalText.compact(value))
        }
    }

    /// `value` as a mark on a scale whose marks are `resolution` apart (a histogram's bin edges):
    /// a duration to the digit that step needs (``DurationFormat/string(_:resolution:)``), so that
    /// neighbouring bins never read the same; a count as ``format(_:)`` writes it.
    public func format(_ value: Double, resolution: Double) -> String {
        switch unit {
        case .duration: DurationFormat.fixed.string(TraceTime.nanoseconds(value), resolution: max(1, TraceTime.nanoseconds(resolution)))
        case .count: DecimalText.compact(value)
        }
    }
}
