import Foundation
import LifetraceFormat
import LifetraceRecorder
import Testing

@testable import LifetraceSupervisor

@Suite struct RecordSessionTests {
    @Test func standardScenarioRecordsBothStreams() throws {
        let sink = TraceEventCollection()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sample-\(UUID().uuidString)")
        let session = RecordSession(
            configuration: .init(executable: BuiltProducts.path("SampleApp"), environment: ["SAMPLE_APP_DATA": data.path]),
            sink: sink)
        let outcome = try session.run()
        #expect(outcome == .completed)
        let trace = RecordedTrace(sink)
        #expect(trace.brokenInvariants == [])
        // The supervisor writes the system's side: the launch, each state it moves the app to,
        // and the exit; nothing else.
        let system = trace.events.filter { $0.stream == .system }
        #expect(system.first?.type == .launch)
        #expect(system.last?.type == .exit)
        #expect(system.contains { $0.type == .state })
        #expect(system.allSatisfy { [.launch, .state, .exit].contains($0.type) })
        // The app writes its own side: its delegate callbacks, each begun and ended.
        let app = trace.events.filter { $0.stream == .app }
        let callbacks = app.compactMap { event -> String? in
            if case .callbackBegin(let name, _) = event.payload { return trace.symbols[name] }
            return nil
        }
        #expect(callbacks.contains("didFinishLaunching"))
        #expect(app.count { $0.type == .callbackBegin } == app.count { $0.type == .callbackEnd })
        #expect(!app.contains { [.launch, .state, .exit].contains($0.type) })
    }
}
