import Foundation
import LifetraceFormat

extension TraceInputs {
    /// Analyses every trace of `paths` on every core and returns each result (the analysis, or
    /// the error that stopped it) in the order of `paths`. `progress` is called, from any
    /// thread, with the number of traces done so far.
    ///
    /// One trace alone is decoded on a second thread while it is analysed; several traces are
    /// analysed side by side instead, one per core, each on one thread.
    public static func analyze(
        paths: [String], options: AnalysisOptions, progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) -> [Result<TraceAnalysis, TraceError>] {
        if paths.count == 1 {
            let result = Result { () throws(TraceError) in try analyze(path: paths[0], options: options) }
            progress(1)
            return [result]
        }
        let results = ResultSlots<TraceAnalysis>(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Result { () throws(TraceError) in
                try analyze(path: paths[index], options: options, prefetch: false)
            }
            progress(results.store(result, at: index))
        }
        return results.take()
    }
}

/// Results written from many threads, one slot each.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Value, TraceError>?]
    private var done = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// Stores a result and returns how many are stored.
    func store(_ result: Result<Value, TraceError>, at index: Int) -> Int {
        lock.lock()
        defer { lock.unlock() }
        slots[index] = result
        done += 1
        return done
    }

    /// Every result; each slot has been stored once `concurrentPerform` has returned.
    func take() -> [Result<Value, TraceError>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
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
