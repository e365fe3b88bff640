import Foundation
import LifetraceAnalysis
import LifetraceTestSupport
import LifetraceFormat
import LifetraceRecorder
import LifetraceRunner
import LifetraceSupervisor
import LifetraceZstd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The stack samples of a stuck main thread, from the sample app's unmarked heavy launch: on its
/// own, under `lifetrace record`, killed with SIGKILL, and with sampling off.
///
/// The app holds that stall until the sampler has taken the samples these tests read (its
/// `StallHold`: during the stall 20 more than twice those before it, or until a release file exists), so that
/// a loaded machine makes the stall longer, never the samples fewer; broken sampling ends the hold
/// after 20 s and fails the expectations on the samples.
@Suite struct StallSampleTests {
    /// The samples the app's stall holds for at least (`StallHold.extraSamples`).
    static let heldSamples = 20

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func symbolicated() -> AnalysisOptions {
        var options = AnalysisOptions()
        options.symbolication = StackSymbolication(Symbolizer())
        return options
    }

    /// The launch-stall violation's message names the unmarked function, and its line: the app's
    /// own function the samples pass through, not the standard library's code it was running.
    static func expectNamesTheFunction(_ analysis: TraceAnalysis) {
        let stall = analysis.violations.first { $0.rule == .launchStall }
        #expect(stall != nil, "\(analysis.violations.map(\.message))")
        let message = stall?.message ?? ""
        #expect(message.contains("stack samples in SearchIndex.init(notes:minimumDuration:held:) (SearchIndex.swift:"), "\(message)")
        let profile = analysis.stallProfiles.first
        #expect(profile?.blame?.frame.function.contains("SearchIndex.init") == true)
        // The leaf most of the blamed function's samples were in is named when it is another
        // function: the library code the index was running (which one depends on where the
        // sampler found the thread, so a run may find SearchIndex.init itself most often).
        if let leaf = profile?.blameLeaf {
            #expect(!leaf.frame.isApp, "\(leaf)")
            #expect(message.contains(", most in \(leaf.frame.function)"), "\(message)")
        } else {
            #expect(!message.contains(", most in "), "\(message)")
        }
        // The stall was held until the sampler had taken its samples, and most are in it.
        #expect((profile?.sampleCount ?? 0) >= heldSamples, "\(String(describing: profile))")
        #expect((profile?.blame?.samples ?? 0) * 2 > (profile?.sampleCount ?? 0))
    }

    @Test func theUnmarkedHeavyLaunchOnItsOwnNamesTheFunction() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, output) = try StandaloneHostTests.runAndTerminate(["--unmarked-heavy-launch"], in: directory)
        let analysis = try LifecycleAnalyzer.analyze(path: output, options: Self.symbolicated(), prefetch: false)
        Self.expectNamesTheFunction(analysis)
        // Without symbols the trace still reads: the function is shown as image and offset.
        let plain = try LifecycleAnalyzer.analyze(path: output, options: AnalysisOptions(), prefetch: false)
        let message = plain.violations.first { $0.rule == .launchStall }?.message ?? ""
        #expect(message.contains("stack samples in SampleApp+0x"), "\(message)")
    }

    @Test func theUnmarkedHeavyLaunchUnderRecordNamesTheFunction() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("run.ltrace").path
        let configuration = RecordSession.Configuration(
            executable: BuiltProducts.path("SampleApp"), arguments: ["--unmarked-heavy-launch"], scenario: .standard,
            faults: [], environment: ["SAMPLE_APP_DATA": directory.appendingPathComponent("data").path])
        let writer = try TraceWriter(path: path, metadata: RecordSession.metadata(for: configuration))
        _ = try RecordSession(configuration: configuration, sink: writer).run()
        try writer.close()
        Self.expectNamesTheFunction(try LifecycleAnalyzer.analyze(path: path, options: Self.symbolicated(), prefetch: false))
    }

    @Test func samplesAreTakenOnlyInsideLongBusyIntervals() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, output) = try StandaloneHostTests.runAndTerminate(["--unmarked-heavy-launch"], in: directory)
        var reader = try BinaryTraceReader(path: output)
        var busy: [ClosedRange<Int64>] = []
        var wake: Int64?
        // The main thread is busy from the process's start until its run loop first sleeps.
        while let event = try reader.next() {
            guard event.thread.isMain else { continue }
            switch event.type {
            case .launch where wake == nil: wake = event.timestamp
            case .runloopWake: wake = wake ?? event.timestamp
            case .runloopSleep:
                if let start = wake { busy.append(start...event.timestamp) }
                wake = nil
            default: break
            }
        }
        let samples = reader.sampledStacks.samples
        #expect(!samples.isEmpty)
        for sample in samples {
            // A sample is taken 50 ms or more into a busy interval, and while it lasts.
            let interval = busy.first { $0.contains(sample.timestamp) }
            #expect(interval != nil, "sample at \(sample.timestamp) outside every busy interval")
            if let interval { #expect(sample.timestamp - interval.lowerBound >= 50_000_000) }
        }
        // Frames resolve against the images the recorder wrote, with their build ids.
        let executable = reader.sampledStacks.images.first { $0.path.hasSuffix("/SampleApp") }
        #expect(executable?.buildID.isEmpty == false)
    }

    @Test func samplingOffRecordsNoSample() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("off.ltrace").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("SampleApp"))
        process.arguments = ["--unmarked-heavy-launch"]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "LIFETRACE_OUTPUT": output, "SAMPLE_APP_DATA": directory.appendingPathComponent("data").path,
            StallSampling.environmentKey: "off",
        ]) { $1 }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !StandaloneHostTests.showsActiveApp(output), process.isRunning, Date() < deadline { usleep(20_000) }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let reader = try Self.readAll(output)
        // The run did stall: sampling was off, not idle.
        #expect(try LifecycleAnalyzer.analyze(path: output, options: AnalysisOptions(), prefetch: false).violations.contains { $0.rule == .launchStall })
        #expect(reader.sampledStacks.isEmpty)
        #expect(StallSampling.resolve(StallSampling(), environment: [StallSampling.environmentKey: "off"]) == nil)
        #expect(StallSampling.resolve(StallSampling(), environment: [StallSampling.environmentKey: "80"])?.threshold == .milliseconds(80))
    }

    static func readAll(_ path: String) throws -> BinaryTraceReader {
        var reader = try BinaryTraceReader(path: path)
        while try reader.next() != nil {}
        return reader
    }

    @Test func samplesSurviveSIGKILL() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("killed.ltrace").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("SampleApp"))
        process.arguments = ["--unmarked-heavy-launch"]
        // The stall goes on until this file exists, which it never does: the app is killed in it.
        process.environment = ProcessInfo.processInfo.environment.merging([
            "LIFETRACE_OUTPUT": output, "SAMPLE_APP_DATA": directory.appendingPathComponent("data").path,
            "SAMPLE_APP_STALL_RELEASE": directory.appendingPathComponent("never").path,
        ]) { $1 }
        try process.run()
        // Killed as soon as a flush has put samples in the file, while the stall goes on: the
        // samples taken since are only in the region. The deadline only keeps a broken app from
        // hanging the test.
        let deadline = Date().addingTimeInterval(30)
        var seen = 0
        while seen < Self.heldSamples, process.isRunning, Date() < deadline {
            seen = (try? Self.readAll(output))?.sampledStacks.samples.count ?? 0
            if seen < Self.heldSamples { usleep(5_000) }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(seen >= Self.heldSamples)
        guard case .sealed = try TraceRecovery.recover(tracePath: output, codec: ZstdCodec()) else {
            Issue.record("nothing recovered")
            return
        }
        var events = try BinaryTraceReader(path: output)
        var lastRunLoopEvent: EventType?
        while let event = try events.next() {
            if event.thread.isMain && (event.type == .runloopWake || event.type == .runloopSleep) { lastRunLoopEvent = event.type }
        }
        // Killed inside the held stall: the main thread's last run-loop turn never ended.
        #expect(lastRunLoopEvent == .runloopWake)
        let reader = try Self.readAll(output)
        #expect(reader.sampledStacks.samples.count >= seen)
        #expect(!reader.sampledStacks.images.isEmpty)
        // Killed inside the stall, before the analyzer would call it one: the samples themselves
        // name the function.
        let stacks = reader.sampledStacks
        let names = TraceSymbolNames(stacks: stacks, symbols: try Symbolizer().symbolize(stacks))
        let first = stacks.samples.map(\.timestamp).min() ?? 0
        let last = stacks.samples.map(\.timestamp).max() ?? 0
        let profile = StallSamplePass.profile(start: first, duration: last - first, stacks: stacks, names: names.name)
        #expect(profile?.blame?.frame.function.contains("SearchIndex.init") == true, "\(String(describing: profile))")
    }

    /// `lifetrace check` with no flag, of the recording of `record` and of the app on its own,
    /// names the app's function and file in the launch-stall message, in `--format json`, in the
    /// text report and in the page's stall title: symbols by default, from the images at hand.
    @Test func checkWithNoFlagBlamesTheSearchIndexInEveryFormat() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorded = directory.appendingPathComponent("heavy.ltrace").path
        let record = try HostileRecoveryTests.lifetrace(
            ["record", "-o", recorded, "--", BuiltProducts.path("SampleApp"), "--unmarked-heavy-launch"], in: directory.path)
        #expect(record.status == 0, "\(record.error)")
        let (_, standalone) = try StandaloneHostTests.runAndTerminate(["--unmarked-heavy-launch"], in: directory)
        for trace in [recorded, standalone] {
            let check = try HostileRecoveryTests.lifetrace(["check", trace], in: directory.path)
            let stallLine = check.output.split(separator: "\n").first { $0.contains("error[launch-stall]") }.map(String.init) ?? ""
            #expect(stallLine.contains("stack samples in SearchIndex.init(") && stallLine.contains("(SearchIndex.swift:"), "\(check.output)")
            let json = try HostileRecoveryTests.lifetrace(["check", "--format", "json", trace], in: directory.path)
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            let traces = object?["traces"] as? [[String: Any]] ?? []
            let violations = traces.first?["violations"] as? [[String: Any]] ?? []
            let message = violations.first { $0["rule"] as? String == "launch-stall" }?["message"] as? String ?? ""
            #expect(message.contains("SearchIndex.init(") && message.contains("(SearchIndex.swift:"), "\(json.output.prefix(2000))")
            let text = try HostileRecoveryTests.lifetrace(["report", trace], in: directory.path)
            #expect(text.output.contains("stack samples in SearchIndex.init(") && text.output.contains("(SearchIndex.swift:"), "\(text.output)")
            let page = directory.appendingPathComponent("page.html").path
            let html = try HostileRecoveryTests.lifetrace(["report", "--format", "html", "-o", page, trace], in: directory.path)
            #expect(html.status == 0, "\(html.error)")
            let source = (try? String(contentsOfFile: page, encoding: .utf8)) ?? ""
            let title = source.components(separatedBy: "<h3 id=\"stall-1\">").dropFirst().first?.components(separatedBy: "</h3>").first ?? ""
            #expect(title.contains("SearchIndex.init(") && title.contains("(SearchIndex.swift:"), "\(title)")
            // The same without symbols: image and offset, no function name.
            let plain = try HostileRecoveryTests.lifetrace(["check", "--no-symbolicate", trace], in: directory.path)
            #expect(!plain.output.contains("SearchIndex") && plain.output.contains("stack samples in SampleApp+0x"), "\(plain.output)")
        }
    }
}
