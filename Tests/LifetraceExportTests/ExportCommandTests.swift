import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace export` end to end: the built executable, its help, outputs and exit codes.
@Suite("lifetrace export command")
struct ExportCommandTests {
    static var lifetrace: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lifetrace").path
    }

    static func run(_ arguments: [String]) -> ChildProcess.Result {
        ExternalReader.run(lifetrace, arguments)
    }

    @Test("Help names the formats and the exit codes")
    func help() {
        let result = Self.run(["export", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("--to <to>"))
        #expect(result.output.contains("perfetto, chrome-json or ctf"))
        #expect(result.output.contains("3 the output could not be written"))
    }

    @Test("Each format writes its output and says what it wrote", arguments: ["perfetto", "chrome-json", "ctf"])
    func writes(format: String) {
        let output = temporaryDirectory() + "/out.\(format)"
        let result = Self.run(["export", ExportSamples.runs[0], "--to", format, "-o", output])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("113 events"))
        let path = format == "ctf" ? output + "/metadata" : output
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("Bad input and usage exit 2; an unwritable output exits 3")
    func exitCodes() {
        let missing = Self.run(["export", "/nonexistent/trace.jsonl", "--to", "perfetto", "-o", temporaryDirectory() + "/x"])
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("lifetrace: /nonexistent/trace.jsonl: "))
        #expect(missing.error.split(separator: "\n").count == 1)
        #expect(Self.run(["export", ExportSamples.runs[0], "--to", "svg", "-o", "x"]).status == 2)
        #expect(Self.run(["export", ExportSamples.runs[0], "--to", "ctf", "-o", "-"]).status == 2)
        let unwritable = Self.run(["export", ExportSamples.runs[0], "--to", "perfetto", "-o", "/nonexistent/dir/x.pftrace"])
        #expect(unwritable.status == 3)
        #expect(unwritable.error.contains("/nonexistent/dir/x.pftrace: cannot create"))
    }

    @Test("chrome-json to standard output is the whole JSON document")
    func standardOutput() throws {
        let result = Self.run(["export", ExportSamples.runs[0], "--to", "chrome-json", "-o", "-"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect((object?["traceEvents"] as? [Any])?.count ?? 0 > 100)
    }
}
