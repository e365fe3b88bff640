import Foundation
import LifetraceFormat
import LifetraceTestSupport
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
        let result = try ChildProcess.run(
            BuiltProducts.path("lifetrace"), all, environment: ["SAMPLE_APP_DATA": directory.appendingPathComponent("data").path])
        let trace = FileManager.default.fileExists(atPath: output) ? try? RecordedTrace(path: output) : nil
        return Run(status: result.status, standardError: result.error, trace: trace)
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
        let run = try record([], app: [BuiltProducts.path("SampleApp"), "--hang-in", "didEnterBackground"], scenario: scenario)
        #expect(run.status == 5, "\(run.standardError)")
        #expect(run.trace?.lifecycleLines.last == "exit signal 9")
        // Killed when the command's 300 ms were up, not at once: the timeout runs from the command,
        // sent just before the callback began, so the trace's own clock shows most of it at least.
        let events = run.trace?.merged ?? []
        let begin = events.last { $0.type == .callbackBegin }?.timestamp ?? 0
        let exit = events.last { $0.type == .exit }?.timestamp ?? 0
        #expect(exit - begin >= 200_000_000, "killed \(exit - begin) ns after didEnterBackground began")
        // The callback that never returned is in the trace, open.
        #expect(run.trace?.lifecycleLines.contains("begin didEnterBackground") == true)
        #expect(run.trace?.lifecycleLines.contains("end didEnterBackground") == false)
    }

    @Test func missingAppExitsEight() throws {
        let run = try record([], app: ["/nonexistent/app"])
        #expect(run.status == 8)
        #expect(run.standardError.hasPrefix("lifetrace: cannot start the app"), "\(run.standardError)")
    }

    @Test func badScenarioAndFaultExitTwo() throws {
        let scenario = try record([], scenario: "steps:\n  - launch\n  - fly\n")
        #expect(scenario.status == 2)
        #expect(scenario.standardError.contains("step 2: unknown step `fly`"), "\(scenario.standardError)")
        let fault = try record(["--fault", "no-such-fault"])
        #expect(fault.status == 2)
    }

    @Test func listFaultsNamesEachRule() throws {
        let result = try ChildProcess.run(BuiltProducts.path("lifetrace"), ["record", "--list-faults"])
        let text = result.output
        #expect(result.status == 0)
        #expect(text.contains("skip-resign-active\tresign-before-background\tdefault\n"))
        #expect(text.contains("scene-before-connect\tscene-connection\tSamples/scenarios/scenes.yaml\n"))
        #expect(text.split(separator: "\n").count == 12)
    }
}
