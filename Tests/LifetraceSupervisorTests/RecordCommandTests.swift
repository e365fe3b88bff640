import Foundation
import LifetraceFormat
import Testing

/// `lifetrace record` end to end: the binary, its exit codes, and the trace it leaves.
@Suite struct RecordCommandTests {
    struct Run {
        var status: Int32
        var standardError: String
        var trace: RecordedTrace?
    }

    func record(_ arguments: [String], app: [String]? = nil, scenario: String? = nil) throws -> Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("run.ltrace").path
        var all = ["record", "-o", output] + arguments
        if let scenario {
            let path = directory.appendingPathComponent("scenario.yaml").path
            try scenario.write(toFile: path, atomically: true, encoding: .utf8)
            all += ["--scenario", path]
        }
        all += ["--"] + (app ?? [BuiltProducts.path("SampleApp")])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("lifetrace"))
        process.arguments = all
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["SAMPLE_APP_DATA": directory.appendingPathComponent("data").path]) { $1 }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let trace = FileManager.default.fileExists(atPath: output) ? try? RecordedTrace(path: output) : nil
        return Run(status: process.terminationStatus, standardError: errorText, trace: trace)
    }

    @Test func defaultScenarioSucceeds() throws {
        let run = try record([])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.trace?.brokenInvariants == [])
        #expect(run.trace?.lifecycleLines.last == "exit signal 9")
    }

    @Test func crashingAppEndsTheTraceWithItsSignal() throws {
        let run = try record([], app: [BuiltProducts.path("SampleApp"), "--crash-in", "didEnterBackground"])
        #expect(run.status == 4)
        #expect(run.standardError.contains("killed by signal 6"), "\(run.standardError)")
        #expect(run.trace?.lifecycleLines.last == "exit signal 6")
        #expect(run.trace?.lifecycleLines.contains("begin didEnterBackground") == true)
    }

    @Test func frozenAppIsKilledAfterTheCommandTimeout() throws {
        let scenario = """
            timeouts:
              command: 300ms
            steps:
              - launch
              - activate
              - home
            """
        let started = ContinuousClock.now
        let run = try record([], app: [BuiltProducts.path("SampleApp"), "--hang-in", "didEnterBackground"], scenario: scenario)
        #expect(run.status == 5, "\(run.standardError)")
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(run.trace?.lifecycleLines.last == "exit signal 9")
        // The callback that never returned is in the trace, open.
        #expect(run.trace?.lifecycleLines.contains("begin didEnterBackground") == true)
        #expect(run.trace?.lifecycleLines.contains("end didEnterBackground") == false)
    }

    @Test func missingAppExitsThree() throws {
        let run = try record([], app: ["/nonexistent/app"])
        #expect(run.status == 3)
        #expect(run.standardError.hasPrefix("lifetrace record: cannot start the app"), "\(run.standardError)")
    }

    @Test func badScenarioAndFaultExitTwo() throws {
        let scenario = try record([], scenario: "steps:\n  - launch\n  - fly\n")
        #expect(scenario.status == 2)
        #expect(scenario.standardError.contains("step 2: unknown step `fly`"), "\(scenario.standardError)")
        let fault = try record(["--fault", "no-such-fault"])
        #expect(fault.status == 2)
    }

    @Test func listFaultsNamesEachRule() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("lifetrace"))
        process.arguments = ["record", "--list-faults"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("skip-resign-active\tresign-before-background\tdefault\n"))
        #expect(text.contains("scene-before-connect\tscene-connection\tSamples/scenarios/scenes.yaml\n"))
        #expect(text.split(separator: "\n").count == 12)
    }
}
