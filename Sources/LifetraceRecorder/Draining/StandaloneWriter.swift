import Atomics
import Foundation
import LifetraceFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer thread of a recorder that writes its own trace: writes the `launch` fact first,
/// drains the region into the sink and flushes at least every flush interval, and at the end
/// (``stop()``, or a crash signal whose handler wrote the exit fact into the region) writes the
/// `exit` fact and seals the trace.
final class StandaloneWriter: @unchecked Sendable {
    private let region: RecorderRegion
    private let pump: AppStreamPump
    private let launch: EventPayload?
    private let tracePath: String?
    private let sink: any TraceEventSink
    private let flushInterval: Duration
    private var symbols = SymbolTable()
    private let stopping = ManagedAtomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private var failure: TraceError?
    private var stopped = false

    /// A writer for `region`; `launch` is the system's `launch` event to write first, stamped
    /// with the region's launch time. With `tracePath` (the region is then a file beside the
    /// trace), the rings' slots are handed back only once a flush put their events in the file,
    /// so that a kill at any point leaves every returned record in the file or in the region.
    init(region: RecorderRegion, sink: any TraceEventSink, flushInterval: Duration, launch: EventPayload?, tracePath: String?) {
        self.region = region
        self.launch = launch
        self.tracePath = tracePath
        pump = AppStreamPump(region: region, defersCommit: tracePath != nil)
        self.sink = sink
        self.flushInterval = flushInterval
    }

    /// Starts the writer thread.
    func start() throws(RecorderError) {
        let thread = Thread { [self] in run() }
        thread.name = "lifetrace-writer"
        thread.start()
        self.thread = thread
    }

    /// The longest pause between two drains: the rings are emptied far more often than the file
    /// is flushed, so a ring of 64 Ki slots absorbs 65 ms of events at a million events/s.
    static let drainInterval: Duration = .milliseconds(10)

    private func run() {
        let pause = min(flushInterval, StandaloneWriter.drainInterval)
        let pauseSeconds = Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18
        let clock = ContinuousClock()
        var lastFlush = clock.now
        do {
            if let launch, let timestamp = region.launchTimestamp {
                try sink.append(TraceEvent(timestamp: timestamp, payload: launch, stream: .system), symbols: symbols)
            }
            try flushAndCommit()
        } catch {
            failure = error
        }
        while failure == nil {
            // A crash handler that wrote the exit fact waits for the trace to be sealed.
            let last = stopping.load(ordering: .acquiring) || region.exitFact != nil
            do {
                try pump.pump(into: sink, symbols: &symbols)
                if last {
                    try appendExit()
                    try sink.close()
                    region.markSealed()
                    region.unlink()
                } else if clock.now - lastFlush >= flushInterval
                    || pump.drainer.uncommittedMaximum > UInt64(region.layout.ringCapacity / 4)
                {
                    // Also early when a ring fills with slots that wait for a flush to be handed back.
                    try flushAndCommit()
                    lastFlush = clock.now
                }
            } catch {
                failure = error
                break
            }
            if last { break }
            _ = wakeUp.wait(timeout: .now() + pauseSeconds)
        }
        if let failure {
            // Nothing else would tell: the app goes on, its events are no longer written.
            StandardError.write("lifetrace recorder: stopped writing: \(failure.description)\n")
        }
        finished.signal()
    }

    /// Flushes the sink; with a trace file, records the file's length in the region and hands the
    /// slots read so far back to the producers.
    private func flushAndCommit() throws(TraceError) {
        try sink.flush()
        guard let tracePath else { return }
        let descriptor = open(tracePath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        let length = lseek(descriptor, 0, SEEK_END)
        close(descriptor)
        guard length > 0 else { return }
        region.setCommittedLength(Int64(length))
        pump.drainer.commit()
    }

    /// The `exit` fact the process's exit or crash handler wrote, never before the last event.
    private func appendExit() throws(TraceError) {
        guard let fact = region.exitFact else { return }
        let payload: EventPayload
        switch fact {
        case .code(let code, _): payload = .exit(code: code, signal: nil)
        case .signal(let signal, _): payload = .exit(code: nil, signal: signal)
        }
        let timestamp = max(fact.timestamp, pump.drainer.latestTimestamp)
        try sink.append(TraceEvent(timestamp: timestamp, payload: payload, stream: .system), symbols: symbols)
    }

    /// Drains what is left, closes the sink and waits for the thread; reports a write failure.
    func stop() throws(RecorderError) {
        guard !stopped else { return }
        stopped = true
        stopping.store(true, ordering: .releasing)
        wakeUp.signal()
        finished.wait()
        if let failure {
            throw RecorderError(.writeFailed, path: nil, errno: 0, detail: failure.description)
        }
    }
}
