import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd

/// What a trace holds, counted straight from its events and its analysis, to compare with
/// what an independent reader finds in an export.
struct TraceFacts {
    var events: [TraceEvent] = []
    var symbols = SymbolTable()
    var metadata = TraceMetadata()
    var analysis: TraceAnalysis

    /// Reads every event of the trace at `path`.
    init(path: String) throws {
        var source = try TraceInputs.open(path: path)
        var events: [TraceEvent] = []
        while let event = try source.next() { events.append(event) }
        self.events = events
        symbols = source.symbols
        metadata = source.metadata
        analysis = LifecycleAnalyzer.analyze(events, symbols: symbols, path: path, metadata: metadata)
    }

    /// The facts of an in-memory trace.
    init(events: [TraceEvent], symbols: SymbolTable, metadata: TraceMetadata = TraceMetadata()) {
        self.events = events
        self.symbols = symbols
        self.metadata = metadata
        analysis = LifecycleAnalyzer.analyze(events, symbols: symbols, metadata: metadata)
    }

    /// How many events of `type` there are.
    func count(_ type: EventType) -> Int { events.count { $0.type == type } }

    /// How many events of `type` named `name` there are (callbacks, signposts, marks).
    func count(_ type: EventType, named name: String) -> Int {
        events.count { $0.type == type && self.name(of: $0) == name }
    }

    /// How many `runloop.wake` events on the main thread there are.
    var mainThreadWakes: Int { events.count { $0.type == .runloopWake && $0.thread.isMain } }

    /// The name an event carries, if any.
    func name(of event: TraceEvent) -> String? {
        switch event.payload {
        case .callbackBegin(let name, _), .callbackEnd(let name, _), .signpostBegin(let name, _),
            .signpostEnd(let name, _), .mark(let name):
            symbols.string(name)
        default:
            nil
        }
    }

    /// The names of the events of `type`, with how often each occurs.
    func names(_ type: EventType) -> [String: Int] {
        var counts: [String: Int] = [:]
        for event in events where event.type == type { counts[name(of: event) ?? "", default: 0] += 1 }
        return counts
    }

    /// The rule ids of the violations, with how often each occurs.
    var violationRules: [String: Int] {
        var counts: [String: Int] = [:]
        for violation in analysis.violations { counts[violation.rule.id, default: 0] += 1 }
        return counts
    }

    /// How many stalls the analysis found.
    var stallCount: Int { analysis.lifetimes.reduce(0) { $0 + $1.stalls.count } }

    /// How many lifetimes have a launch (and so a launch window).
    var launchWindowCount: Int { analysis.lifetimes.count { $0.launch.timestamp != nil } }

    /// The analyzer's edges for the trace.
    var edges: [LifecycleEdge] {
        var analyzer = LifecycleAnalyzer()
        var log = LifecycleEdgeLog()
        for event in events { analyzer.consume(event, symbols: symbols, into: &log) }
        _ = analyzer.finish(symbols: symbols, into: &log)
        return log.edges
    }

    /// The CTF records of what the analyzer derived, by class: an `interval` per interval
    /// ended, a `busy` per busy interval, a `state.span` per state left (the system view's only in
    /// the lifetimes that have one, ``LifetimeReport/hasSystemView``).
    var derivedRecords: [String: Int] {
        var counts: [String: Int] = [:]
        var systemSpans = 0
        for edge in edges {
            switch edge {
            case .intervalEnded: counts["interval", default: 0] += 1
            case .busyEnded: counts["busy", default: 0] += 1
            case .stateChanged(let change) where change.from != nil && change.view == .system: systemSpans += 1
            case .stateChanged(let change) where change.from != nil: counts["state.span", default: 0] += 1
            case .lifetimeEnded(let report):
                if report.hasSystemView { counts["state.span", default: 0] += systemSpans }
                systemSpans = 0
            default: break
            }
        }
        return counts
    }
}

/// A trace held in memory, read like a file.
struct EventListSource: TraceEventSource {
    var metadata: TraceMetadata
    var symbols: SymbolTable
    var issues: [TraceError] { [] }
    private var events: [TraceEvent]
    private var position = 0

    init(events: [TraceEvent], symbols: SymbolTable, metadata: TraceMetadata = TraceMetadata()) {
        self.events = events
        self.symbols = symbols
        self.metadata = metadata
    }

    mutating func next() throws(TraceError) -> TraceEvent? {
        guard position < events.count else { return nil }
        defer { position += 1 }
        return events[position]
    }
}

/// A fresh directory for a test's outputs.
func temporaryDirectory(_ name: String = #function) -> String {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    let path = NSTemporaryDirectory() + "lifetrace-export-\(safe)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The repository's sample traces used by the export tests.
enum ExportSamples {
    static var root: URL { ExternalReader.repositoryRoot.appendingPathComponent("Samples") }

    /// Recorded-looking runs (no violations).
    static var runs: [String] {
        ["cold-launch-scenes", "background-fetch", "prewarm-terminate"].map {
            root.appendingPathComponent("runs/\($0).jsonl").path
        }
    }

    /// Rule samples that violate a rule.
    static var violating: [String] {
        let directory = root.appendingPathComponent("traces")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".fail.jsonl") }.sorted().map { directory.appendingPathComponent($0).path }
    }
}
