import LifetraceFormat

/// The events the format benchmarks encode and decode.
///
/// A stand-in with the shape of the reference workload (launch, 60 Hz main run loop with jitter,
/// frames, signposts, marks, background cycles on the system stream); `lifetrace synth` provides
/// the reference workload itself.
struct Workload {
    var symbols = SymbolTable()
    var events: [TraceEvent] = []

    init(count: Int, seed: UInt64 = 1) {
        var random = seed
        func next() -> UInt64 {
            random &+= 0x9E37_79B9_7F4A_7C15
            var z = random
            z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_E1CB
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let names = ["render", "layout", "net.fetch", "db.query", "image.decode"].map { symbols.intern($0) }
        let scene = symbols.intern("scene-1")
        let didBecomeActive = symbols.intern("didBecomeActive")
        var time: Int64 = 1_000_000_000
        events.reserveCapacity(count)
        events.append(TraceEvent(timestamp: time, payload: .launch(reason: symbols.intern("user"), background: false, prewarm: false, pid: 4242)))
        var frame = 0
        while events.count < count {
            frame += 1
            time += 16_666_667 + Int64(next() % 400_000) - 200_000
            events.append(TraceEvent(timestamp: time, payload: .runloopWake))
            var inner = time + Int64(next() % 50_000)
            if next() % 4 == 0 {
                let name = names[Int(next() % UInt64(names.count))]
                let id = Int64(next() % 1000)
                events.append(TraceEvent(timestamp: inner, payload: .signpostBegin(name: name, id: id)))
                inner += Int64(next() % 3_000_000)
                events.append(TraceEvent(timestamp: inner, payload: .signpostEnd(name: name, id: id)))
            }
            if next() % 600 == 0 {
                events.append(TraceEvent(timestamp: inner, payload: .state(to: .inactive, scene: scene)))
                events.append(TraceEvent(timestamp: inner + 1000, payload: .callbackBegin(name: didBecomeActive, scene: .none), thread: .main))
                events.append(TraceEvent(timestamp: inner + 90_000, payload: .callbackEnd(name: didBecomeActive, scene: .none), thread: .main))
                events.append(TraceEvent(timestamp: inner + 100_000, payload: .state(to: .active, scene: scene)))
            }
            inner += Int64(next() % 4_000_000) + 500_000
            events.append(TraceEvent(timestamp: inner, payload: .frame(first: frame == 1 ? true : nil)))
            if next() % 16 == 0 {
                events.append(TraceEvent(timestamp: inner + 10_000, payload: .mark(name: names[0]), thread: .numbered(next() % 4)))
            }
            events.append(TraceEvent(timestamp: inner + Int64(next() % 100_000), payload: .runloopSleep))
        }
        events.removeLast(events.count - count)
    }
}
