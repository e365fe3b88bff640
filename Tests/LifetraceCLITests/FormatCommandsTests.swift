import Foundation
import LifetraceTestSupport
import LifetraceFormat
import Testing

/// `lifetrace import`, `dump` and `info` end to end: the built executable, its outputs, its
/// messages and exit codes.
@Suite("lifetrace import, dump and info")
struct FormatCommandsTests {
    static let samples: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Samples/"
    }()

    /// Runs `lifetrace` with `arguments` (and `input` on standard input).
    static func run(_ arguments: [String], input: Data? = nil) throws -> LifetraceCommand.Result {
        try LifetraceCommand.run(arguments, input: input)
    }

    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "lifetrace-cli-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func importThenDumpReproducesTheInputExactly() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for sample in ["golden/v1-golden.jsonl", "runs/cold-launch-scenes.jsonl", "runs/background-fetch.jsonl"] {
            let input = Self.samples + sample
            let output = directory + "/out.ltrace"
            let imported = try Self.run(["import", input, "-o", output])
            #expect(imported.status == 0, "\(imported.error)")
            #expect(BinaryTraceFormat.isBinaryTrace(prefix: try Data(contentsOf: URL(fileURLWithPath: output))))
            let dumped = try Self.run(["dump", output, "--format", "jsonl"])
            #expect(dumped.status == 0)
            #expect(dumped.output == (try String(contentsOfFile: input, encoding: .utf8)), "\(sample)")
        }
    }

    @Test func standardInputAndOutput() throws {
        let jsonl = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "golden/v1-golden.jsonl"))
        let binary = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "golden/v1-golden.ltrace"))
        let dumped = try Self.run(["dump", "-"], input: binary)
        #expect(dumped.status == 0)
        #expect(dumped.output == String(decoding: jsonl, as: UTF8.self))
        let info = try Self.run(["info", "-"], input: binary)
        #expect(info.output.contains("events:     31"))
        let text = try Self.run(["dump", "--format", "text", Self.samples + "golden/v1-golden.ltrace"])
        #expect(text.output.contains("# app: com.example.Golden"))
        #expect(text.output.contains("bgtask.expire"))
    }

    @Test func infoDescribesTheGoldenFile() throws {
        let info = try Self.run(["info", Self.samples + "golden/v1-golden.ltrace", "--chunks"])
        #expect(info.status == 0)
        for line in [
            "kind:       binary trace, format 1.0", "events:     31", "streams:    system 10, app 21",
            "chunks:     2 in 1 flush groups", "file size:  648 bytes, 20.90 bytes/event", "integrity:  ok, closed",
            "system  0  0  151  1000000  2062000  10  66  147",
        ] {
            #expect(info.output.contains(line), "\(line)")
        }
    }

    @Test func infoReportsATruncatedFileAndDumpPrintsWhatWasRead() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cut = directory + "/cut.ltrace"
        let golden = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "golden/v1-golden.ltrace"))
        try golden.prefix(400).write(to: URL(fileURLWithPath: cut))
        let info = try Self.run(["info", cut])
        #expect(info.status == 0)
        // The system chunk is whole, but only its events before the cut app chunk's first are
        // returned: the app's data cut off belongs among the later ones.
        #expect(info.output.contains("events:     2"))
        #expect(info.output.contains("integrity:  1 problem, not closed"))
        #expect(info.output.contains("truncated at byte 400"))
        // The events read before the loss are printed; the loss is bad input (docs/CLI.md).
        let dump = try Self.run(["dump", cut])
        #expect(dump.status == 2)
        #expect(dump.output.split(separator: "\n").count == 3, "\(dump.output)")
        #expect(dump.error.hasPrefix("lifetrace: \(cut): byte 298 (chunk 0 of stream app): truncated at byte 400"))
    }

    @Test func badInputExitsTwoAndLeavesNoOutput() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bad = directory + "/bad.jsonl"
        try Data("{\"ts\":1,\"type\":\"mark\",\"name\":\"a\"}\n{\"ts\":2,\"type\":\"bogus\"}\n".utf8).write(to: URL(fileURLWithPath: bad))
        let output = directory + "/bad.ltrace"
        let result = try Self.run(["import", bad, "-o", output])
        #expect(result.status == 2)
        #expect(result.error == "lifetrace: \(bad):2:16: unknown type \"bogus\"\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["bad.jsonl"])
        let garbage = try Self.run(["info", "-"], input: Data([0x01, 0x02, 0x03, 0x04]))
        #expect(garbage.status == 2)
        #expect(garbage.error.hasPrefix("lifetrace: -: "))
        let usage = try Self.run(["import", bad])
        #expect(usage.status == 2)
    }
}
