import CRecorderSignals
import LifetraceFormat

/// Takes and writes stack samples the way ``StallSampler`` takes and writes the main thread's:
/// a signal whose handler walks the interrupted thread's frame pointers, then a `sample` record
/// in a ring of the region of its own. It exists to measure what one sample costs
/// (`Benchmarks/`, `RecorderBenchmarks`; docs/PERFORMANCE.md, "Stack samples"); the recorder
/// never uses it.
///
/// The thread sampled is the one that first prepared sampling in the process: the caller of the
/// first ``init(region:)`` (or the main thread, once a ``StallSampler`` started). Sampling the
/// calling thread itself, the signal is delivered as `pthread_kill` returns, so a sample costs
/// the kernel's delivery and return, the walk, and the ring write, without the wait for the
/// sampled thread to be scheduled that a sample of another thread adds. (On Apple platforms a
/// thread cannot suspend itself: sampling the calling thread walks its stack from the call.)
public final class StackSampleProbe: @unchecked Sendable {
    private var ring: ThreadRing
    private var frames = [UInt64](repeating: 0, count: Int(LIFETRACE_SAMPLE_MAX_FRAMES))

    /// A probe writing into a ring it claims in `region`; nil when this platform cannot sample.
    public init?(region: RecorderRegion) {
        guard StallSampler.isSupported, lifetrace_sampler_prepare(StallSampler.signal) == 0 else { return nil }
        ring = ThreadRing.claim(in: region)
    }

    /// Takes one sample and writes it into the ring; returns its frame count (0: no answer).
    @discardableResult
    public func sampleAndWrite() -> Int {
        let timestamp = MonotonicClock.now()
        let count = frames.withUnsafeMutableBufferPointer { Int(lifetrace_sampler_take($0.baseAddress!, 20_000_000)) }
        guard count > 0 else { return 0 }
        frames.withUnsafeBytes { bytes in
            ring.writeSideRecord(
                type: SideSlot.sample, timestamp: timestamp, value: Int64(ThreadID.main.rawValue), name: 0,
                bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<(count * 8)]))
        }
        return count
    }
}
