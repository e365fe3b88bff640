import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner

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
        /// Each listed stall's duration (ns), in time order.
        public var stalls: [Int64]
        /// The stalls past those (``LifetimeReport/omittedStalls``), counted.
        public var omittedStalls = 0
        /// How the lifetime ended.
        public var end: LifetimeEnd.Kind
        /// Its position in its trace, from 0.
        public var index = 0
        /// The work each listed stall is blamed on (its chain), empty when none ran.
        public var stallWork: [String] = []
        /// Time on screen (ns): in the active or inactive state.
        public var onScreen: Int64 = 0

        /// A lifetime's facts from their parts (a history store keeps them).
        public init(
            kind: LaunchKind, launchDuration: Int64?, busyInWindow: Int64, stalls: [Int64], omittedStalls: Int = 0,
            end: LifetimeEnd.Kind, index: Int = 0, stallWork: [String] = [], onScreen: Int64 = 0
        ) {
            self.kind = kind
            self.launchDuration = launchDuration
            self.busyInWindow = busyInWindow
            self.stalls = stalls
            self.omittedStalls = omittedStalls
            self.end = end
            self.index = index
            self.stallWork = stallWork
            self.onScreen = onScreen
        }
    }

    /// The trace's path.
    public var path: String
    /// How many events it had.
    public var eventCount: Int
    /// Its lifetimes: the first ``CappedCounts/lifetimeLimit``, which the statistics come from.
    public var lifetimes: [Lifetime]
    /// The lifetimes past those, counted.
    public var omittedLifetimes = 0
    /// Violations per rule, in rule order, rules with none left out.
    public var violations: [(rule: Rule, count: Int)]
    /// The trace's metadata (app version, OS, device, ...), from its first lifetime row.
    public var metadata = TraceMetadata()
    /// The problems the trace's reader recovered from (its facts are those read before them);
    /// the commands name them, and a trace that lost data is bad input (docs/CLI.md).
    public var issues: [TraceError] = []

    /// A trace's facts from their parts (a history store keeps them).
    public init(
        path: String, eventCount: Int, lifetimes: [Lifetime], omittedLifetimes: Int, violations: [(rule: Rule, count: Int)],
        metadata: TraceMetadata
    ) {
        self.path = path
        self.eventCount = eventCount
        self.lifetimes = lifetimes
        self.omittedLifetimes = omittedLifetimes
        self.violations = violations
        self.metadata = metadata
    }

    /// The facts of a trace from its rows: the lifetime rows (``LifetimeRow``) and the row that
    /// closes it (``TraceRow``). This is the one place a summary reads a trace from, in this
    /// program as in the Spark job (docs/REPORTS.md, "Aggregation").
    public init(trace: TraceRow, lifetimes: [LifetimeRow]) {
        path = trace.path
        eventCount = trace.eventCount
        self.lifetimes = lifetimes.map {
            Lifetime(
                kind: $0.lifetime.launch.kind, launchDuration: $0.lifetime.launch.duration,
                busyInWindow: $0.lifetime.launch.busyInWindow, stalls: $0.stallDurations,
                omittedStalls: $0.lifetime.omittedStalls, end: $0.lifetime.end.kind, index: $0.lifetime.index,
                stallWork: $0.lifetime.stalls.map { $0.work?.chainText ?? "" },
                onScreen: $0.lifetime.timeInStates.durations.reduce(0) {
                    $1.state == "active" || $1.state == "inactive" ? $0 &+ $1.duration : $0
                })
        }
        metadata = lifetimes.first?.metadata ?? TraceMetadata()
        omittedLifetimes = max(0, trace.lifetimeCount - lifetimes.count)
        violations = trace.violations
    }

    /// The facts of `analysis` (its lifetimes kept), through the same rows.
    public init(_ analysis: TraceAnalysis) {
        self.init(trace: TraceRow(analysis), lifetimes: Self.lifetimeRows(analysis))
        issues = analysis.issues
    }

    /// The lifetime rows of `analysis` (its lifetimes kept), each with its violations.
    public static func lifetimeRows(_ analysis: TraceAnalysis) -> [LifetimeRow] {
        analysis.lifetimes.map { lifetime in
            LifetimeRow(
                path: analysis.path, metadata: analysis.metadata, lifetime: lifetime,
                violations: analysis.violations.lazy.filter { $0.lifetime == lifetime.index })
        }
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
    /// `progress` is called with the number of traces done so far. The first error in path order
    /// is thrown.
    public static func collect(
        _ paths: [String], options: AnalysisOptions, progress: (Int) -> Void = { _ in }
    ) throws(TraceError) -> [RunFacts] {
        let (runs, unreadable) = try collectRows(paths, options: options, progress: progress)
        if let first = unreadable.first { throw first.error }
        return runs
    }

    /// Analyses `paths` on every core, a row per lifetime as it ends, and returns the facts of
    /// the traces that could be read and the error of each that could not, both in path order.
    public static func collectRows(
        _ paths: [String], options: AnalysisOptions, progress: (Int) -> Void = { _ in }
    ) throws(TraceError) -> (runs: [RunFacts], unreadable: [(path: String, error: TraceError)]) {
        var runs: [RunFacts] = []
        var unreadable: [(path: String, error: TraceError)] = []
        try analyzeRows(paths, options: options) { path, result in
            switch result {
            case .success(let rows):
                var facts = RunFacts(trace: rows.trace, lifetimes: rows.lifetimes)
                facts.issues = rows.issues
                runs.append(facts)
            case .failure(let error): unreadable.append((path, error))
            }
            progress(runs.count + unreadable.count)
        }
        return (runs, unreadable)
    }

    /// A trace's rows as ``analyzeRows(_:options:emit:)`` hands them over.
    public struct AnalysedRows: Sendable {
        /// The row that closes the trace.
        public var trace: TraceRow
        /// Its first lifetime rows.
        public var lifetimes: [LifetimeRow]
        /// The problems its reader recovered from.
        public var issues: [TraceError]
    }

    /// Analyses `paths` on every core and hands `emit`, on the calling thread and in path order,
    /// each trace's rows: its first ``AnalysisOptions/lifetimeLimit`` lifetime rows, the row that
    /// closes it and the problems its reader recovered from; or the error that stopped it. The
    /// one reading of traces into rows that the summary and the history share.
    public static func analyzeRows(
        _ paths: [String], options: AnalysisOptions,
        emit: (String, Result<AnalysedRows, TraceError>) -> Void
    ) throws(TraceError) {
        var streaming = options
        streaming.keepsLifetimes = false
        let options = streaming
        try TraceInputs.inOrder(paths: paths, output: nil) { path, alone, _ in
            var rows: [LifetimeRow] = []
            let result = Result { () throws(TraceError) in
                try TraceInputs.analyze(path: path, options: options, prefetch: alone) { metadata, lifetime, violations, omitted in
                    // The first lifetimes, as an analysis keeps them; the trace's row counts them all.
                    guard rows.count < options.lifetimeLimit else { return }
                    rows.append(LifetimeRow(
                        path: path, metadata: metadata, lifetime: lifetime, violations: violations, omitted: omitted))
                }
            }
            return (path, result.map { analysis in AnalysedRows(trace: TraceRow(analysis), lifetimes: rows, issues: analysis.issues) })
        } emit: { (traced: (String, Result<AnalysedRows, TraceError>), _) in
            emit(traced.0, traced.1)
        }
    }
}
