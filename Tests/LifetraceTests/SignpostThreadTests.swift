import Foundation
@testable import Lifetrace
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRecorder
import Testing

/// The app's signposts, marks and callbacks are recorded on the thread that made the call: a stall
/// of the main thread is blamed on what ran on the main thread, not on a background thread's work.
struct SignpostThreadTests {
    /// A clock that gives each call the next of `times` (ns).
    final class Script: @unchecked Sendable {
        private let lock = NSLock()
        private var times: [Int64]
        init(_ times: [Int64]) { self.times = times }
        func next() -> Int64 { lock.withLock { times.removeFirst() } }
    }

    /// Runs `body` on a thread of its own and waits for it.
    static func onBackgroundThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    /// The analysis of a trace of an active app whose main thread is busy from 1.0 s to 3.1 s,
    /// while `signpost` runs the work that records an interval "ParseFeed" from 1.1 s to 2.5 s.
    static func stall(mainThread: Bool = false, _ signpost: (@escaping @Sendable () -> Void) -> Void) -> TraceAnalysis {
        let collected = CollectedEvents()
        let adapter = LifecycleAdapter(destination: collected)
        adapter.start(at: 50_000_000, onMainThread: false, progress: .unknown)
        adapter.handle(ObservedInput(.mainRunLoopAfterWaiting, at: 60_000_000, thread: .main))
        adapter.handle(ObservedInput(.notification(name: "UIApplicationDidFinishLaunchingNotification", scene: nil), at: 70_000_000))
        adapter.handle(ObservedInput(.notification(name: "UIApplicationDidBecomeActiveNotification", scene: nil), at: 80_000_000))
        adapter.handle(ObservedInput(.mainRunLoopBeforeWaiting, at: 90_000_000, thread: .main))
        adapter.handle(ObservedInput(.mainRunLoopAfterWaiting, at: 1_000_000_000, thread: .main))
        var configured = LifetraceSignposter(
            subsystem: "com.example.notes", category: .pointsOfInterest, adapter: adapter,
            clock: Script([1_100_000_000, 2_500_000_000]).next)
        if mainThread { configured.callingThread = { .main } }
        let signposter = configured
        signpost {
            let state = signposter.beginInterval("ParseFeed")
            signposter.endInterval("ParseFeed", state)
        }
        adapter.handle(ObservedInput(.mainRunLoopBeforeWaiting, at: 3_100_000_000, thread: .main))
        var symbols = SymbolTable()
        var events = [TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: 1))]
        for event in collected.events {
            events.append(TraceEvent(timestamp: event.timestamp, payload: event.kind.payload(&symbols), thread: event.thread))
        }
        events.append(TraceEvent(timestamp: 4_000_000_000, payload: .exit(code: 0, signal: nil)))
        return LifecycleAnalyzer.analyze(events, symbols: symbols, path: "stall.jsonl", metadata: TraceMetadata([]))
    }

    static func stallMessages(_ analysis: TraceAnalysis) -> [String] {
        analysis.violations.map(\.message).filter { $0.contains("main thread was busy") }
    }

    @Test("a signpost on a background thread during a main-thread stall is not the stall's blame")
    func backgroundSignpostIsNotBlamed() {
        let analysis = Self.stall { work in Self.onBackgroundThread(work) }
        let stalls = Self.stallMessages(analysis)
        #expect(!stalls.isEmpty, "\(analysis.violations.map(\.message))")
        #expect(stalls.allSatisfy { !$0.contains("ParseFeed") }, "\(stalls)")
    }

    @Test("a signpost on the main thread during a main-thread stall is the stall's blame")
    func mainThreadSignpostIsBlamed() {
        // The tests do not run on the main thread: the signposter is told its calls are made there.
        let analysis = Self.stall(mainThread: true) { work in work() }
        let stalls = Self.stallMessages(analysis)
        #expect(!stalls.isEmpty, "\(analysis.violations.map(\.message))")
        #expect(stalls.contains { $0.contains("ParseFeed") }, "\(stalls)")
    }

    @Test("each thread other than the main thread has a number of its own, kept across calls")
    func callingThread() {
        let numbered = ManagedBox<ThreadID>()
        Self.onBackgroundThread { numbered.value = CallingThread.id }
        let again = ManagedBox<ThreadID>()
        Self.onBackgroundThread { again.value = CallingThread.id }
        #expect(numbered.value?.isMain == false)
        #expect(again.value?.isMain == false)
        #expect(numbered.value != again.value)
    }

    final class ManagedBox<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Value?
        var value: Value? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
