import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRecorder
import LifetraceRunner
import LifetraceZstd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The sample app recording itself (no supervisor) writes the launch facts the host's launch
/// options give it, as an iOS app's recorder writes those its platform gives it.
@Suite struct StandaloneLaunchFactsTests {
    /// Runs the sample app on its own with `environment` until its trace shows `line`, then
    /// sends SIGTERM; returns the trace's path and the process.
    static func run(
        environment extra: [String: String], until line: String, in directory: URL
    ) throws -> (process: Process, output: String) {
        let output = directory.appendingPathComponent("standalone.ltrace").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("SampleApp"))
        var environment = ProcessInfo.processInfo.environment
        environment["ActivePrewarm"] = nil
        environment.merge(
            ["LIFETRACE_OUTPUT": output, "SAMPLE_APP_DATA": directory.appendingPathComponent("data").path]) { $1 }
        environment.merge(extra) { $1 }
        process.environment = environment
        try process.run()
        // The deadline only keeps a broken app from hanging the test; the expectations say what is missing.
        let deadline = Date().addingTimeInterval(30)
        while !RecordedTrace(readableSoFar: output).lifecycleLines.contains(line), process.isRunning, Date() < deadline {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return (process, output)
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("facts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aBackgroundLaunchRecordedInAppSaysSoWithItsModesAndRecordingStart() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, output) = try Self.run(
            environment: [
                "LIFETRACE_LAUNCH": "background remote-notification",
                "LIFETRACE_BACKGROUND_MODES": "audio,location,processing",
            ], until: "end didFinishLaunching", in: directory)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let trace = try RecordedTrace(path: output)
        #expect(trace.issues.isEmpty)
        guard case .launch(_, let background, let prewarm, let pid) = trace.events.first?.payload else {
            Issue.record("the trace does not start with launch: \(trace.lifecycleLines)")
            return
        }
        #expect(background && !prewarm)
        #expect(pid == Int64(process.processIdentifier))
        #expect(trace.metadata[LaunchFacts.backgroundModesKey] == "audio,location,processing")
        // Recording started after the process did, and before anything the app recorded.
        let start = try #require(trace.metadata[LaunchFacts.recordingStartKey].flatMap { Int64($0) })
        let firstApp = try #require(trace.events.first { $0.stream == .app }?.timestamp)
        #expect(trace.events[0].timestamp <= start && start <= firstApp)
        // Launched into the background, never activated; SIGTERM then goes straight to willTerminate.
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        #expect(callbacks == ["begin willFinishLaunching", "begin didFinishLaunching", "begin willTerminate"])
        var reader = try BinaryTraceReader(path: output)
        let analysis = try LifecycleAnalyzer.analyze(&reader, path: output, options: SampleRecording.orderingOnly)
        #expect(analysis.lifetimes.first?.launch.kind == .background)
        #expect(analysis.violations.map(\.message) == [])
    }

    @Test func aPrewarmedProcessRecordedInAppSaysSo() throws {
        let directory = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, output) = try Self.run(environment: ["ActivePrewarm": "1"], until: "end didBecomeActive", in: directory)
        let trace = try RecordedTrace(path: output)
        guard case .launch(_, let background, let prewarm, _) = trace.events.first?.payload else {
            Issue.record("the trace does not start with launch")
            return
        }
        #expect(prewarm && !background)
        // Modes not given: unknown, so the key is absent (not "none").
        #expect(trace.metadata[LaunchFacts.backgroundModesKey] == nil)
        #expect(trace.metadata[LaunchFacts.recordingStartKey] != nil)
    }
}
