import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// What a many-run summary or a comparison keeps of one trace: a few numbers per lifetime, the
/// violation counts per rule and the endings. Small, so thousands of traces fit in memory.
public struct RunFacts: Sendable, Hashable {
    /// What is kept of one lifetime.
    public struct Lifetime: Sendable, Hashable {
        /// The launch kind.
        public var kind: LaunchKind
        /// The launch duration (ns), nil when the window never closed.
        public var launchDuration: Int64?
        /// Main-thread busy time in the launch window (ns).
        public var busyInWindow: Int64
        /// Each stall's duration (ns), in time order.
        public var stalls: [Int64]
        /// How the lifetime ended.
        public var end: LifetimeEnd.Kind
    }

    /// The trace's path.
    public var path: String
    /// How many events it had.
    public var eventCount: Int
    /// Its lifetimes.
    public var lifetimes: [Lifetime]
    /// Violations per rule, in rule order, rules with none left out.
    public var violations: [(rule: Rule, count: Int)]

    /// The facts of `analysis`.
    public init(_ analysis: TraceAnalysis) {
        path = analysis.path
        eventCount = analysis.eventCount
        lifetimes = analysis.lifetimes.map {
            Lifetime(
                kind: $0.launch.kind, launchDuration: $0.launch.duration, busyInWindow: $0.launch.busyInWindow,
                stalls: $0.stalls.map(\.duration), end: $0.end.kind)
        }
        var counts: [Rule: Int] = [:]
        for violation in analysis.violations { counts[violation.rule, default: 0] += 1 }
        for (rule, count) in analysis.omittedViolations { counts[rule, default: 0] += count }
        violations = counts.keys.sorted().map { ($0, counts[$0]!) }
    }

    public static func == (lhs: RunFacts, rhs: RunFacts) -> Bool {
        lhs.path == rhs.path && lhs.eventCount == rhs.eventCount && lhs.lifetimes == rhs.lifetimes
            && lhs.violations.elementsEqual(rhs.violations, by: { $0.rule == $1.rule && $0.count == $1.count })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(lifetimes)
    }

    /// Analyses `paths` on every core and returns their facts in the order of `paths`.
    /// `progress` is called (from any thread) with the number of traces done so far. The first
    /// error in path order is thrown.
    public static func collect(
        _ paths: [String], options: AnalysisOptions, progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) throws(TraceError) -> [RunFacts] {
        var facts: [RunFacts] = []
        facts.reserveCapacity(paths.count)
        for result in TraceInputs.analyze(paths: paths, options: options, progress: progress) {
            facts.append(RunFacts(try result.get()))
        }
        return facts
    }
}
