import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd
import LifetraceRecorder
import LifetraceSupervisor

/// Records the sample app into a binary file and reads the file back.
enum SampleRecording {
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static func scenario(_ name: String) throws -> Scenario {
        try Scenario.load(path: packageRoot.appendingPathComponent("Samples/scenarios/\(name).yaml").path)
    }

    /// Analysis options for checks of ordering, not timing: the sample app's launch takes tens of
    /// milliseconds, but a debug build on a machine busy with other tests can take hundreds, so
    /// the stall threshold is raised far above anything the app itself does. Tests of the stall
    /// rule use the default: the heavy launch works 400 ms or more, and only longer under load.
    static let orderingOnly = AnalysisOptions(stallThreshold: 5_000_000_000)

    /// Records `SampleApp arguments` under `scenario` with `faults` into a temporary binary trace.
    static func record(
        _ scenario: Scenario, arguments: [String] = [], faults: [RecordFault] = [],
        options: AnalysisOptions = AnalysisOptions()
    ) throws -> (outcome: RecordOutcome, trace: RecordedTrace, analysis: TraceAnalysis) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("record-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("run.ltrace").path
        let configuration = RecordSession.Configuration(
            executable: BuiltProducts.path("SampleApp"), arguments: arguments, scenario: scenario, faults: faults,
            environment: ["SAMPLE_APP_DATA": directory.appendingPathComponent("data").path])
        let writer = try TraceWriter(path: path, metadata: RecordSession.metadata(for: configuration))
        let outcome = try RecordSession(configuration: configuration, sink: writer).run()
        try writer.close()
        var reader = try BinaryTraceReader(path: path)
        let analysis = try LifecycleAnalyzer.analyze(&reader, path: path, options: options)
        return (outcome, try RecordedTrace(path: path), analysis)
    }
}

extension RecordedTrace {
    /// The events of a binary trace file, in the order its reader gives them.
    init(path: String) throws {
        var reader = try BinaryTraceReader(path: path)
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        self.events = events
        symbols = reader.symbols
        issues = reader.issues
        metadata = reader.metadata
    }

    /// The events a trace still being written holds so far, read as far as it can be (none
    /// when it cannot be opened yet): a test waits on what the file shows, never on a pause.
    init(readableSoFar path: String) {
        events = []
        guard var reader = try? BinaryTraceReader(path: path) else {
            symbols = SymbolTable()
            return
        }
        while let event = try? reader.next() { events.append(event) }
        symbols = reader.symbols
    }

    /// Facts every recorded run must show, whatever its scenario; empty when all hold.
    var brokenInvariants: [String] {
        var broken: [String] = []
        if !issues.isEmpty { broken.append("reader issues: \(issues)") }
        if events.first?.type != .launch { broken.append("the trace does not start with launch") }
        if events.last?.type != .exit { broken.append("the trace does not end with exit") }
        if zip(events, events.dropFirst()).contains(where: { $0.timestamp > $1.timestamp }) {
            broken.append("timestamps go backwards in file order")
        }
        var suspended = false
        var open: [ThreadID: [Symbol]] = [:]
        for event in events {
            switch event.payload {
            case .state(let to, let scene) where scene.isNone: suspended = to == .suspended
            case .exit: suspended = false
            case .callbackBegin(let name, _):
                open[event.thread, default: []].append(name)
            case .callbackEnd(let name, _):
                if open[event.thread]?.popLast() != name { broken.append("unbalanced end of \(symbols[name])") }
            default: break
            }
            if suspended && event.stream == .app { broken.append("app event while suspended: \(line(event))") }
            if event.type == .callbackBegin && !event.thread.isMain { broken.append("callback off the main thread: \(line(event))") }
        }
        return broken
    }
}
