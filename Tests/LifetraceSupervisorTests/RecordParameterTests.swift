import Foundation
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// `lifetrace record --parameter`: a sample scenario's durations scaled from the command line.
@Suite struct RecordParameterTests {
    static func record(_ arguments: [String]) throws -> (status: Int32, error: String, trace: RecordedTrace?) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("param-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("run.ltrace").path
        let result = try ChildProcess.run(
            BuiltProducts.path("lifetrace"), ["record", "-o", output] + arguments + ["--", BuiltProducts.path("SampleApp")],
            environment: ["SAMPLE_APP_DATA": directory.appendingPathComponent("data").path])
        let trace = FileManager.default.fileExists(atPath: output) ? try? RecordedTrace(path: output) : nil
        return (result.status, result.error, trace)
    }

    static let prewarm = SampleRecording.packageRoot.appendingPathComponent("Samples/scenarios/prewarm-pause.yaml").path

    @Test func aParameterScalesTheScenario() throws {
        let run = try Self.record(["--scenario", Self.prewarm, "--parameter", "pause=300ms"])
        #expect(run.status == 0, "\(run.error)")
        let trace = try #require(run.trace)
        #expect(trace.lifecycleLines.first == "launch prewarm")
        #expect(trace.metadata["scenario"] == "prewarm-pause")
        let launch = try #require(trace.events.first?.timestamp)
        let active = try #require(trace.merged.first { trace.line($0) == "begin didBecomeActive" }?.timestamp)
        // Held at least the 300 ms asked, far less than the scenario's own 30 s.
        #expect(active - launch >= 300_000_000 && active - launch < 30_000_000_000)
    }

    @Test(arguments: [
        (["--parameter", "pause"], "--parameter takes NAME=DURATION, not 'pause'"),
        (["--parameter", "pause=2s"], "--parameter needs a --scenario that declares it"),
        (["--scenario", RecordParameterTests.prewarm, "--parameter", "nap=2s"], "no parameter named `nap` to set"),
        (["--scenario", RecordParameterTests.prewarm, "--parameter", "pause=soon"], "parameter pause: invalid duration"),
    ])
    func aWrongParameterExitsTwoWithOneLine(_ arguments: [String], _ message: String) throws {
        let run = try Self.record(arguments)
        #expect(run.status == 2)
        #expect(run.error.hasPrefix("lifetrace: ") && run.error.contains(message), "\(run.error)")
        #expect(run.error.split(separator: "\n").count == 1)
    }
}
