import Foundation
import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
import LifetraceSynthesis
import LifetraceTestSupport
import Testing

/// The CTF export read back by babeltrace2, with the printed events counted by class name.
@Suite("CTF export, read by babeltrace2", .enabled(if: ExternalReader.babeltraceTestsEnabled))
struct CTFExportTests {
    /// babeltrace2's text output, split into event lines `[time] (+delta) name: ...`.
    struct Printed {
        var names: [String]
        var lines: [String]

        /// How often each event class name was printed.
        var counts: [String: Int] {
            var counts: [String: Int] = [:]
            for name in names { counts[name, default: 0] += 1 }
            return counts
        }
    }

    static func read(_ directory: String) -> Printed? {
        guard let babeltrace = ExternalReader.babeltrace else {
            ExternalReader.requireMissing("babeltrace2 (apt-get install babeltrace2)")
            return nil
        }
        let result = ExternalReader.run(babeltrace, [directory])
        #expect(result.status == 0, "babeltrace2 failed: \(result.error.prefix(3000))")
        let pattern = #/^\[[^\]]+\] \([^)]+\) ([A-Za-z.]+): /#
        var printed = Printed(names: [], lines: [])
        for line in result.output.split(separator: "\n") {
            guard let match = line.firstMatch(of: pattern) else { continue }
            printed.names.append(String(match.1))
            printed.lines.append(String(line))
        }
        return printed
    }

    static func expectMatches(_ printed: Printed, _ facts: TraceFacts) {
        let derived = facts.derivedRecords
        let findings = facts.analysis.violations.count + facts.stallCount + facts.launchWindowCount
        #expect(printed.names.count == facts.events.count + findings + derived.values.reduce(0, +))
        var expected = derived
        for event in facts.events { expected[event.type.name, default: 0] += 1 }
        if !facts.analysis.violations.isEmpty { expected["violation"] = facts.analysis.violations.count }
        if facts.stallCount > 0 { expected["stall"] = facts.stallCount }
        if facts.launchWindowCount > 0 { expected["launch.window"] = facts.launchWindowCount }
        #expect(printed.counts == expected)
        let rules = printed.lines.filter { $0.contains(" violation: ") }.compactMap { line in
            line.firstMatch(of: /rule = "([a-z-]+)"/).map { String($0.1) }
        }
        var ruleCounts: [String: Int] = [:]
        for rule in rules { ruleCounts[rule, default: 0] += 1 }
        #expect(ruleCounts == facts.violationRules)
    }

    @Test("Sample runs and rule samples: every event printed, by name", arguments: ExportSamples.runs + ExportSamples.violating)
    func samples(path: String) throws {
        let facts = try TraceFacts(path: path)
        let output = temporaryDirectory() + "/ctf"
        let exported = try TraceExporter.export(path: path, to: .ctf, output: output)
        #expect(exported.recordCount == facts.events.count + facts.analysis.violations.count + facts.stallCount
            + facts.launchWindowCount + facts.derivedRecords.values.reduce(0, +))
        guard let printed = Self.read(output) else { return }
        Self.expectMatches(printed, facts)
    }

    @Test("Fields are printed with their values: strings, enums, optional numbers")
    func fields() throws {
        let facts = TraceFacts.handmade(names: (scene: "main \"hall\"", mark: "tap → 👍", signpost: "net"))
        var source = EventListSource(events: facts.events, symbols: facts.symbols, metadata: facts.metadata)
        let output = temporaryDirectory() + "/ctf"
        _ = try TraceExporter.export(&source, to: .ctf, output: output)
        guard let printed = Self.read(output) else { return }
        Self.expectMatches(printed, facts)
        let text = printed.lines.joined(separator: "\n")
        #expect(text.contains("launch: { trace_stream = ( \"system\" : container = 0 ), thread = 0 }, { reason = \"user\", background = 0, prewarm = 0, has_pid = 1, pid = 77 }"))
        #expect(text.contains("to = ( \"suspended\" : container = 4 )"))
        #expect(text.contains("name = \"tap → 👍\""))
        #expect(text.contains("signpost.begin: { trace_stream = ( \"app\" : container = 1 ), thread = 4 }, { name = \"net\", has_id = 1, id = 9 }"))
        #expect(text.contains("exit: { trace_stream = ( \"system\" : container = 0 ), thread = 0 }, { has_code = 0, code = 0, has_signal = 1, signal = 9 }"))
        #expect(text.contains("first = ( \"first\" : container = 2 )"))
        #expect(text.contains("rule = \"balanced-activation\""))
    }

    @Test("Timestamps going backwards and analysis findings dated earlier still read in order")
    func backwardsTime() throws {
        let path = ExportSamples.root.appendingPathComponent("traces/time-order.fail.jsonl").path
        let facts = try TraceFacts(path: path)
        #expect(facts.violationRules["time-order"] != nil)
        let output = temporaryDirectory() + "/ctf"
        _ = try TraceExporter.export(path: path, to: .ctf, output: output)
        guard let printed = Self.read(output) else { return }
        Self.expectMatches(printed, facts)
    }

    @Test("A trace of 20,000 synthesized events spans many packets and reads whole")
    func manyPackets() throws {
        var reference = TraceSynthesizer(eventCount: 20_000, seed: 3)
        var events: [TraceEvent] = []
        while let event = reference.next() { events.append(event) }
        let facts = TraceFacts(events: events, symbols: reference.symbols, metadata: reference.metadata)
        var source = TraceSynthesizer(eventCount: 20_000, seed: 3)
        let output = temporaryDirectory() + "/ctf"
        let exported = try TraceExporter.export(&source, to: .ctf, output: output)
        let size = (try FileManager.default.attributesOfItem(atPath: output + "/stream_0")[.size] as? Int) ?? 0
        #expect(size > 4 * (1 << 16), "several packets")
        #expect(exported.eventCount == 20_000)
        guard let printed = Self.read(output) else { return }
        Self.expectMatches(printed, facts)
    }

    @Test("A trace without events gives a trace babeltrace2 reads as empty")
    func empty() throws {
        var source = EventListSource(events: [], symbols: SymbolTable(), metadata: TraceMetadata([("app", "x")]))
        let output = temporaryDirectory() + "/ctf"
        let exported = try TraceExporter.export(&source, to: .ctf, output: output)
        #expect(exported.recordCount == 0)
        guard let printed = Self.read(output) else { return }
        #expect(printed.names.isEmpty)
    }

    @Test("Metadata with any keys and values becomes a valid env block")
    func metadataEnvironment() throws {
        var symbols = SymbolTable()
        let events = [TraceEvent(timestamp: 10, payload: .mark(name: symbols.intern("m")))]
        let metadata = TraceMetadata([
            ("app", "a \"quoted\" \\ value\nwith a newline"), ("struct", "keyword"), ("app version", "1.0"),
            ("app_version", "2.0"), ("9lives", "digit"),
        ])
        var source = EventListSource(events: events, symbols: symbols, metadata: metadata)
        let output = temporaryDirectory() + "/ctf"
        _ = try TraceExporter.export(&source, to: .ctf, output: output)
        guard let printed = Self.read(output) else { return }
        #expect(printed.names == ["mark"])
        let text = try String(contentsOfFile: output + "/metadata", encoding: .utf8)
        #expect(text.contains("meta_struct = \"keyword\";"))
        #expect(text.contains("app_version = \"1.0\";"))
        #expect(text.contains("app_version_2 = \"2.0\";"))
        #expect(text.contains("meta_9lives = \"digit\";"))
        #expect(text.contains("app = \"a \\\"quoted\\\" \\\\ value\\nwith a newline\";"))
    }
}
