import Foundation
import LifetraceFormat
import LifetraceRecorder
import LifetraceTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `lifetrace recover` on the trace of a standalone recorder, and the recovery at the next start.
@Suite struct RecoverCommandTests {
    /// Starts a standalone probe writing `trace` and waits until both its threads record.
    static func startProbe(trace: String, counts: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
        process.arguments = [counts, "2", "--standalone", trace]
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while CrashSafetyTests.readCounts(counts).contains(0), Date() < deadline { usleep(5_000) }
        return process
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func recoverRefusesALiveProcessThenSealsOnceAndChangesNothingAfter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("solo.ltrace").path
        let process = try Self.startProbe(trace: trace, counts: directory.appendingPathComponent("counts").path)

        let refused = try LifetraceCommand.run(["recover", trace])
        #expect(refused.status == 2)
        #expect(refused.error.hasPrefix("lifetrace: cannot recover a trace that is still being recorded \(trace): process "))
        #expect(FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: trace)))

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let sealed = try LifetraceCommand.run(["recover", trace])
        #expect(sealed.status == 0, "\(sealed.error)")
        #expect(sealed.output.contains("\(trace): sealed: "))
        #expect(sealed.output.hasSuffix("exit inferred (the process left no code or signal)\n"))
        #expect(!FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: trace)))
        let info = try LifetraceCommand.run(["info", trace])
        #expect(info.status == 0 && !info.output.contains("not closed"), "\(info.output)")

        let before = Self.bytes(trace)
        let again = try LifetraceCommand.run(["recover", trace])
        #expect(again.status == 0)
        #expect(again.output == "\(trace): nothing to recover (no region beside it)\n")
        #expect(Self.bytes(trace) == before)
    }

    @Test func theNextStartRecoversLeftoversInItsDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("leftover-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = directory.appendingPathComponent("first.ltrace").path
        let killed = try Self.startProbe(trace: first, counts: directory.appendingPathComponent("counts-1").path)
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: first)))

        let second = directory.appendingPathComponent("second.ltrace").path
        let next = try Self.startProbe(trace: second, counts: directory.appendingPathComponent("counts-2").path)
        defer {
            kill(next.processIdentifier, SIGKILL)
            next.waitUntilExit()
        }
        // Recovered on the recorder's own thread once it records: wait for the region to go.
        let deadline = Date().addingTimeInterval(300)  // a bound against a hang, not a measurement
        while next.isRunning && FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: first))
            && Date() < deadline
        {
            usleep(5_000)
        }
        #expect(!FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: first)))
        let recovered = try RecordedTrace(path: first)
        #expect(recovered.issues.isEmpty, "\(recovered.issues)")
        #expect(recovered.events.last?.payload == .exit(code: nil, signal: nil))
    }
}

/// A recorder writing raw zstd blocks (no libzstd, as on Apple platforms), selected on Linux.
@Suite struct RawBlockRecordingTests {
    @Test func everyCommandReadsARawBlockTraceAndImportRecompressesIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rawrec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("raw.ltrace").path
        _ = try ChildProcess.run(
            BuiltProducts.path("RecorderProbe"),
            [directory.appendingPathComponent("counts").path, "1", "--standalone", raw, "--raw-blocks", "--crash-after", "5000"],
            environment: ["SWIFT_BACKTRACE": "enable=no"])

        let commands: [[String]] = [
            ["info", raw], ["dump", raw, "--format", "text"], ["check", raw], ["report", raw],
            ["export", raw, "--format", "chrome-json", "--output", directory.appendingPathComponent("raw.json").path],
        ]
        for command in commands {
            let result = try LifetraceCommand.run(command)
            // check exits 0: the probe's signposts stay open, which a crash does not make a violation.
            #expect(result.status == 0, "\(command[0]): \(result.error)")
            // A sealed trace read whole: no warning (export prints its own summary line).
            #expect(!result.error.contains("warning") && !result.error.contains("not closed"), "\(command[0]): \(result.error)")
        }
        let dump = try LifetraceCommand.run(["dump", raw])
        #expect(dump.output.contains("\"type\":\"exit\",\"signal\":11"))

        let imported = directory.appendingPathComponent("imported.ltrace").path
        let again = directory.appendingPathComponent("again.ltrace").path
        #expect(try LifetraceCommand.run(["import", raw, "-o", imported]).status == 0)
        #expect(try LifetraceCommand.run(["import", imported, "-o", again]).status == 0)
        func size(_ path: String) -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        }
        // Recompressed: smaller than the raw blocks (the records are varints already, so about 1.7
        // times on the probe's signposts), and the size any zstd trace of these events has.
        #expect(size(imported) > 0 && size(imported) * 3 < size(raw) * 2, "raw \(size(raw)), imported \(size(imported))")
        #expect(size(imported) == size(again))
        #expect(try LifetraceCommand.run(["dump", imported]).output == dump.output)
    }
}
