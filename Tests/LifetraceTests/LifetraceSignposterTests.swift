import Foundation
import Lifetrace
import LifetraceFormat
import LifetraceRecorder
import Testing

/// The Lifetrace side of the signposter (the `OSSignposter` side is built on Apple platforms only).
struct LifetraceSignposterTests {
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now: Int64 = 0
        func tick() -> Int64 { lock.withLock { now += 10; return now } }
    }

    @Test("intervals and events become signposts and marks with the signposter's clock")
    func signpostsAreRecorded() {
        let collected = CollectedEvents()
        let clock = Clock()
        let signposter = LifetraceSignposter(
            subsystem: "com.example.notes", category: LifetraceSignposter.pointsOfInterest,
            adapter: LifecycleAdapter(destination: collected), clock: clock.tick)
        let state = signposter.beginInterval("LoadDatabase")
        signposter.emitEvent("Tapped")
        signposter.endInterval(state)
        let value = signposter.withIntervalSignpost("BuildFirstScreen", id: 4) { 42 }
        #expect(value == 42)
        #expect(collected.events == [
            AdaptedEvent(.signpostBegin(name: "LoadDatabase", id: nil), at: 10),
            AdaptedEvent(.mark(name: "Tapped"), at: 20),
            AdaptedEvent(.signpostEnd(name: "LoadDatabase", id: nil), at: 30),
            AdaptedEvent(.signpostBegin(name: "BuildFirstScreen", id: 4), at: 40),
            AdaptedEvent(.signpostEnd(name: "BuildFirstScreen", id: 4), at: 50),
        ])
    }

    @Test("before recording started, a signposter records nothing and still runs the work")
    func withoutRecording() {
        let signposter = LifetraceSignposter(subsystem: "s", category: "c")
        #expect(Lifetrace.adapter == nil)
        #expect(signposter.withIntervalSignpost("Work") { "done" } == "done")
    }
}
