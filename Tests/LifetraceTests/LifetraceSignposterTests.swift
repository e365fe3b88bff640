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
        signposter.endInterval("LoadDatabase", state)
        let value = signposter.withIntervalSignpost("BuildFirstScreen", id: LifetraceSignpostID(4)) { 42 }
        #expect(value == 42)
        // Every call made on this thread is recorded on it (the main thread, or one numbered thread).
        let thread = collected.events.first?.thread ?? .main
        #expect(thread.isMain == Thread.isMainThread)
        #expect(collected.events == [
            AdaptedEvent(.signpostBegin(name: "LoadDatabase", id: nil), at: 10, thread: thread),
            AdaptedEvent(.mark(name: "Tapped"), at: 20, thread: thread),
            AdaptedEvent(.signpostEnd(name: "LoadDatabase", id: nil), at: 30, thread: thread),
            AdaptedEvent(.signpostBegin(name: "BuildFirstScreen", id: 4), at: 40, thread: thread),
            AdaptedEvent(.signpostEnd(name: "BuildFirstScreen", id: 4), at: 50, thread: thread),
        ])
    }

    @Test("before recording started, a signposter records nothing and still runs the work")
    func withoutRecording() {
        let signposter = LifetraceSignposter(subsystem: "s", category: .pointsOfInterest)
        #expect(signposter.withIntervalSignpost("Work") { "done" } == "done")
        #expect(signposter.withIntervalSignpost("Work", "for \(3) notes") { "done" } == "done")
    }
}
