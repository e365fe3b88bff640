import Benchmark
import Foundation
import LifetraceFormat
import LifetraceRecorder

/// What one stack sample costs (docs/PERFORMANCE.md, "Stack samples"): taken and written into
/// the region as the sampler does, and written into a trace as the writer does.
func stackSampleBenchmarks() {
    let probeRig = RecordingRig()
    let held = Held()
    Benchmark(
        "Take and write one stack sample (signal, frame-pointer walk, ring write)",
        configuration: .init(
            setup: {
                probeRig.startDraining()
                held.probe = StackSampleProbe(region: probeRig.region)
                guard held.probe != nil else { fatalError("stack samples are not supported on this platform") }
            }, teardown: { probeRig.stop() })
    ) { benchmark in
        guard let probe = held.probe else { return }
        var frames = 0
        for _ in benchmark.scaledIterations { frames &+= probe.sampleAndWrite() }
        blackHole(frames)
    }

    // 40 frames, as deep as the sample app's stalled launch: addresses a few KB apart in two images.
    let stack: [UInt64] = (0..<40).map { $0 < 10 ? 0x7F3A_0000_0000 + UInt64($0) * 0x1_2345 : 0x5570_C5B7_4000 + UInt64($0) * 0x2_1F3 }
    Benchmark(
        "Write one stack sample into a trace, its stack written before (binary writer)",
        configuration: .init(
            setup: { held.repeatedWriter = try? TraceWriter(path: "/dev/null", metadata: TraceMetadata([("app", "bench")])) },
            teardown: { try? held.repeatedWriter?.close() })
    ) { benchmark in
        guard let writer = held.repeatedWriter else { fatalError("cannot open /dev/null") }
        var timestamp: Int64 = 1_000_000
        for _ in benchmark.scaledIterations {
            timestamp += 10_000_000
            try? writer.appendSample(timestamp: timestamp, thread: .main, frames: stack)
        }
    }

    Benchmark(
        "Write one stack sample into a trace, a new stack of 40 frames (binary writer)",
        configuration: .init(
            setup: { held.newWriter = try? TraceWriter(path: "/dev/null", metadata: TraceMetadata([("app", "bench")])) },
            teardown: { try? held.newWriter?.close() })
    ) { benchmark in
        guard let writer = held.newWriter else { fatalError("cannot open /dev/null") }
        var timestamp: Int64 = 1_000_000
        var frames = stack
        for _ in benchmark.scaledIterations {
            timestamp += 10_000_000
            frames[39] &+= 1
            try? writer.appendSample(timestamp: timestamp, thread: .main, frames: frames)
        }
    }
}

/// What the benchmarks' setups make, for their bodies.
final class Held: @unchecked Sendable {
    var probe: StackSampleProbe?
    var repeatedWriter: TraceWriter?
    var newWriter: TraceWriter?
}
