import Atomics
import Foundation
import LifetraceFormat

/// The writer thread of a recorder that writes its own trace: drains the region into the sink
/// and flushes, at least every flush interval, so a killed process loses at most that interval.
final class StandaloneWriter: @unchecked Sendable {
    private let pump: AppStreamPump
    private let sink: any TraceEventSink
    private let flushInterval: Duration
    private var symbols = SymbolTable()
    private let stopping = ManagedAtomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private var failure: TraceError?
    private var stopped = false

    init(region: RecorderRegion, sink: any TraceEventSink, flushInterval: Duration) {
        pump = AppStreamPump(region: region)
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
        while true {
            let last = stopping.load(ordering: .acquiring)
            do {
                try pump.pump(into: sink, symbols: &symbols)
                if last {
                    try sink.close()
                } else if clock.now - lastFlush >= flushInterval {
                    try sink.flush()
                    lastFlush = clock.now
                }
            } catch {
                // Nothing else would tell: the app goes on, its events are no longer written.
                failure = error
                FileHandle.standardError.write(Data("lifetrace recorder: stopped writing: \(error.description)\n".utf8))
                break
            }
            if last { break }
            _ = wakeUp.wait(timeout: .now() + pauseSeconds)
        }
        finished.signal()
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
