import Foundation
import LifetraceTestSupport
import Testing

/// Hostile input the first rounds left: thread numbers past `Int64.max` in every output, and
/// standard error on a full disk.
@Suite struct HostileResidueTests {
    typealias Workspace = HostileInputTests.Workspace

    /// A launch whose first callback runs on the largest thread number the format holds, and a
    /// signpost left open there.
    static let largestThread = """
        {"ts":0,"type":"launch","reason":"user"}
        {"ts":1000000,"type":"callback","name":"willFinishLaunching","dur":5000000,"thread":18446744073709551614}
        {"ts":10000000,"type":"callback","name":"didFinishLaunching","dur":100000000}
        {"ts":120000000,"type":"callback","name":"didBecomeActive","dur":2000000}
        {"ts":140000000,"type":"frame","first":true}
        {"ts":150000000,"type":"signpost.begin","name":"work","thread":18446744073709551614}

        """

    @Test("a thread number past Int64.max is written as the unsigned number in every format, and nothing traps")
    func threadNumbersAreUnsigned() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("threads.jsonl", Self.largestThread)
        let number = "18446744073709551614"
        for format in ["text", "json", "junit", "github"] {
            let result = try HostileInputTests.run(["check", trace, "--format", format], in: workspace, expect: 1)
            #expect(result.output.contains(number), "check \(format): \(result.output)")
        }
        let json = HostileClaimsTests.compact(try HostileInputTests.run(["check", trace, "--format", "json"], in: workspace, expect: 1).output)
        #expect(json.contains("\"thread\":\(number),"))
        for format in ["text", "json", "markdown", "ndjson"] {
            let result = try HostileInputTests.run(["report", trace, "--format", format], in: workspace, expect: 0)
            // A signed conversion would have written -2.
            #expect(!result.output.isEmpty && !result.output.contains("thread -2") && !result.output.contains("\"thread\": -2"), "report \(format)")
            if format != "ndjson" { #expect(result.output.contains(number), "report \(format)") }
        }
        let reportJSON = HostileClaimsTests.compact(try HostileInputTests.run(["report", trace, "--format", "json"], in: workspace, expect: 0).output)
        #expect(reportJSON.contains("\"thread\":\(number),"))
        #expect(try HostileInputTests.run(["replay", trace], in: workspace, expect: 0).output.contains(number))
        #expect(try HostileInputTests.run(["dump", trace], in: workspace, expect: 0).output.contains("\"thread\":\(number)"))
        let out = NSTemporaryDirectory() + "threads-\(UUID().uuidString)"
        defer { for suffix in [".pftrace", ".json", ".ctf"] { try? FileManager.default.removeItem(atPath: out + suffix) } }
        for (format, suffix) in [("perfetto", ".pftrace"), ("chrome-json", ".json"), ("ctf", ".ctf")] {
            try LifetraceCommand.run(["export", trace, "--format", format, "-o", out + suffix]).expectStatus(0)
        }
        let chrome = try String(contentsOfFile: out + ".json", encoding: .utf8)
        #expect(chrome.contains("thread \(number)"))
    }

    /// Runs `executable` with standard error on `/dev/full` (every write fails with ENOSPC) and
    /// returns how it ended: a crash is a signal, not a documented exit code.
    static func runWithFullStandardError(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (reason: Process.TerminationReason, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        guard let full = FileHandle(forWritingAtPath: "/dev/full") else { throw CocoaError(.fileNoSuchFile) }
        process.standardError = full
        try process.run()
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus)
    }

    @Test("with standard error on a full disk every command that writes there ends with its documented exit code")
    func fullStandardError() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.largestThread)
        let out = workspace.path + "/out"
        let missing = workspace.path + "/missing.ltrace"
        let runs: [([String], Int32)] = [
            (["export", trace, "--format", "perfetto", "-o", out + ".pftrace"], 0),
            (["export", trace, "--format", "chrome-json", "-o", out + ".json"], 0),
            (["export", trace, "--format", "ctf", "-o", out + ".ctf"], 0),
            (["export", missing, "--format", "perfetto", "-o", out + "2.pftrace"], 2),
            (["check", missing], 2), (["report", missing], 2), (["replay", missing], 2), (["info", missing], 2),
            (["dump", missing], 2), (["diff", missing, "--", missing], 2), (["import", missing, "-o", out + ".ltrace"], 2),
            (["check", trace, "--no-such-option"], 2),
        ]
        for (arguments, expected) in runs {
            let run = try Self.runWithFullStandardError(LifetraceCommand.path, arguments)
            #expect(run.reason == .exit && run.status == expected, "\(arguments): \(run)")
        }
        #expect(FileManager.default.fileExists(atPath: out + ".pftrace"))
    }

    @Test("the lifecycle host reports a bad launch environment with exit 64 even when standard error is full")
    func hostWithFullStandardError() throws {
        let app = URL(fileURLWithPath: LifetraceCommand.path).deletingLastPathComponent().appendingPathComponent("SampleApp").path
        let output = NSTemporaryDirectory() + "host-\(UUID().uuidString).ltrace"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try Self.runWithFullStandardError(
            app, [], environment: ["LIFETRACE_LAUNCH": "sideways", "LIFETRACE_OUTPUT": output])
        #expect(run.reason == .exit && run.status == 64, "\(run)")
    }
}
