import Foundation
import LifetraceFormat
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The app host without a supervisor: it launches and activates the app, writes its own trace,
/// and on SIGTERM takes the app through the background to willTerminate.
@Suite struct StandaloneHostTests {
    @Test func sigtermEndsTheRunWithWillTerminateAndAClosedTrace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("host-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("standalone.ltrace").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("SampleApp"))
        process.environment = ProcessInfo.processInfo.environment.merging([
            "LIFETRACE_OUTPUT": output, "SAMPLE_APP_DATA": directory.appendingPathComponent("data").path,
        ]) { $1 }
        try process.run()
        // Wait until the launch is on disk (the writer flushes every 100 ms), then terminate.
        let deadline = Date().addingTimeInterval(10)
        while (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int ?? 0) ?? 0 < 200
            && Date() < deadline
        {
            usleep(20_000)
        }
        usleep(200_000)
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)

        let trace = try RecordedTrace(path: output)
        #expect(trace.issues.isEmpty, "\(trace.issues)")
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        #expect(
            callbacks == [
                "begin willFinishLaunching", "begin didFinishLaunching", "begin didBecomeActive",
                "begin willResignActive", "begin didEnterBackground", "begin willTerminate",
            ])
        // With no supervisor, the system stream holds only the launch and exit the recorder wrote.
        #expect(trace.events.filter { $0.stream == .system }.allSatisfy { $0.type == .launch || $0.type == .exit })
        #expect(trace.events.filter { $0.type == .callbackBegin }.allSatisfy { $0.thread.isMain })
        // The background task that saves state ended before willTerminate.
        #expect(trace.lifecycleLines.contains("bgtask.end SaveState"))
    }
}
