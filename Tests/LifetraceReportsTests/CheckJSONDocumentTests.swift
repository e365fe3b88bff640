import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports
import LifetraceRunner
import LifetraceTestSupport
import Testing

/// The JSON document written while traces are read, against the same document made from
/// analyses kept whole; and the spools that keep several traces' output in order.
struct CheckJSONDocumentTests {
    static func temporaryDirectory() throws -> String { try ScratchDirectory.make("json") }

    @Test("check --format json streams the document that whole analyses render, byte for byte")
    func streamedEqualsWhole() throws {
        // 32 samples: several windows of traces analysed side by side.
        let paths = try TraceInputs.expand([SampleTraces.directory.path])
        let analyses = try paths.map { path throws in try TraceInputs.analyze(path: path, options: AnalysisOptions()) }
        let whole = CheckJSONDocument.rendered(analyses, strict: false)
        let streamed = try LifetraceCommand.run(["check", "--format", "json", SampleTraces.directory.path])
        #expect(streamed.status == 1)
        #expect(streamed.output == whole)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(whole.utf8)) as? [String: Any])
        let traces = try #require(document["traces"] as? [[String: Any]])
        #expect(traces.map { $0["path"] as? String } == paths)
        #expect(traces.allSatisfy { ($0["lifetimes"] as? [Any])?.count == 1 })
    }

    @Test("an unreadable trace keeps its entry with the error; the summary counts it and does not pass")
    func unreadableTrace() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broken = directory + "/broken.jsonl"
        try Data("{\"ts\": 1, \"type\": \"launch\"}\n{\"ts\": oops}\n".utf8).write(to: URL(fileURLWithPath: broken))
        let result = try LifetraceCommand.run(["check", "--format", "json", SampleTraces.path("launch-stall.pass.jsonl"), broken])
        #expect(result.status == 2)
        #expect(result.error.split(separator: "\n").count == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let traces = try #require(document["traces"] as? [[String: Any]])
        #expect(traces.count == 2)
        let error = try #require(traces[1]["error"] as? String)
        #expect(error.contains("broken.jsonl:2:"))
        #expect(result.error.contains(error))
        let summary = try #require(document["summary"] as? [String: Any])
        #expect(summary["traces"] as? Int == 1)
        #expect(summary["unreadableTraces"] as? Int == 1)
        #expect(summary["passed"] as? Bool == false)
    }

    @Test("report --format json on one trace is the same streamed document")
    func reportJSON() throws {
        let path = SampleTraces.path("launch-stall.fail.jsonl")
        let analysis = try TraceInputs.analyze(path: path, options: AnalysisOptions())
        let result = try LifetraceCommand.run(["report", "--format", "json", path])
        #expect(result.status == 0)
        #expect(result.output == CheckJSONDocument.rendered([analysis], strict: false))
    }

    @Test("a spool past its memory limit moves to a temporary file and copies back every byte in order")
    func spoolSpills() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = OutputSpool()
        var expected = ""
        var line = 0
        while expected.utf8.count < 3 * OutputSpool.memoryLimit {
            let text = "line \(line) \(String(repeating: "x", count: line % 97))\n"
            spool.write(text)
            expected += text
            line += 1
        }
        let path = directory + "/out.txt"
        let output = try StagedOutputFile(path: path)
        try output.write("head\n")
        try spool.copy(to: output)
        try output.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "head\n" + expected)
    }
}
