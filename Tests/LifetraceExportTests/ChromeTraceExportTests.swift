import Foundation
import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The Trace Event Format export parsed as JSON (Foundation, and Python's `json` as a second
/// reader), with its events counted per phase, category and name.
@Suite("Trace Event Format export")
struct ChromeTraceExportTests {
    /// The parsed file: the top-level object and its events.
    struct Parsed {
        var object: [String: Any]
        var events: [[String: Any]]

        /// Events with phase `phase` and category `category`.
        func events(_ phase: String, _ category: String? = nil) -> [[String: Any]] {
            events.filter { $0["ph"] as? String == phase && (category == nil || $0["cat"] as? String == category) }
        }

        /// How often each name occurs among `events`.
        static func names(_ events: [[String: Any]]) -> [String: Int] {
            var counts: [String: Int] = [:]
            for event in events { counts[event["name"] as? String ?? "", default: 0] += 1 }
            return counts
        }
    }

    static func parse(_ path: String) throws -> Parsed {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]])
        return Parsed(object: object, events: events)
    }

    static func expectMatches(_ parsed: Parsed, _ facts: TraceFacts) {
        #expect(parsed.object["displayTimeUnit"] as? String == "ns")
        let other = parsed.object["otherData"] as? [String: String] ?? [:]
        for field in facts.metadata.fields { #expect(other[field.key] == field.value) }
        // B/E pairs balance and never close more than is open, per thread, in file order.
        var depth: [Int: Int] = [:]
        for event in parsed.events {
            let tid = event["tid"] as? Int ?? -1
            switch event["ph"] as? String {
            case "B": depth[tid, default: 0] += 1
            case "E":
                depth[tid, default: 0] -= 1
                #expect(depth[tid]! >= 0, "E without B on tid \(tid)")
            default: break
            }
        }
        #expect(depth.values.allSatisfy { $0 == 0 })
        #expect(Parsed.names(parsed.events("B", "callback")) == facts.names(.callbackBegin))
        #expect(Parsed.names(parsed.events("B", "signpost")) == facts.names(.signpostBegin))
        #expect(Parsed.names(parsed.events("i", "mark")) == facts.names(.mark))
        #expect(parsed.events("i", "frame").count == facts.count(.frame))
        #expect(parsed.events("B", "busy").count == facts.expectedBusySlices)
        #expect(parsed.events("X", "stall").count == facts.stallCount)
        #expect(parsed.events("X", "launch").count == facts.launchWindowCount)
        #expect(Parsed.names(parsed.events("i", "violation")) == facts.violationRules)
        for violation in parsed.events("i", "violation") {
            let args = violation["args"] as? [String: Any] ?? [:]
            #expect(!(args["message"] as? String ?? "").isEmpty)
        }
        let threadNames = parsed.events("M").filter { $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        for name in ["main thread", "System view", "App view", "Violations"] {
            #expect(threadNames.contains(name), "track \(name)")
        }
    }

    @Test("Sample runs and rule samples: counts and names match the trace", arguments: ExportSamples.runs + ExportSamples.violating)
    func samples(path: String) throws {
        let facts = try TraceFacts(path: path)
        let output = temporaryDirectory() + "/trace.json"
        _ = try TraceExporter.export(path: path, to: .chromeJSON, output: output)
        Self.expectMatches(try Self.parse(output), facts)
    }

    @Test("Names with quotes, newlines, control and non-ASCII characters survive the escaping")
    func specialCharacters() throws {
        let names = (scene: "scène \"1\"\nzwei", mark: "tap → 👍 \\ \u{1}\t", signpost: "net/\"GET\"")
        let facts = TraceFacts.handmade(names: names)
        var source = EventListSource(events: facts.events, symbols: facts.symbols, metadata: facts.metadata)
        let output = temporaryDirectory() + "/names.json"
        _ = try TraceExporter.export(&source, to: .chromeJSON, output: output)
        let parsed = try Self.parse(output)
        Self.expectMatches(parsed, facts)
        #expect(parsed.events("i", "mark").first?["name"] as? String == names.mark)
        #expect((parsed.object["otherData"] as? [String: String])?["app"] == names.scene)
        // Escaped as `dump` escapes: `/` stays as it is, control characters as \uXXXX.
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains(#""net/\"GET\"""#))
        #expect(!text.contains(#"\/"#))
        #expect(text.contains(#"tap → 👍 \\ \u0001\t"#))
    }

    @Test("Timestamps are microseconds with the nanoseconds kept")
    func timestamps() throws {
        var symbols = SymbolTable()
        let events = [
            TraceEvent(timestamp: 1_234_567_891, payload: .mark(name: symbols.intern("a"))),
            TraceEvent(timestamp: 5, payload: .mark(name: symbols.intern("b"))),
        ]
        var source = EventListSource(events: events, symbols: symbols)
        let output = temporaryDirectory() + "/times.json"
        _ = try TraceExporter.export(&source, to: .chromeJSON, output: output)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("\"ts\":1234567.891,"))
        #expect(text.contains("\"ts\":0.005,"))
        let marks = try Self.parse(output).events("i", "mark")
        #expect(marks.map { $0["ts"] as? Double } == [1234567.891, 0.005])
    }

    @Test("Python's json module reads the export too", .enabled(if: ExternalReader.python != nil || ExternalReader.isCI))
    func pythonReads() throws {
        guard let python = ExternalReader.python else {
            ExternalReader.requireMissing("python3")
            return
        }
        let path = ExportSamples.runs[0]
        let facts = try TraceFacts(path: path)
        let output = temporaryDirectory() + "/python.json"
        _ = try TraceExporter.export(path: path, to: .chromeJSON, output: output)
        let script = """
            import json, sys, collections
            events = json.load(open(sys.argv[1]))["traceEvents"]
            counts = collections.Counter(e["ph"] + " " + e.get("cat", "") for e in events)
            print(json.dumps(counts, sort_keys=True))
            """
        let result = ExternalReader.run(python, ["-c", script, output])
        #expect(result.status == 0, "\(result.error)")
        let counts = try JSONDecoder().decode([String: Int].self, from: Data(result.output.utf8))
        #expect(counts["B callback"] == facts.count(.callbackBegin))
        #expect(counts["B signpost"] == facts.count(.signpostBegin))
        #expect(counts["i frame"] == facts.count(.frame))
        #expect(counts["B callback"] ?? 0 > 0)
    }
}
