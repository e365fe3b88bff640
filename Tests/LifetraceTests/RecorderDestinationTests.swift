import Foundation
import Lifetrace
import LifetraceFormat
import LifetraceRecorder
import Testing

/// The adapter writing into a real recorder, as in an app: the recorder stamps and interns.
struct RecorderDestinationTests {
    @Test("a sample's inputs through a running recorder give the sample's events in order, names and scenes interned")
    func adapterIntoARecorder() throws {
        let sample = try AdoptionSample("scene-order-two-scenes-in-app.jsonl")
        let sink = TraceEventCollection()
        let recorder = try Recorder(layout: RegionLayout(ringCount: 2, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(10))
        let adapter = LifecycleAdapter(destination: RecorderDestination(recorder: recorder))
        adapter.start(at: MonotonicClock.now(), onMainThread: false, progress: sample.progress)
        for input in sample.inputs { adapter.handle(ObservedInput(input.observation, at: MonotonicClock.now(), thread: input.thread)) }
        try recorder.stop()
        let recorded = sink.snapshot
        let strip: ([String]) -> [String] = { $0.map { line in String(line.split(separator: " ", maxSplits: 2)[2]) } }
        #expect(strip(rendered(recorded.events, recorded.symbols)) == strip(Array(rendered(sample.events, sample.symbols).dropFirst())))
        #expect(recorded.events.map(\.timestamp) == recorded.events.map(\.timestamp).sorted())
    }

    @Test("the app metadata names the app, its version, the OS and the device")
    func appMetadata() {
        let fields = AppMetadata.fields(
            info: ["CFBundleIdentifier": "com.example.Notes", "CFBundleShortVersionString": "4.2", "CFBundleVersion": "1187"],
            osName: "iOS", osVersion: (17, 5, 1), machine: "iPhone15,2")
        #expect(fields.map { "\($0.key)=\($0.value)" } == [
            "app=com.example.Notes", "appVersion=4.2 (1187)", "os=iOS 17.5.1", "device=iPhone15,2", "recorder=Lifetrace",
        ])
        #expect(AppMetadata.fields(info: [:], osName: "Linux", osVersion: (6, 1, 0), machine: nil).map(\.key) == ["os", "recorder"])
    }
}
