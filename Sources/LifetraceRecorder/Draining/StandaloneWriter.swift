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

    private func run() {
        let seconds = Double(flushInterval.components.seconds) + Double(flushInterval.components.attoseconds) / 1e18
        while true {
            let last = stopping.load(ordering: .acquiring)
            do {
                try pump.pump(into: sink, symbols: &symbols)
                if last { try sink.close() } else { try sink.flush() }
            } catch {
                failure = error
                break
            }
            if last { break }
            _ = wakeUp.wait(timeout: .now() + seconds)
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
