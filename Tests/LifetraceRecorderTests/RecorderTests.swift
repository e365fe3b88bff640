import Foundation
import LifetraceFormat
import Testing

@testable import LifetraceRecorder

@Suite struct RecorderTests {
    @Test func recordsEveryKindOfAppEventWithNames() throws {
        let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 4, ringCapacity: 64))
        let recorder = Recorder(region: region)
        let callback = recorder.name("didFinishLaunching")
        let scene = recorder.name("main")
        recorder.callbackBegin(callback, scene: scene)
        recorder.callbackEnd(callback, scene: scene)
        recorder.runloopWake()
        recorder.runloopSleep()
        let interval = recorder.begin("LoadDatabase", id: 7)
        interval.end()
        recorder.mark("Tapped")
        recorder.frame(first: true)
        recorder.frame()
        let task = recorder.name("SaveState")
        recorder.backgroundTaskBegin(id: 3, name: task)
        recorder.backgroundTaskExpire(id: 3, name: task)
        recorder.backgroundTaskEnd(id: 3, name: task)

        let sink = TraceEventCollection()
        var symbols = SymbolTable()
        let pump = AppStreamPump(region: region)
        #expect(try pump.pump(into: sink, symbols: &symbols) == 12)
        let (events, table) = sink.snapshot
        let name = { (symbol: Symbol) in table[symbol] }
        #expect(events.allSatisfy { $0.stream == .app && $0.thread == events[0].thread })
        guard case .callbackBegin(let begin, let beginScene) = events[0].payload else {
            Issue.record("expected callback.begin, got \(events[0])")
            return
        }
        #expect(name(begin) == "didFinishLaunching" && name(beginScene) == "main")
        #expect(events[2].payload == .runloopWake && events[3].payload == .runloopSleep)
        if case .signpostBegin(let signpost, let id) = events[4].payload {
            #expect(name(signpost) == "LoadDatabase" && id == 7)
        } else {
            Issue.record("expected signpost.begin, got \(events[4])")
        }
        if case .mark(let mark) = events[6].payload { #expect(name(mark) == "Tapped") }
        #expect(events[7].payload == .frame(first: true))
        #expect(events[8].payload == .frame(first: nil))
        if case .bgtaskExpire(let id, let taskName) = events[10].payload {
            #expect(id == 3 && name(taskName) == "SaveState")
        } else {
            Issue.record("expected bgtask.expire, got \(events[10])")
        }
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    }

    @Test func staticNamesAreInternedOnce() throws {
        let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 1, ringCapacity: 16))
        let recorder = Recorder(region: region)
        let first = recorder.name("Tapped" as StaticString)
        let second = recorder.name("Tapped" as StaticString)
        let dynamic = recorder.name(String("Tap") + "ped")
        #expect(first == second && first == dynamic)
        #expect(region.symbol(first.rawValue) == "Tapped")
    }

    @Test func fullRingDropsAndCountsWithoutBlocking() throws {
        let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 1, ringCapacity: 8))
        let recorder = Recorder(region: region)
        for _ in 0..<20 { recorder.mark("Burst") }
        let sink = TraceEventCollection()
        var symbols = SymbolTable()
        let pump = AppStreamPump(region: region)
        try pump.pump(into: sink, symbols: &symbols)
        let events = sink.snapshot.events
        #expect(events.filter { $0.type == .mark }.count == 8)
        #expect(events.last?.payload == .dropped(count: 12))
        #expect(pump.droppedCount == 12)
        recorder.mark("Burst")
        try pump.pump(into: sink, symbols: &symbols)
        #expect(sink.snapshot.events.last?.type == .mark)
    }

    @Test func threadsGetTheirOwnRingsAndNumbers() throws {
        let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 8, ringCapacity: 4096))
        let recorder = Recorder(region: region)
        let perThread = 1000
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread {
                for index in 0..<perThread { recorder.signpostBegin(recorder.name("Work"), id: Int64(index)) }
                group.leave()
            }.start()
        }
        group.wait()
        let sink = TraceEventCollection()
        var symbols = SymbolTable()
        let pump = AppStreamPump(region: region)
        try pump.pump(into: sink, symbols: &symbols)
        let events = sink.snapshot.events
        #expect(events.count == 4 * perThread)
        let byThread = Dictionary(grouping: events, by: \.thread)
        #expect(byThread.count == 4)
        for (_, threadEvents) in byThread {
            let ids = threadEvents.compactMap { event -> Int64? in
                if case .signpostBegin(_, let id) = event.payload { return id }
                return nil
            }
            #expect(ids == ids.sorted() && ids.count == perThread)
        }
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
    }

    @Test func exitedThreadsGiveTheirRingBack() throws {
        let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 2, ringCapacity: 16))
        let recorder = Recorder(region: region)
        let pump = AppStreamPump(region: region)
        let sink = TraceEventCollection()
        var symbols = SymbolTable()
        for round in 0..<5 {
            // Joined, so that the thread's exit (its thread-specific destructor retires the
            // ring) has happened before the pump runs: the pump then frees the ring for the
            // next round.
            runAndJoin { recorder.mark("Round") }
            let deadline = ContinuousClock.now + .seconds(30)
            repeat {
                try pump.pump(into: sink, symbols: &symbols)
            } while sink.snapshot.events.count < round + 1 && ContinuousClock.now < deadline && usleep(1_000) == 0
            #expect(sink.snapshot.events.count == round + 1)
        }
        #expect(region.droppedWithoutRing == 0)
    }
}

/// What `runAndJoin` runs on its thread.
private final class ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Runs `body` on a new thread and returns once that thread has exited, its thread-specific
/// destructors included.
private func runAndJoin(_ body: @escaping () -> Void) {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    precondition(status == 0, "pthread_create failed: \(status)")
    pthread_join(thread, nil)
}
