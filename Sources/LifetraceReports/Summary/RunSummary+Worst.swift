import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

extension RunSummary {
    /// The fewest samples a percentile is written for in the tables for people: the p-th
    /// percentile needs 100 / (100 - p) samples, so that at least one sample lies above it (p90
    /// from 10, p99 from 100); the minimum, median and maximum need one. The JSON form writes every
    /// figure with its `n`, for programs that decide for themselves.
    public static func samplesNeeded(percent: Int) -> Int {
        percent <= 50 || percent >= 100 ? 1 : Int((100.0 / Double(100 - percent)).rounded(.up))
    }

    /// A sample behind a figure: the run and lifetime it comes from (and, for a stall, the work
    /// it is blamed on).
    public struct Witness: Sendable, Hashable {
        /// The value (ns or a count).
        public var value: Int64
        /// The trace's path.
        public var path: String
        /// The lifetime's position in the trace, from 0.
        public var lifetime: Int
        /// The work a stall is blamed on, when the sample is a stall.
        public var work: String?
    }

    /// The samples of `metric` with where each comes from, sorted by value (in run and lifetime
    /// order among equals).
    func witnesses(_ metric: RunMetric) -> [Witness] {
        var result: [Witness] = []
        for run in runs {
            for lifetime in run.lifetimes {
                switch metric {
                case .stallCount:
                    result.append(Witness(value: Int64(lifetime.stalls.count + lifetime.omittedStalls), path: run.path, lifetime: lifetime.index))
                case .stallDuration:
                    for (index, stall) in lifetime.stalls.enumerated() {
                        let work = index < lifetime.stallWork.count ? lifetime.stallWork[index] : ""
                        result.append(Witness(value: stall, path: run.path, lifetime: lifetime.index, work: work.isEmpty ? nil : work))
                    }
                default:
                    let kind = LaunchKind.allCases.first { metric == .launch($0) || metric == .busy($0) }
                    guard let kind, lifetime.kind == kind else { continue }
                    let value = metric == .launch(kind) ? lifetime.launchDuration : lifetime.busyInWindow
                    if let value { result.append(Witness(value: value, path: run.path, lifetime: lifetime.index)) }
                }
            }
        }
        return result.enumerated().sorted { ($0.element.value, $0.offset) < ($1.element.value, $1.offset) }.map(\.element)
    }

    /// The samples a percentile is computed from (docs/REPORTS.md, "Percentiles"): with n
    /// samples sorted ascending and (n - 1) p = 100 i + r, the (i + 1)-th sample, and when r is
    /// not 0 the next one too, the figure lying r hundredths of the way from the one to the other.
    public struct PercentileSource: Sendable, Hashable {
        /// The (i + 1)-th sample.
        public var lower: Witness
        /// The (i + 2)-th sample, when the figure lies between two.
        public var upper: Witness?
        /// The lower sample's position in the sorted sample, from 1.
        public var rank: Int
        /// How far towards the upper sample the figure lies, in hundredths (0 to 99).
        public var hundredths: Int
        /// How many samples there are.
        public var count: Int

        /// The samples, the lower first.
        public var samples: [Witness] { [lower] + (upper.map { [$0] } ?? []) }

        /// How the figure comes from its samples: `sample 45 of 50`, or `10 % of the way from
        /// sample 45 to 46 of 50`.
        public var phrase: String {
            upper == nil ? "sample \(rank) of \(count)" : "\(hundredths) % of the way from sample \(rank) to \(rank + 1) of \(count)"
        }
    }

    /// The samples a written percentile of `row` comes from; nil when the figure is not written.
    public func source(_ row: DistributionRow, percent: Int) -> PercentileSource? {
        guard row.distribution.count >= Self.samplesNeeded(percent: percent) else { return nil }
        let samples = witnesses(row.metric)
        guard !samples.isEmpty else { return nil }
        let position = (samples.count - 1) * min(100, max(0, percent))
        let index = position / 100
        let remainder = position % 100
        return PercentileSource(
            lower: samples[index], upper: remainder > 0 ? samples[index + 1] : nil, rank: index + 1,
            hundredths: remainder, count: samples.count)
    }

    /// The sample a percentile column points at: of the samples it comes from, the nearer (the
    /// maximum for the maximum); nil when the figure is not written.
    public func witness(_ row: DistributionRow, percent: Int) -> Witness? {
        guard let source = source(row, percent: percent) else { return nil }
        guard let upper = source.upper, source.hundredths > 50 else { return source.lower }
        return upper
    }

    /// A witness in words: `runs/a.ltrace, lifetime 3` (and the work, for a stall).
    public static func phrase(_ witness: Witness) -> String {
        "\(witness.path), lifetime \(witness.lifetime + 1)" + (witness.work.map { ", in \($0)" } ?? "")
    }

    /// One group of runs that share their metadata (app version, OS, device).
    public struct Group: Sendable, Hashable {
        /// The app version, OS and device (`-` when a trace does not say).
        public var appVersion: String
        public var os: String
        public var device: String
        /// The traces and lifetimes.
        public var traces = 0
        public var lifetimes = 0
        /// Cold launch durations (ns), for the median.
        public var launches: [Int64] = []
        /// The stalls (hangs: the main thread unresponsive for the stall threshold or more).
        public var stalls = 0
        /// Their total duration (ns).
        public var stallTime: Int64 = 0
        /// Time on screen (ns): active or inactive.
        public var onScreen: Int64 = 0

        /// Seconds of hang per hour on screen, nil with no time on screen.
        public var hangRate: Double? { Self.hangRate(stallTime: stallTime, onScreen: onScreen) }

        /// Seconds of hang per hour on screen, of `stallTime` over `onScreen` (ns), nil with no
        /// time on screen: the one definition (Xcode Organizer's).
        public static func hangRate(stallTime: Int64, onScreen: Int64) -> Double? {
            onScreen > 0 ? Double(stallTime) / 1e9 / (Double(onScreen) / 3.6e12) : nil
        }
    }

    /// The runs grouped by the metadata they carry (`appVersion`, `os`, `device`), in the order
    /// of those values.
    public var groups: [Group] {
        var byKey: [[String]: Group] = [:]
        for run in runs {
            let key = ["appVersion", "os", "device"].map { run.metadata[$0] ?? "-" }
            var group = byKey[key] ?? Group(appVersion: key[0], os: key[1], device: key[2])
            group.traces += 1
            group.lifetimes += run.lifetimes.count + run.omittedLifetimes
            for lifetime in run.lifetimes {
                if lifetime.kind == .cold, let launch = lifetime.launchDuration { group.launches.append(launch) }
                group.stalls += lifetime.stalls.count + lifetime.omittedStalls
                group.stallTime &+= lifetime.stalls.reduce(0, &+)
                group.onScreen &+= lifetime.onScreen
            }
            byKey[key] = group
        }
        return byKey.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { byKey[$0]! }
    }

    /// The cells of a group: version, OS, device, traces, lifetimes, launch median, stalls, stall
    /// time, time on screen, hang rate.
    public static func cells(_ group: Group) -> [String] {
        let median = SampleDistribution(integers: group.launches).percentileHundredths(50).map { ($0 + 50) / 100 }
        return [
            group.appVersion, group.os, group.device, String(group.traces), String(group.lifetimes),
            median.map { DurationFormat.fixed.string(Int64(clamping: $0)) } ?? "-", String(group.stalls),
            DurationFormat.fixed.string(group.stallTime), DurationFormat.fixed.string(group.onScreen),
            group.hangRate.map { DecimalText.string($0, decimals: 1) + " s/h" } ?? "-",
        ]
    }

    /// The header of the groups table.
    public static let groupHeader = [
        "app version", "OS", "device", "traces", "lifetimes", "cold launch median", "hangs", "hang time", "on screen",
        "hang rate",
    ]

    /// The worst samples in words: the slowest launch of each kind and the longest stall, each
    /// with its run and lifetime.
    public var worstLines: [String] {
        var lines: [String] = []
        for row in launchRows {
            if let witness = witness(row, percent: 100) {
                lines.append("slowest \(row.label) launch: \(row.metric.format(Double(witness.value))) in \(Self.phrase(witness))")
            }
        }
        if let witness = witness(stallRows[1], percent: 100) {
            lines.append("longest stall: \(stallRows[1].metric.format(Double(witness.value))) in \(Self.phrase(witness))")
        }
        return lines
    }
}
