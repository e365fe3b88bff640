import Benchmark
import Foundation
import LifetraceFormat
import LifetraceZstd
import LifetraceRecorder

#if canImport(Glibc)
import Glibc
#endif

/// The recorder's cost on the calling thread (per event, timestamp included) with one and two
/// threads recording, and the rate at which the writer path (drain, encode, compress) keeps up.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 2_000
    )

    let single = RecordingRig()
    Benchmark(
        "Record one event, 1 thread",
        configuration: .init(setup: { single.startDraining() }, teardown: { single.stop() })
    ) { benchmark in
        let recorder = single.recorder
        let name = single.name
        for _ in benchmark.scaledIterations { recorder.mark(name) }
    }

    let double = RecordingRig()
    Benchmark(
        "Record one event, 2 threads",
        configuration: .init(
            setup: {
                double.startDraining()
                double.startSecondRecorder()
            }, teardown: { double.stop() })
    ) { benchmark in
        let recorder = double.recorder
        let name = double.name
        for _ in benchmark.scaledIterations { recorder.mark(name) }
    }

    let staticRig = RecordingRig()
    Benchmark(
        "Record a signpost interval by static name (2 events), 1 thread",
        configuration: .init(setup: { staticRig.startDraining() }, teardown: { staticRig.stop() })
    ) { benchmark in
        let recorder = staticRig.recorder
        for _ in benchmark.scaledIterations { recorder.begin("LoadDatabase").end() }
    }

    Benchmark("Clock read alone (clock_gettime, CLOCK_MONOTONIC)") { benchmark in
        var sum: Int64 = 0
        for _ in benchmark.scaledIterations { sum &+= MonotonicClock.now() }
        blackHole(sum)
    }

    for rate in [1_000_000, 2_000_000, 4_000_000] {
        Benchmark(
            "Standalone recorder at \(rate / 1_000_000)M events/s for 0.5 s",
            configuration: .init(
                metrics: [.custom("dropped events", polarity: .prefersSmaller, useScalingFactor: false)],
                scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 3)
        ) { benchmark in
            for _ in benchmark.scaledIterations {
                let result = sustainedRun(eventsPerSecond: rate)
                benchmark.measurement(.custom("dropped events", polarity: .prefersSmaller, useScalingFactor: false), result.dropped)
            }
        }
    }

    let writerRig = WriterRig()
    Benchmark(
        "Writer: record, drain, encode and compress 1000 events",
        configuration: .init(metrics: [.wallClock, .throughput], timeUnits: .microseconds, scalingFactor: .one)
    ) { benchmark in
        for _ in benchmark.scaledIterations { writerRig.batch(1000) }
    }

    stackSampleBenchmarks()
}

/// A recorder over its own region, a thread that drains it (discarding the records, so only
/// the producer's cost is measured) and, on demand, a second thread recording at full speed.
final class RecordingRig: @unchecked Sendable {
    let region: RecorderRegion
    let recorder: Recorder
    let name: RecordedName
    private let running = SharedFlag(false)

    init() {
        do {
            region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 8, ringCapacity: 1 << 18))
        } catch {
            fatalError("\(error)")
        }
        recorder = Recorder(region: region)
        name = recorder.name("Tapped")
    }

    func startDraining() {
        running.value = true
        Thread { [self] in
            let drainer = RegionDrainer(region: region)
            var batch: [DrainedEvent] = []
            batch.reserveCapacity(1 << 18)
            while running.value {
                batch.removeAll(keepingCapacity: true)
                drainer.drain(into: &batch)
                usleep(500)
            }
        }.start()
    }

    func startSecondRecorder() {
        Thread { [self] in
            let name = recorder.name("Background")
            while running.value {
                for _ in 0..<1000 { recorder.mark(name) }
            }
        }.start()
    }

    func stop() {
        running.value = false
        usleep(5000)
    }
}

/// A recorder and a pump writing its events with the binary writer to /dev/null.
final class WriterRig: @unchecked Sendable {
    private let recorder: Recorder
    private let pump: AppStreamPump
    private let writer: TraceWriter
    private var symbols = SymbolTable()
    private let names: [RecordedName]

    init() {
        do {
            let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 1, ringCapacity: 8192))
            recorder = Recorder(region: region)
            pump = AppStreamPump(region: region)
            writer = try TraceWriter(path: "/dev/null", metadata: TraceMetadata([("app", "bench")]))
        } catch {
            fatalError("\(error)")
        }
        let recorder = self.recorder
        names = ["LoadDatabase", "BuildFirstScreen", "Tapped", "SaveState"].map { recorder.name($0) }
    }

    /// Records `count` events of a realistic mix (run-loop turns, intervals, marks), then drains
    /// and writes them.
    func batch(_ count: Int) {
        for index in 0..<count {
            switch index & 3 {
            case 0: recorder.runloopWake()
            case 1: recorder.signpostBegin(names[index & 1])
            case 2: recorder.signpostEnd(names[index & 1])
            default: recorder.mark(names[2])
            }
        }
        do {
            try pump.pump(into: writer, symbols: &symbols)
        } catch {
            fatalError("\(error)")
        }
    }
}

/// A flag shared between the benchmark and its helper threads.
final class SharedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Bool
    init(_ value: Bool) { stored = value }
    var value: Bool {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A standalone recorder (its own writer thread, binary writer to /dev/null, default rings and
/// flush interval) fed by one thread at a fixed rate for half a second: the events it dropped.
func sustainedRun(eventsPerSecond: Int) -> (recorded: Int, dropped: Int) {
    let sink: TraceWriter
    let recorder: Recorder
    do {
        sink = try TraceWriter(path: "/dev/null", metadata: TraceMetadata([("app", "bench")]))
        recorder = try Recorder(sink: sink)
    } catch {
        fatalError("\(error)")
    }
    let name = recorder.name("Tick")
    let interval = 1_000_000_000 / Int64(eventsPerSecond)
    let start = MonotonicClock.now()
    let end = start + 500_000_000
    var next = start
    var recorded = 0
    while true {
        let now = MonotonicClock.now()
        if now >= end { break }
        // Catch up in bursts, as a real app's events come.
        while next <= now {
            recorder.mark(name)
            recorded += 1
            next += interval
        }
    }
    let drainer = RegionDrainer(region: recorder.region)
    let dropped = Int(drainer.droppedTotal)
    do {
        try recorder.stop()
    } catch {
        fatalError("\(error)")
    }
    return (recorded, dropped)
}
