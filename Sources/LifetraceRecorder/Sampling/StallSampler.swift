import Atomics
import CRecorderSignals
import Foundation
import LifetraceFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// When the main thread's stack is sampled: only while it has been awake (its run loop busy)
/// longer than ``threshold``, every ``interval`` until it sleeps again.
public struct StallSampling: Sendable, Hashable {
    /// How long the main thread must be busy before its stack is sampled.
    public var threshold: Duration
    /// The time between two samples of one stall.
    public var interval: Duration

    /// The defaults: sampling after 50 ms busy, every 10 ms.
    public init(threshold: Duration = .milliseconds(50), interval: Duration = .milliseconds(10)) {
        self.threshold = threshold
        self.interval = interval
    }

    /// The environment variable that turns sampling off (`off` or `0`) or sets its threshold in
    /// milliseconds (`LIFETRACE_STALL_SAMPLING=80`).
    public static let environmentKey = "LIFETRACE_STALL_SAMPLING"

    /// The sampling `environment` asks for, given `default`: nil when it says `off` or `0`.
    public static func resolve(_ configured: StallSampling?, environment: [String: String]) -> StallSampling? {
        guard let value = environment[environmentKey]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return configured
        }
        if value == "off" || value == "0" { return nil }
        guard let milliseconds = Int(value), milliseconds > 0, milliseconds <= 60_000 else { return configured }
        var sampling = configured ?? StallSampling()
        sampling.threshold = .milliseconds(milliseconds)
        return sampling
    }
}

/// Samples the main thread's stack while it is stuck (docs/RECORDING.md, "Stack samples").
///
/// The main run loop's observer tells it when the main thread wakes and sleeps (two atomic
/// stores, and a semaphore signal when the sampler is idle, which never waits). The sampler
/// thread waits on the semaphore while the main thread sleeps; after a wake it sleeps until the
/// wake is ``StallSampling/threshold`` old and, if the same wake is still going, takes the main
/// thread's stack every ``StallSampling/interval`` until it sleeps (`CRecorderSignals`: on Linux
/// a signal whose handler walks the frame pointers, async-signal-safe, bounded, no allocation, no
/// lock; on Apple platforms `thread_suspend`, `thread_get_state`, the same walk, `thread_resume`).
/// Samples and the loaded images go into the sampler's own ring of the region, never into the
/// main thread's, so an event the main thread was writing when interrupted is never touched.
public final class StallSampler: @unchecked Sendable {
    /// The signal the sampler interrupts the main thread with.
    public static let signal = SIGPROF

    /// Whether this platform's sampler can walk the sampled stack (Linux x86_64, aarch64; Apple
    /// arm64, x86_64).
    public static var isSupported: Bool { lifetrace_sampler_supported() != 0 }

    /// The sampler of the process, once started.
    public static var current: StallSampler? { currentReference.load() }
    private static let currentReference = ManagedAtomicLazyReference<StallSampler>()

    /// When it samples.
    public let sampling: StallSampling
    private let region: RecorderRegion
    private let names: NameTable
    private let awake = ManagedAtomic<Bool>(false)
    private let wakeTime = ManagedAtomic<Int64>(0)
    private let epoch = ManagedAtomic<UInt64>(0)
    private let idle = ManagedAtomic<Bool>(false)
    private let stopping = ManagedAtomic<Bool>(false)
    private let semaphore = DispatchSemaphore(value: 0)
    private let taken = ManagedAtomic<Int>(0)

    /// Stack samples taken so far.
    public var sampleCount: Int { taken.load(ordering: .relaxed) }
    private let takeTime = ManagedAtomic<Int64>(0)
    private let writeTime = ManagedAtomic<Int64>(0)

    /// What the samples cost so far, in nanoseconds: on the main thread (its signal handler's
    /// walk), from the signal to the answer (the sampler's wait), and writing them into the ring.
    public var costs: (handler: Int64, roundTrip: Int64, write: Int64) {
        (lifetrace_sampler_handler_nanoseconds(), takeTime.load(ordering: .relaxed), writeTime.load(ordering: .relaxed))
    }

    private init(recorder: Recorder, sampling: StallSampling) {
        self.sampling = sampling
        region = recorder.region
        names = recorder.names
    }

    /// Starts sampling the calling thread, which must be the main thread, for `recorder`; returns
    /// the sampler, or nil when the platform cannot sample or the thread is not the main one.
    /// A second call returns the first sampler.
    @discardableResult
    public static func start(recorder: Recorder, sampling: StallSampling) -> StallSampler? {
        if let existing = current { return existing }
        guard isSupported, Thread.isMainThread, lifetrace_sampler_prepare(signal) == 0 else { return nil }
        let sampler = StallSampler(recorder: recorder, sampling: sampling)
        let stored = currentReference.storeIfNilThenLoad(sampler)
        guard stored === sampler else { return stored }
        // The main thread is busy from here (the launch) until its run loop first sleeps.
        sampler.mainWoke()
        let thread = Thread { sampler.run() }
        thread.name = "lifetrace.sampler"
        thread.start()
        return sampler
    }

    /// The main thread woke (its run loop started processing).
    @inline(__always)
    public func mainWoke() {
        wakeTime.store(MonotonicClock.now(), ordering: .relaxed)
        epoch.wrappingIncrement(ordering: .relaxed)
        awake.store(true, ordering: .sequentiallyConsistent)
        if idle.load(ordering: .sequentiallyConsistent) { semaphore.signal() }
    }

    /// The main thread went back to waiting.
    @inline(__always)
    public func mainSlept() {
        awake.store(false, ordering: .releasing)
    }

    /// Stops the sampler thread after its current sample.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        semaphore.signal()
    }

    private func run() {
        var ring = ThreadRing.claim(in: region)
        var frames = [UInt64](repeating: 0, count: Int(LIFETRACE_SAMPLE_MAX_FRAMES))
        var imagesWritten = Set<UInt64>()
        let threshold = Self.nanoseconds(sampling.threshold)
        let interval = max(Self.nanoseconds(sampling.interval), 1_000_000)
        while !stopping.load(ordering: .relaxed) {
            if !awake.load(ordering: .sequentiallyConsistent) {
                // Nothing runs while the main thread sleeps: wait for its next wake.
                idle.store(true, ordering: .sequentiallyConsistent)
                if !awake.load(ordering: .sequentiallyConsistent) { semaphore.wait() }
                idle.store(false, ordering: .sequentiallyConsistent)
                continue
            }
            let wake = epoch.load(ordering: .relaxed)
            let wokeAt = wakeTime.load(ordering: .relaxed)
            MonotonicClock.sleep(until: wokeAt &+ threshold)
            guard stillBusy(wake) else { continue }
            writeNewImages(into: &ring, written: &imagesWritten)
            while stillBusy(wake) && !stopping.load(ordering: .relaxed) {
                let timestamp = MonotonicClock.now()
                let count = frames.withUnsafeMutableBufferPointer {
                    Int(lifetrace_sampler_take($0.baseAddress!, 20_000_000))
                }
                let taken = MonotonicClock.now()
                takeTime.wrappingIncrement(by: taken &- timestamp, ordering: .relaxed)
                // The sample's time is when the main thread's handler walked its stack: at once
                // on a healthy machine, later when the main thread had no core and the answer
                // came late (to this call, for the request the last one gave up on). A late
                // answer from before this busy interval is not its sample.
                let walked = count > 0 ? lifetrace_sampler_answer_time() : 0
                if count > 0 && walked >= wokeAt && stillBusy(wake) {
                    frames.withUnsafeBytes { bytes in
                        ring.writeSideRecord(
                            type: SideSlot.sample, timestamp: walked, value: Int64(ThreadID.main.rawValue), name: 0,
                            bytes: UnsafeRawBufferPointer(rebasing: bytes[0..<(count * 8)]))
                    }
                    self.taken.wrappingIncrement(ordering: .relaxed)
                    writeTime.wrappingIncrement(by: MonotonicClock.now() &- taken, ordering: .relaxed)
                }
                MonotonicClock.sleep(until: timestamp &+ interval)
            }
        }
    }

    private func stillBusy(_ wake: UInt64) -> Bool {
        awake.load(ordering: .acquiring) && epoch.load(ordering: .acquiring) == wake
    }

    /// Writes the images loaded since the last call (by base address) into the sampler's ring.
    private func writeNewImages(into ring: inout ThreadRing, written: inout Set<UInt64>) {
        final class Collected { var images: [(String, UInt64, UInt64, [UInt8])] = [] }
        let collected = Collected()
        lifetrace_loaded_images(Unmanaged.passUnretained(collected).toOpaque()) { context, path, base, size, id, idLength in
            let collected = Unmanaged<Collected>.fromOpaque(context!).takeUnretainedValue()
            let buildID = id.map { Array(UnsafeBufferPointer(start: $0, count: Int(idLength))) } ?? []
            collected.images.append((path.map { String(cString: $0) } ?? "", base, size, buildID))
        }
        let timestamp = MonotonicClock.now()
        for (path, base, size, buildID) in collected.images where !written.contains(base) {
            written.insert(base)
            let name = names.intern(path.isEmpty ? Self.executablePath() : path)
            var bytes = withUnsafeBytes(of: size.littleEndian) { Array($0) }
            bytes.append(contentsOf: buildID.prefix(64))
            bytes.withUnsafeBytes { buffer in
                ring.writeSideRecord(type: SideSlot.image, timestamp: timestamp, value: Int64(bitPattern: base), name: name, bytes: buffer)
            }
        }
    }

    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard lifetrace_executable_path(&buffer, UInt32(buffer.count)) == 0 else { return CommandLine.arguments.first ?? "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
