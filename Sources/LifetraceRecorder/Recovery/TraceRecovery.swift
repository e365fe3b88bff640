import Foundation
import LifetraceFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seals the trace of a standalone recorder that was killed: what its file holds, what its
/// region (the file beside it) still holds, and an `exit` event.
///
/// The recorder's writer hands ring slots back only once a flush put their events in the trace
/// file, and it records the file's length at that flush in the region. So after a kill at any
/// point, every event whose record call returned is either in the file below that length or
/// still in a ring. Recovery cuts the file at that length (what lies past it was written from
/// slots that are still in the rings), copies what it holds, appends what the rings hold (and a
/// `dropped` event for drops not yet reported), then the `exit`: the one the process's exit or
/// crash handler wrote if it got that far, else one marked as inferred (no code, no signal) at the
/// last event's time. The sealed trace replaces the file atomically, then the region is removed,
/// so recovering twice changes nothing.
public enum TraceRecovery {
    /// The suffix of the region file beside a standalone recorder's trace.
    public static let regionSuffix = ".lifetrace-region"

    /// The region file of the trace at `tracePath`.
    public static func regionPath(forTrace tracePath: String) -> String { tracePath + regionSuffix }

    /// What a recovery did.
    public enum Outcome: Sendable, Hashable {
        /// The trace was sealed: `fromRegion` events came from the region, and the `exit` was
        /// the process's own (`inferredExit` false) or inferred.
        case sealed(fromFile: Int, fromRegion: Int, inferredExit: Bool)
        /// There was no region beside the trace: nothing to recover (the trace was sealed by its
        /// writer, or already recovered).
        case nothingToRecover
    }

    /// Recovers the trace at `tracePath` from its region; refuses while its process is alive.
    /// `codec` reads what the file holds and writes the sealed trace: the recorder's own
    /// (``RawBlockCodec`` when it has no other), or `ZstdCodec` in `lifetrace recover`, which
    /// thereby recompresses.
    public static func recover(tracePath: String, codec: some TraceCodec) throws(RecoveryError) -> Outcome {
        let regionPath = regionPath(forTrace: tracePath)
        guard access(regionPath, F_OK) == 0 else { return .nothingToRecover }
        let region: RecorderRegion
        do {
            region = try RecorderRegion.attach(path: regionPath)
        } catch {
            throw RecoveryError(.unreadableRegion, path: regionPath, detail: error.description)
        }
        let pid = region.producerPID
        if isAlive(pid: pid, launchedAt: region.launchTimestamp) {
            throw RecoveryError(.processAlive, path: tracePath, detail: "process \(pid) is still recording into it")
        }
        if region.isSealed {
            // The writer sealed the trace and was killed before it removed the region.
            region.unlink()
            return .nothingToRecover
        }
        let outcome = try seal(tracePath: tracePath, region: region, codec: codec)
        region.unlink()
        return outcome
    }

    /// Recovers every trace in `directory` whose region was left by a process that is no longer
    /// running; returns the traces recovered and the failures (a live process is not a failure).
    public static func recoverLeftovers(
        in directory: String, codec: some TraceCodec
    ) -> (recovered: [String], failures: [RecoveryError]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return ([], []) }
        var recovered: [String] = []
        var failures: [RecoveryError] = []
        for name in names.sorted() where name.hasSuffix(regionSuffix) {
            let trace = (directory as NSString).appendingPathComponent(String(name.dropLast(regionSuffix.count)))
            do {
                if case .sealed = try recover(tracePath: trace, codec: codec) { recovered.append(trace) }
            } catch let error where error.kind == .processAlive {
                continue
            } catch {
                failures.append(error)
            }
        }
        return (recovered, failures)
    }

    private static func seal(tracePath: String, region: RecorderRegion, codec: some TraceCodec) throws(RecoveryError) -> Outcome {
        let committed = region.committedLength
        if committed > 0 && truncate(tracePath, off_t(committed)) != 0 && errno != ENOENT {
            throw RecoveryError(.writeFailed, path: tracePath, detail: String(cString: strerror(errno)))
        }
        let temporary = tracePath + ".recovering"
        var symbols = SymbolTable()
        var fromFile = 0
        var lastTimestamp = Int64.min
        var sawLaunch = false
        do {
            let reader: BinaryTraceReader? = committed > 0 ? try BinaryTraceReader(path: tracePath, codec: codec) : nil
            let writer = try TraceWriter(
                path: temporary, metadata: reader?.metadata ?? TraceMetadata([("recorder", "LifetraceRecorder")]),
                codec: codec)
            if var source = reader {
                while let event = try source.next() {
                    try writer.append(event.reinterned(from: source.symbols, into: &symbols), symbols: symbols)
                    lastTimestamp = max(lastTimestamp, event.timestamp)
                    sawLaunch = sawLaunch || event.type == .launch
                    fromFile += 1
                }
                // A file this codec cannot read is left as it is, rather than sealed without its events.
                if let unreadable = source.issues.first(where: { $0.kind == .needsLibzstd }) { throw unreadable }
            }
            if !sawLaunch, let launch = region.launchTimestamp {
                // Killed before the first flush: the launch fact is still only in the region.
                let payload = EventPayload.launch(
                    reason: .none, background: false, prewarm: false, pid: Int64(region.producerPID))
                try writer.append(TraceEvent(timestamp: launch, payload: payload, stream: .system), symbols: symbols)
                lastTimestamp = max(lastTimestamp, launch)
            }
            let pump = AppStreamPump(region: region, defersCommit: true, resuming: true, notBefore: lastTimestamp)
            let fromRegion = try pump.pump(into: writer, symbols: &symbols)
            if fromRegion > 0 { lastTimestamp = max(lastTimestamp, pump.drainer.latestTimestamp) }
            if lastTimestamp == .min {
                // Killed while the recorder started: nothing was recorded, there is nothing to seal.
                unlink(temporary)
                return .nothingToRecover
            }
            let payload: EventPayload
            let exitTime: Int64
            switch region.exitFact {
            case .code(let code, let at)?: (payload, exitTime) = (.exit(code: code, signal: nil), at)
            case .signal(let signal, let at)?: (payload, exitTime) = (.exit(code: nil, signal: signal), at)
            case nil: (payload, exitTime) = (.exit(code: nil, signal: nil), lastTimestamp)
            }
            try writer.append(
                TraceEvent(timestamp: max(exitTime, lastTimestamp), payload: payload, stream: .system), symbols: symbols)
            try writer.close()
            guard rename(temporary, tracePath) == 0 else {
                throw RecoveryError(.writeFailed, path: tracePath, detail: String(cString: strerror(errno)))
            }
            return .sealed(fromFile: fromFile, fromRegion: fromRegion, inferredExit: region.exitFact == nil)
        } catch let error as RecoveryError {
            unlink(temporary)
            throw error
        } catch let error as TraceError {
            unlink(temporary)
            throw RecoveryError(.writeFailed, path: tracePath, detail: error.description)
        } catch {
            unlink(temporary)
            throw RecoveryError(.writeFailed, path: tracePath, detail: "\(error)")
        }
    }

    /// Whether process `pid` runs and is the one that started at `launchedAt` (not a later process
    /// that got the same id).
    static func isAlive(pid: Int32, launchedAt: Int64?) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let launchedAt, let started = ProcessStart.monotonicTimestamp(of: pid) else { return true }
        // Both come from the kernel's start time in clock ticks: equal but for rounding.
        return abs(started - launchedAt) < 50_000_000
    }
}

/// A recovery that could not be done: why, and on which file.
public struct RecoveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The recording process still runs: its trace is not finished.
        case processAlive = "cannot recover a trace that is still being recorded"
        /// The file beside the trace is not a recorder region this library reads.
        case unreadableRegion = "cannot read the recorder region"
        /// The sealed trace could not be written.
        case writeFailed = "cannot write the recovered trace"
    }

    /// What went wrong.
    public var kind: Kind
    /// The file involved.
    public var path: String
    /// More detail.
    public var detail: String

    /// An error of `kind` on `path`.
    public init(_ kind: Kind, path: String, detail: String) {
        self.kind = kind
        self.path = path
        self.detail = detail
    }

    /// One line: the problem, the file and the detail.
    public var description: String { "\(kind.rawValue) \(path): \(detail)" }
}
