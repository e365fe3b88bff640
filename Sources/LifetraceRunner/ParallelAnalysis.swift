import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

extension TraceInputs {
    /// Analyses every trace of `paths` on every core and returns each result (the analysis, or
    /// the error that stopped it) in the order of `paths`. `progress` is called, from any
    /// thread, with the number of traces done so far.
    ///
    /// One trace alone is decoded on a second thread while it is analysed; several traces are
    /// analysed side by side instead, one per core, each on one thread, taking turns holding a
    /// large name table (`turns`, ``NameTableTurns``).
    public static func analyze(
        paths: [String], options: AnalysisOptions, turns: NameTableTurns = .shared,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [Result<TraceAnalysis, TraceError>] {
        if paths.count == 1 {
            let result = Result { () throws(TraceError) in try analyze(path: paths[0], options: options) }
            progress(1)
            return [result]
        }
        let results = ValueSlots<Result<TraceAnalysis, TraceError>>(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Result { () throws(TraceError) in
                try analyze(path: paths[index], options: options, prefetch: false, turns: turns)
            }
            progress(results.store(result, at: index))
        }
        return results.take()
    }
}

extension TraceInputs {
    /// The cores this process may run on: its CPU affinity on Linux (so that `taskset` and
    /// CPU-pinned containers are respected), else the cores that are online.
    public static var usableCores: Int {
        #if os(Linux)
        // `Cpus_allowed` is the affinity mask in hexadecimal, in groups of 32 bits.
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) {
            let count = line.dropFirst("Cpus_allowed:".count).reduce(0) { count, character in
                count + (character.hexDigitValue?.nonzeroBitCount ?? 0)
            }
            if count > 0 { return count }
        }
        #endif
        return ProcessInfo.processInfo.activeProcessorCount
    }
}

extension TraceInputs {
    /// Runs `work` over every trace of `paths` on every core, a window of a few traces per core
    /// at a time, and hands each result with the output `work` wrote to `emit`, on the calling
    /// thread, in the order of `paths`. Memory is bounded by the window, never by the number of
    /// traces or by their output: each trace writes to an ``OutputSpool``. One trace alone is
    /// written straight to `output` (when there is one), and `work` is told it may decode on a
    /// second thread.
    public static func inOrder<Value>(
        paths: [String], output: StagedOutputFile?,
        work: @escaping @Sendable (_ path: String, _ alone: Bool, _ spool: OutputSpool) -> Value,
        emit: (Value, OutputSpool) throws(TraceError) -> Void
    ) throws(TraceError) {
        if paths.count == 1 {
            let spool = output.map(OutputSpool.init(writingThrough:)) ?? OutputSpool()
            try emit(work(paths[0], true, spool), spool)
            return
        }
        let window = max(2, 2 * usableCores)
        var start = 0
        while start < paths.count {
            let batch = Array(paths[start..<min(paths.count, start + window)])
            let spools = batch.map { _ in OutputSpool() }
            let values = ValueSlots<Value>(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { index in
                values.store(work(batch[index], false, spools[index]), at: index)
            }
            for (value, spool) in zip(values.take(), spools) { try emit(value, spool) }
            start += batch.count
        }
    }
}

/// Values written from many threads, one slot each.
private final class ValueSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Value?]
    private var done = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Stores a value and returns how many are stored.
    @discardableResult
    func store(_ value: Value, at index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = value
        done += 1
        return done
    }

    /// Every value; each slot has been stored once `concurrentPerform` has returned, so none is
    /// left out.
    func take() -> [Value] {
        lock.lock()
        defer { lock.unlock() }
        return slots.compactMap { $0 }
    }
}
