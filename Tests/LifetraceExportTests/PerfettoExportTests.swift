import Foundation
import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
import LifetraceSynthesis
import LifetraceTestSupport
import Testing

/// The Perfetto export read back by the official Perfetto protos (PyPI `perfetto`), through
/// scripts/readers/perfetto_summary.py, with counts and names compared to the trace's own.
@Suite("Perfetto export, read by the official protos", .enabled(if: ExternalReader.perfettoTestsEnabled))
struct PerfettoExportTests {
    struct Summary: Decodable {
        var packets: Int
        var sequences: [Int]
        var tracks: [String]
        var types: [String: Int]
        var byCategory: [String: Int]
        var byName: [String: Int]
        var violations: [ViolationInstant]
        var problems: [String]
        var slices: [String: [String]]?
    }

    struct ViolationInstant: Decodable {
        var name: String
        var ts: Int64
        var annotations: [String: String]
    }

    /// Reads `path` with the official protos; nil (and a recorded issue) when that fails.
    static func read(_ path: String, slices: Bool = false) throws -> Summary? {
        guard ExternalReader.hasPerfettoProtos, let python = ExternalReader.python else {
            ExternalReader.requireMissing("the perfetto Python package (pip install perfetto)")
            return nil
        }
        let script = ExternalReader.repositoryRoot.appendingPathComponent("scripts/readers/perfetto_summary.py").path
        let result = ExternalReader.run(python, [script, path] + (slices ? ["--slices"] : []))
        #expect(result.status == 0, "reader failed: \(result.error) \(result.output.prefix(2000))")
        return try JSONDecoder().decode(Summary.self, from: Data(result.output.utf8))
    }

    /// Checks that `summary` holds what `facts` says the trace holds.
    static func expectMatches(_ summary: Summary, _ facts: TraceFacts) {
        #expect(summary.problems == [])
        #expect(summary.sequences == [1])
        #expect(summary.types["TYPE_SLICE_BEGIN"] == summary.types["TYPE_SLICE_END"])
        #expect((summary.byCategory["TYPE_SLICE_BEGIN callback"] ?? 0) == facts.count(.callbackBegin))
        for (name, count) in facts.names(.callbackBegin) {
            #expect(summary.byName["TYPE_SLICE_BEGIN callback \(name)"] == count, "callback \(name)")
        }
        #expect((summary.byCategory["TYPE_SLICE_BEGIN signpost"] ?? 0) == facts.count(.signpostBegin))
        for (name, count) in facts.names(.signpostBegin) {
            #expect(summary.byName["TYPE_SLICE_BEGIN signpost \(name)"] == count, "signpost \(name)")
        }
        for (name, count) in facts.names(.mark) {
            #expect(summary.byName["TYPE_INSTANT mark \(name)"] == count, "mark \(name)")
        }
        #expect((summary.byCategory["TYPE_INSTANT frame"] ?? 0) == facts.count(.frame))
        #expect((summary.byCategory["TYPE_SLICE_BEGIN busy"] ?? 0) == facts.expectedBusySlices)
        #expect((summary.byCategory["TYPE_SLICE_BEGIN bgtask"] ?? 0) == facts.count(.bgtaskBegin))
        #expect((summary.byCategory["TYPE_SLICE_BEGIN stall"] ?? 0) == facts.stallCount)
        #expect((summary.byCategory["TYPE_SLICE_BEGIN launch"] ?? 0) == facts.launchWindowCount)
        #expect((summary.byCategory["TYPE_SLICE_BEGIN lifetime"] ?? 0) == facts.analysis.lifetimes.count)
        var rules: [String: Int] = [:]
        for violation in summary.violations { rules[violation.name, default: 0] += 1 }
        #expect(rules == facts.violationRules)
        for violation in summary.violations {
            #expect(violation.annotations["rule"] == violation.name)
            #expect(!(violation.annotations["message"] ?? "").isEmpty)
            #expect(violation.annotations["severity"] == Rule(id: violation.name)?.severity.rawValue)
        }
        for track in ["process app", "thread main thread", "lane System view", "lane App view", "lane Violations"] {
            #expect(summary.tracks.contains(track), "track \(track)")
        }
    }

    @Test("Sample runs and rule samples: counts and names match the trace", arguments: ExportSamples.runs + ExportSamples.violating)
    func samples(path: String) throws {
        let facts = try TraceFacts(path: path)
        let output = temporaryDirectory() + "/trace.perfetto-trace"
        let exported = try TraceExporter.export(path: path, to: .perfetto, output: output)
        #expect(exported.eventCount == facts.events.count)
        #expect(exported.violationCount == facts.analysis.violations.count)
        guard let summary = try Self.read(output) else { return }
        Self.expectMatches(summary, facts)
    }

    @Test("A synthesized trace of 20,000 events: counts and names match")
    func synthesized() throws {
        var reference = TraceSynthesizer(eventCount: 20_000, seed: 7)
        var events: [TraceEvent] = []
        while let event = reference.next() { events.append(event) }
        let facts = TraceFacts(events: events, symbols: reference.symbols, metadata: reference.metadata)
        var source = TraceSynthesizer(eventCount: 20_000, seed: 7)
        let output = temporaryDirectory() + "/synth.perfetto-trace"
        let exported = try TraceExporter.export(&source, to: .perfetto, output: output)
        #expect(exported.eventCount == 20_000)
        guard let summary = try Self.read(output) else { return }
        Self.expectMatches(summary, facts)
        #expect(summary.tracks.contains { $0.hasPrefix("thread thread ") }, "worker threads get tracks")
        #expect(summary.tracks.contains { $0.hasPrefix("lane thread ") && $0.hasSuffix(" signposts 1") })
        #expect(summary.tracks.contains("lane main thread signposts 1"))
        // The constant-memory reading used on the ten-million-event export agrees.
        let script = ExternalReader.repositoryRoot.appendingPathComponent("scripts/readers/perfetto_summary.py").path
        let streamed = ExternalReader.run(ExternalReader.python!, [script, output, "--stream"])
        #expect(streamed.status == 0, "\(streamed.error)")
        struct Counts: Decodable {
            var types: [String: Int]
            var problems: [String: Int]
        }
        let counts = try JSONDecoder().decode(Counts.self, from: Data(streamed.output.utf8))
        #expect(counts.problems.isEmpty)
        #expect(counts.types["TRACK_DESCRIPTOR"] == summary.tracks.count)
        for (type, count) in summary.types { #expect(counts.types[type] == count, "\(type)") }
    }

    @Test("State lanes follow the system view, the app view and the scene, in order")
    func stateLanes() throws {
        let facts = TraceFacts.handmade(names: (scene: "main", mark: "tap", signpost: "net"))
        var source = EventListSource(events: facts.events, symbols: facts.symbols, metadata: facts.metadata)
        let output = temporaryDirectory() + "/states.perfetto-trace"
        _ = try TraceExporter.export(&source, to: .perfetto, output: output)
        guard let summary = try Self.read(output, slices: true), let slices = summary.slices else { return }
        Self.expectMatches(summary, facts)
        #expect(slices["System view"] == ["inactive", "active", "inactive", "background", "suspended"])
        #expect(slices["Scene main"] == ["background", "inactive", "active", "inactive", "background"])
        #expect(slices["Lifetimes"] == ["lifetime 0"])
        #expect(slices["main thread"]?.filter { $0 == "didBecomeActive" }.count == 2)
        #expect(slices["thread 3 signposts 1"] == ["net"])
        #expect(slices["Background tasks 1"] == ["save"])
        // In a scene app the app-level didBecomeActive after the scene's is UIKit's own post
        // (allowance scene-app-order); the second one in a row breaks balanced-activation. The run
        // loop is busy for 402 ms meanwhile, while Active: a hang.
        #expect(summary.violations.map(\.name) == ["balanced-activation", "hang"])
        #expect(summary.violations.map(\.ts) == [1_105_000_000, 1_100_000_000])
    }

    @Test("A trace without events gives the tracks and nothing on them")
    func empty() throws {
        var source = EventListSource(events: [], symbols: SymbolTable(), metadata: TraceMetadata([("app", "x")]))
        let output = temporaryDirectory() + "/empty.perfetto-trace"
        let exported = try TraceExporter.export(&source, to: .perfetto, output: output)
        #expect(exported.recordCount == 0)
        guard let summary = try Self.read(output) else { return }
        #expect(summary.problems == [])
        #expect(summary.types.isEmpty)
        #expect(summary.tracks.count == 10)
        #expect(summary.tracks.first == "process app")
    }

    @Test("Names with quotes, newlines and non-ASCII characters survive")
    func specialCharacters() throws {
        let names = (scene: "scène \"1\"\nzwei", mark: "tap → 👍 \\ \u{1}", signpost: "net/\"GET\"")
        let facts = TraceFacts.handmade(names: names)
        var source = EventListSource(events: facts.events, symbols: facts.symbols, metadata: facts.metadata)
        let output = temporaryDirectory() + "/names.perfetto-trace"
        _ = try TraceExporter.export(&source, to: .perfetto, output: output)
        guard let summary = try Self.read(output, slices: true) else { return }
        Self.expectMatches(summary, facts)
        #expect(summary.byName["TYPE_INSTANT mark \(names.mark)"] == 1)
        #expect(summary.tracks.contains("lane Scene \(names.scene)"))
    }
}
