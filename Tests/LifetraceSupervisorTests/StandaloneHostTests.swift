import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceRunner
import LifetraceTestSupport
import LifetraceFormat
import LifetraceZstd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The app host without a supervisor: it launches and activates the app, writes its own trace,
/// and on SIGTERM takes the app through the background to willTerminate.
@Suite struct StandaloneHostTests {
    /// Runs the sample app on its own with `arguments`, waits until its trace shows it Active,
    /// then sends SIGTERM; returns its process and the trace's path.
    static func runAndTerminate(
        _ arguments: [String] = [], in directory: URL
    ) throws -> (process: Process, output: String) {
        let output = directory.appendingPathComponent("standalone.ltrace").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("SampleApp"))
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging([
            "LIFETRACE_OUTPUT": output, "SAMPLE_APP_DATA": directory.appendingPathComponent("data").path,
        ]) { $1 }
        try process.run()
        // The writer flushes every 100 ms; the trace is read as it grows. The deadline only keeps
        // a broken app from hanging the test: the expectations then say what was missing.
        let deadline = Date().addingTimeInterval(30)
        while !showsActiveApp(output), process.isRunning, Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return (process, output)
    }

    /// Whether the trace being written at `path` shows the app Active: didBecomeActive has
    /// returned, and the first frame the host presents after it is recorded.
    static func showsActiveApp(_ path: String) -> Bool {
        let trace = RecordedTrace(readableSoFar: path)
        return trace.lifecycleLines.contains("end didBecomeActive") && trace.events.contains { $0.type == .frame }
    }

    @Test func sigtermEndsTheRunWithWillTerminateAndAClosedTrace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (process, output) = try Self.runAndTerminate(in: directory)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)

        let trace = try RecordedTrace(path: output)
        #expect(trace.issues.isEmpty, "\(trace.issues)")
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        #expect(
            callbacks == [
                "begin willFinishLaunching", "begin didFinishLaunching", "begin didBecomeActive",
                "begin willResignActive", "begin didEnterBackground", "begin willTerminate",
            ])
        // The system facts a process knows about itself: its launch, first, and its exit code, last.
        let system = trace.events.filter { $0.stream == .system }
        #expect(system.map(\.type) == [.launch, .exit])
        #expect(trace.events.first?.type == .launch && trace.events.last?.type == .exit)
        if case .launch(_, let background, _, let pid) = system.first?.payload {
            #expect(!background)
            #expect(pid == Int64(process.processIdentifier))
        }
        #expect(system.last?.payload == .exit(code: 0, signal: nil))
        // The launch is the process's start: before the first thing the app recorded.
        #expect(system[0].timestamp < trace.events.first { $0.stream == .app }!.timestamp)
        #expect(trace.events.filter { $0.type == .callbackBegin }.allSatisfy { $0.thread.isMain })
        // The background task that saves state ended before willTerminate.
        #expect(trace.lifecycleLines.contains("bgtask.end SaveState"))
    }

    @Test func aHeavyLaunchRunOnItsOwnFailsLaunchStallAsUnderRecord() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, output) = try Self.runAndTerminate(["--heavy-launch"], in: directory)
        var reader = try BinaryTraceReader(path: output)
        let analysis = try LifecycleAnalyzer.analyze(&reader, path: output)
        #expect(analysis.violations.map(\.rule).contains(.launchStall))
        let lifetime = try #require(analysis.lifetimes.first)
        #expect(lifetime.launch.kind == .cold)
        #expect(!lifetime.launch.inferred)
        #expect(lifetime.launch.windowEnd == .firstFrame)
        #expect((lifetime.launch.duration ?? 0) >= 400_000_000)
        #expect(lifetime.launch.milestones.didFinishLaunchingEnd != nil)
        #expect(lifetime.launch.busyInWindow >= 400_000_000)
        #expect(lifetime.stalls.first?.blame.map(\.name).contains("IndexSearchCatalog") == true)
        #expect(lifetime.end.kind == .terminated && lifetime.end.code == 0)
    }
}
