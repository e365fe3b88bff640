import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace export` end to end: the built executable, its help, outputs and exit codes.
@Suite("lifetrace export command")
struct ExportCommandTests {
    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    /// A recorded-looking run of the samples (no violations).
    static let sample = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("runs/cold-launch-scenes.jsonl").path

    /// A new empty directory for outputs.
    static func scratch() throws -> String { try ScratchDirectory.make("export-command") }

    @Test("Help names the formats and the exit codes")
    func help() throws {
        let result = try Self.run(["export", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("--format <format>"))
        #expect(result.output.contains("values: perfetto, chrome-json, ctf"))
        // The old spelling still works but is not offered.
        #expect(!result.output.contains("--to"))
        #expect(result.output.contains("7 the output could not be written"))
    }

    @Test("Each format writes its output and says what it wrote", arguments: ["perfetto", "chrome-json", "ctf"])
    func writes(format: String) throws {
        let output = try Self.scratch() + "/out.\(format)"
        let result = try Self.run(["export", Self.sample, "--format", format, "-o", output])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("113 events"))
        let path = format == "ctf" ? output + "/metadata" : output
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test("Bad input and usage exit 2; an unwritable output exits 7")
    func exitCodes() throws {
        let missing = try Self.run(["export", "/nonexistent/trace.jsonl", "--format", "perfetto", "-o", try Self.scratch() + "/x"])
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("lifetrace: /nonexistent/trace.jsonl: "))
        #expect(missing.error.split(separator: "\n").count == 1)
        #expect(try Self.run(["export", Self.sample, "--format", "svg", "-o", "x"]).status == 2)
        #expect(try Self.run(["export", Self.sample, "--format", "ctf", "-o", "-"]).status == 2)
        let unwritable = try Self.run(["export", Self.sample, "--format", "perfetto", "-o", "/nonexistent/dir/x.pftrace"])
        #expect(unwritable.status == 7)
        #expect(unwritable.error.contains("/nonexistent/dir/x.pftrace: cannot create"))
    }

    @Test("chrome-json to standard output is the whole JSON document")
    func standardOutput() throws {
        let result = try Self.run(["export", Self.sample, "--format", "chrome-json", "-o", "-"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        #expect((object?["traceEvents"] as? [Any])?.count ?? 0 > 100)
    }
}
