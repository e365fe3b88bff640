import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRules
import LifetraceTestSupport
import Testing

/// The rules are judged on the analyzer's edge stream however the analyzer is driven: served
/// alone (`check`: only the edges a rule can use), event by event, or beside a sink that takes
/// every edge (`report`, `export`). All three find the same violations, and a sink receives the
/// rules' findings as edges like the built-in ones.
struct EdgeFeedTests {
    static let rules = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/rules")

    static func options() throws -> AnalysisOptions {
        var options = AnalysisOptions()
        let files = ["team.yml", "restated-builtins.yml"].map { rules.appendingPathComponent($0).path }
        options.userRules = UserRules(try RuleFileParser.load(paths: files))
        return options
    }

    /// Every JSONL sample: the traces and the rule files' own.
    static var samples: [String] {
        let teams = (try? FileManager.default.contentsOfDirectory(atPath: rules.appendingPathComponent("traces").path)) ?? []
        return SampleTraces.files(suffix: ".jsonl").map(SampleTraces.path)
            + teams.filter { $0.hasSuffix(".jsonl") }.sorted().map { rules.appendingPathComponent("traces/\($0)").path }
    }

    /// The three drives of one trace: a batch with the monitor alone, event by event, and with a
    /// sink; the violations of each (rule id, time, message), and the sink's finding edges.
    static func drives(_ events: [TraceEvent], symbols: SymbolTable, options: AnalysisOptions, label: String) throws {
        var source = EventBatches(events: events, symbols: symbols)
        let batch = try LifecycleAnalyzer.analyze(&source, path: label, options: options)
        let single = LifecycleAnalyzer.analyze(events, symbols: symbols, options: options)
        var analyzer = LifecycleAnalyzer(options: options)
        var log = LifecycleEdgeLog()
        for event in events { analyzer.consume(event, symbols: symbols, into: &log) }
        let (withSink, _) = analyzer.finish(symbols: symbols, into: &log)
        func described(_ violations: [Violation]) -> [String] { violations.map { "\($0.rule.id)@\($0.timestamp): \($0.message)" } }
        #expect(described(batch.violations) == described(single.violations), "\(label): batch and event by event")
        #expect(described(single.violations) == described(withSink), "\(label): alone and beside a sink")
        let findings = log.edges.compactMap { edge -> Violation? in
            if case .finding(let violation) = edge { violation } else { nil }
        }
        // Each finding reaches the sink before its lifetime's end, the rules' too.
        var ended = 0
        for edge in log.edges {
            if case .lifetimeEnded = edge { ended += 1 }
            if case .finding(let violation) = edge {
                #expect(violation.lifetime >= ended, "\(label): \(violation.rule.id) of lifetime \(violation.lifetime) after its end")
            }
        }
        #expect(Set(described(findings)) == Set(described(withSink)), "\(label): the sink gets every finding")
    }

    @Test("Every sample: the same violations however the analyzer is driven", arguments: samples)
    func sample(path: String) throws {
        var reader = try JSONLTraceReader(path: path)
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        try Self.drives(events, symbols: reader.symbols, options: Self.options(), label: path)
    }

    @Test("Random walks: the same violations however the analyzer is driven", arguments: 1...40)
    func walk(seed: UInt64) throws {
        let trace = LifecycleWalk.make(seed: seed).build()
        try Self.drives(trace.events, symbols: trace.symbols, options: Self.options(), label: "seed \(seed)")
    }
}

/// Events held in memory, handed over in batches of up to 64 (the batch loop of `check`).
private struct EventBatches: TraceEventSource {
    let events: [TraceEvent]
    let symbols: SymbolTable
    var position = 0
    var metadata: TraceMetadata { TraceMetadata() }
    var issues: [TraceError] { [] }

    mutating func next() -> TraceEvent? {
        guard position < events.count else { return nil }
        defer { position += 1 }
        return events[position]
    }

    mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) -> Bool {
        guard position < events.count else { return false }
        let end = min(events.count, position + 64)
        events[position..<end].withUnsafeBufferPointer { body($0, symbols) }
        position = end
        return true
    }
}
