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
        print(trace.lifecycleLines.joined(separator: "\n"))
    }
}
