import Atomics
import Foundation
import LifetraceFormat

/// The recovery of the leftovers of earlier runs (``TraceRecovery/recoverLeftovers(in:codec:skipping:waitingForOthers:shouldStop:)``)
/// in a standalone recorder's output directory, on a thread of its own once the recorder records.
///
/// A leftover can be large (a trace of hours, a full region), and its recovery takes time that
/// grows with it; done before the recorder started, it delayed the app's start by that much. Only
/// the leftover at the recorder's own trace path is still sealed before it starts (the new trace
/// is written there). Each region is recovered under its lock, so another process recovering the
/// same region is waited for, never joined. When the process exits, the recorder stops the
/// recovery between events (the trace in hand and its region stay as they were, for the next
/// start or `lifetrace recover`) and waits for it at most ``stopTimeout``.
final class LeftoverRecovery: @unchecked Sendable {
    private let directory: String
    private let skipping: String
    private let codec: any TraceCodec
    private let stopping = ManagedAtomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let running = ManagedAtomic<Bool>(false)

    /// The longest the process's exit waits for the recovery to stop.
    static let stopTimeout: Duration = .seconds(2)

    init(directory: String, skipping: String, codec: any TraceCodec) {
        self.directory = directory
        self.skipping = skipping
        self.codec = codec
    }

    /// Starts the recovery thread.
    func start() {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in run() }
        thread.name = "lifetrace-recovery"
        thread.start()
    }

    private func run() {
        let result = TraceRecovery.recoverLeftovers(
            in: directory, codec: codec, skipping: skipping, waitingForOthers: true,
            shouldStop: { [stopping] in stopping.load(ordering: .relaxed) })
        for failure in result.failures {
            StandardError.write("lifetrace recorder: \(failure.description)\n")
        }
        finished.signal()
    }

    /// Tells the recovery to stop and waits for it, at most ``stopTimeout`` (it may wait for
    /// another process's recovery of the same region, which it cannot interrupt).
    func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        stopping.store(true, ordering: .relaxed)
        let seconds = Double(Self.stopTimeout.components.seconds)
        _ = finished.wait(timeout: .now() + seconds)
    }
}
