import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports

/// What the history keeps of one run (a trace): the figures of each lifetime that the many-run
/// summary reads (docs/REPORTS.md, "Aggregation"), its violations per rule, and the metadata
/// that groups it. Made from the rows of `report --format ndjson` (``LifetimeRow``,
/// ``TraceRow``), whether this program analysed the trace or the Spark job did.
public struct HistoryRun: Sendable, Hashable {
    /// One lifetime's figures.
    public struct Lifetime: Sendable, Hashable {
        /// Its position in its trace, from 0.
        public var position: Int
        /// The launch kind.
        public var launchKind: LaunchKind
        /// The launch duration (ns), nil when the window never closed.
        public var launchDuration: Int64?
        /// Main-thread busy time in the launch window (ns).
        public var busyInWindow: Int64
        /// The milestones, in ns since the launch.
        public var milestones: LaunchMilestones
        /// The listed stalls (hangs): duration (ns) and the work they are blamed on (`""` none).
        public var stalls: [(duration: Int64, blame: String)]
        /// The stalls past those, counted.
        public var omittedStalls: Int
        /// Time in each state (ns), in the order the row lists them.
        public var timeInStates: [(state: String, duration: Int64)]
        /// How the lifetime ended, with the exit's code and signal.
        public var end: LifetimeEnd.Kind
        public var endCode: Int64?
        public var endSignal: Int64?

        /// Time on screen (ns): active or inactive, as the summary's hang rate counts it.
        public var onScreen: Int64 {
            timeInStates.reduce(0) { $1.state == "active" || $1.state == "inactive" ? $0 &+ $1.duration : $0 }
        }

        /// Time in the background state (ns).
        public var background: Int64 {
            timeInStates.reduce(0) { $1.state == "background" ? $0 &+ $1.duration : $0 }
        }

        public static func == (lhs: Lifetime, rhs: Lifetime) -> Bool {
            lhs.position == rhs.position && lhs.launchKind == rhs.launchKind && lhs.launchDuration == rhs.launchDuration
                && lhs.busyInWindow == rhs.busyInWindow && lhs.milestones == rhs.milestones
                && lhs.stalls.elementsEqual(rhs.stalls, by: { $0 == $1 }) && lhs.omittedStalls == rhs.omittedStalls
                && lhs.timeInStates.elementsEqual(rhs.timeInStates, by: { $0 == $1 }) && lhs.end == rhs.end
                && lhs.endCode == rhs.endCode && lhs.endSignal == rhs.endSignal
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(position)
            hasher.combine(launchDuration)
        }
    }

    /// One rule's violations in the run.
    public struct RuleCount: Sendable, Hashable {
        /// The rule's id (`launch-stall`, or a rule file's).
        public var rule: String
        /// Its severity (`error`, `warning`).
        public var severity: String
        /// Violations in the run.
        public var count: Int
    }

    /// The trace's path as it was named.
    public var path: String
    /// Where the figures come from: `trace` (analysed here) or `rows` (read from rows).
    public var source: String
    /// Events read.
    public var events: Int
    /// Lifetimes in the trace (those past the summary's cap included).
    public var lifetimeCount: Int
    /// The trace's metadata.
    public var metadata: TraceMetadata
    /// The lifetimes, the first ``CappedCounts/lifetimeLimit`` as the summary keeps them.
    public var lifetimes: [Lifetime]
    /// Violations per rule, in rule order.
    public var violations: [RuleCount]

    /// The run of `trace`'s rows, analysed by this program.
    public init(trace: TraceRow, lifetimes: [LifetimeRow]) {
        path = trace.path
        source = "trace"
        events = trace.eventCount
        lifetimeCount = trace.lifetimeCount
        metadata = lifetimes.first?.metadata ?? trace.metadata
        self.lifetimes = lifetimes.map { row in
            let lifetime = row.lifetime
            return Lifetime(
                position: lifetime.index, launchKind: lifetime.launch.kind, launchDuration: lifetime.launch.duration,
                busyInWindow: lifetime.launch.busyInWindow, milestones: lifetime.launch.milestones,
                stalls: lifetime.stalls.map { ($0.duration, $0.work?.chainText ?? "") },
                omittedStalls: lifetime.omittedStalls, timeInStates: lifetime.timeInStates.durations,
                end: lifetime.end.kind, endCode: lifetime.end.code.map(Int64.init), endSignal: lifetime.end.signal.map(Int64.init))
        }
        violations = trace.violations.map { RuleCount(rule: $0.rule.id, severity: $0.rule.severity.rawValue, count: $0.count) }
    }

    /// A run from its parts (rows read from a file, the store).
    public init(
        path: String, source: String, events: Int, lifetimeCount: Int, metadata: TraceMetadata, lifetimes: [Lifetime],
        violations: [RuleCount]
    ) {
        self.path = path
        self.source = source
        self.events = events
        self.lifetimeCount = lifetimeCount
        self.metadata = metadata
        self.lifetimes = lifetimes
        self.violations = violations
    }

    /// The run as the many-run summary reads it (``RunFacts``), so that every figure of the
    /// history is the summary's own. Rule-file rules are counted by the history itself
    /// (``violations``); the facts carry the built-in ones.
    public var facts: RunFacts {
        RunFacts(
            path: path, eventCount: events,
            lifetimes: lifetimes.map {
                RunFacts.Lifetime(
                    kind: $0.launchKind, launchDuration: $0.launchDuration, busyInWindow: $0.busyInWindow,
                    stalls: $0.stalls.map(\.duration), omittedStalls: $0.omittedStalls, end: $0.end, index: $0.position,
                    stallWork: $0.stalls.map(\.blame), onScreen: $0.onScreen)
            },
            omittedLifetimes: max(0, lifetimeCount - lifetimes.count),
            violations: violations.compactMap { entry in Rule(id: entry.rule).map { ($0, entry.count) } },
            metadata: metadata)
    }
}
