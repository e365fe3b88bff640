import Atomics
import CRecorderSignals
import Foundation
import LifetraceFormat

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
        /// the process's own (`inferredExit` false) or inferred. `losses` says, one clause each,
        /// what could not be kept (a damaged chunk, a committed length the file does not hold,
        /// records of the region that cannot be events); when it is not empty the sealed trace
        /// carries the loss (`End_Flags` bit 0), so that no reader takes it for a trace read whole.
        case sealed(fromFile: Int, fromRegion: Int, inferredExit: Bool, losses: [String])
        /// There was no region beside the trace: nothing to recover (the trace was sealed by its
        /// writer, or already recovered).
        case nothingToRecover
    }

    /// The most problems of the file a recovery lists one by one; the rest are counted.
    static let listedLosses = 8

    /// Recovers the trace at `tracePath` from its region; refuses while its process is alive.
    /// `codec` reads what the file holds and writes the sealed trace: the recorder's own
    /// (``RawBlockCodec`` when it has no other), or `ZstdCodec` in `lifetrace recover`, which
    /// thereby recompresses.
    ///
    /// Nothing is written through a symbolic link: a region or a trace path that is one is
    /// refused, and the sealed trace is written under a fresh temporary name (created
    /// exclusively, `StagedOutputFile`) beside the trace and renamed over it.
    ///
    /// One recoverer at a time: a recovery holds an exclusive lock (`flock`) on the region file
    /// until it has removed it. Another process's recovery of the same region is refused
    /// (``RecoveryError/Kind/beingRecovered``), or with `waitingForOthers` waited for, after which
    /// the region it removed is nothing to recover. `shouldStop` is asked between events; when
    /// it says so, the recovery stops (``RecoveryError/Kind/stopped``) and leaves the trace and
    /// the region as they were.
    public static func recover(
        tracePath: String, codec: some TraceCodec, waitingForOthers: Bool = false, shouldStop: () -> Bool = { false }
    ) throws(RecoveryError) -> Outcome {
        let regionPath = regionPath(forTrace: tracePath)
        guard let regionKind = fileKind(regionPath) else { return .nothingToRecover }
        guard regionKind == .regular else {
            throw RecoveryError(
                .unreadableRegion, path: regionPath,
                detail: regionKind == .symbolicLink ? "a symbolic link, not a region; left as it is" : "not a regular file; left as it is")
        }
        if let traceKind = fileKind(tracePath), traceKind != .regular {
            throw RecoveryError(
                .notARegularTrace, path: tracePath,
                detail: traceKind == .symbolicLink
                    ? "a symbolic link; recover the trace at the path it names (the recorder writes no links)"
                    : "not a regular file")
        }
        let lock = open(regionPath, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard lock >= 0 else {
            if errno == ENOENT { return .nothingToRecover }
            throw RecoveryError(.unreadableRegion, path: regionPath, detail: String(cString: strerror(errno)))
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX | (waitingForOthers ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            throw RecoveryError(.beingRecovered, path: tracePath, detail: "run recover again once it has finished")
        }
        // Locked: a recoverer that held the lock before has removed the region (or another file
        // took its name); either way this one is not the region to recover.
        guard FileFacts.isStill(lock, at: regionPath) else { return .nothingToRecover }
        let region: RecorderRegion
        do {
            region = try RecorderRegion.attach(path: regionPath, followingSymlinks: false)
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
        try refuseAnotherFile(tracePath: tracePath, region: region, codec: codec)
        let outcome = try seal(tracePath: tracePath, region: region, codec: codec, shouldStop: shouldStop)
        region.unlink()
        return outcome
    }

    /// What is at `path` (not following a symbolic link), or nil if nothing is.
    static func fileKind(_ path: String) -> FileKind? {
        switch lifetrace_file_kind(path) {
        case 1: .regular
        case 2: .symbolicLink
        case 3: .other
        default: nil
        }
    }

    enum FileKind { case regular, symbolicLink, other }

    /// Recovers every trace in `directory` whose region was left by a process that is no longer
    /// running, but the one at `skipping` (a recorder's own trace, in `directory`); returns the traces recovered
    /// and the failures (a live process is not a failure, nor is another process recovering the
    /// same region, which `waitingForOthers` waits for). A region that cannot be recovered (not a
    /// region, a link, a trace that is a link) is left as it is and reported among the failures.
    /// Once `shouldStop` says so, it stops (the region in hand is left as it was) and recovers no more.
    public static func recoverLeftovers(
        in directory: String, codec: some TraceCodec, skipping: String? = nil, waitingForOthers: Bool = false,
        shouldStop: () -> Bool = { false }
    ) -> (recovered: [String], failures: [RecoveryError]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return ([], []) }
        var recovered: [String] = []
        var failures: [RecoveryError] = []
        removeAbandonedStaging(in: directory, names: names)
        for name in names.sorted() where name.hasSuffix(regionSuffix) {
            if shouldStop() { break }
            let trace = (directory as NSString).appendingPathComponent(String(name.dropLast(regionSuffix.count)))
            // The recorder's own trace, however its path was spelled (`./t.ltrace`, `t.ltrace`).
            if let skipping, (trace as NSString).lastPathComponent == (skipping as NSString).lastPathComponent { continue }
            do {
                if case .sealed = try recover(
                    tracePath: trace, codec: codec, waitingForOthers: waitingForOthers, shouldStop: shouldStop)
                {
                    recovered.append(trace)
                }
            } catch let error where [.processAlive, .beingRecovered, .stopped].contains(error.kind) {
                continue
            } catch {
                failures.append(error)
            }
        }
        return (recovered, failures)
    }

    /// Removes the regions that a process killed while it made them left at their staging names
    /// (`TRACE.lifetrace-region.creating-PID`, ``RecorderRegion/create(path:layout:)``): never
    /// linked into place, they hold no event, only a header and the file's size. One whose process
    /// still runs is left to it.
    static func removeAbandonedStaging(in directory: String, names: [String]) {
        let marker = regionSuffix + ".creating-"
        for name in names {
            guard let range = name.range(of: marker, options: .backwards), let pid = Int32(name[range.upperBound...]), pid > 0
            else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            guard fileKind(path) == .regular else { continue }
            _ = unlink(path)
        }
    }

    private static func seal(
        tracePath: String, region: RecorderRegion, codec: some TraceCodec, shouldStop: () -> Bool
    ) throws(RecoveryError) -> Outcome {
        var losses: [String] = []
        // The part of the file to trust, checked against the file's real size before anything is
        // read; the file itself is never cut, extended or written (the sealed trace replaces it).
        let file = open(tracePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard file >= 0 || errno == ENOENT else {
            throw RecoveryError(.writeFailed, path: tracePath, detail: "cannot open: " + String(cString: strerror(errno)))
        }
        defer { if file >= 0 { close(file) } }
        let size: Int64 = file >= 0 ? Int64(lseek(file, 0, SEEK_END)) : 0
        if file >= 0 { lseek(file, 0, SEEK_SET) }
        let committed = region.committedLength
        var readable = committed
        if committed < 0 || committed > size {
            losses.append("the region says \(committed) bytes of the trace were written and the file holds \(size); the \(size) bytes it holds were read")
            readable = size
        }
        var symbols = SymbolTable()
        var fromFile = 0
        var lastTimestamp = Int64.min
        var sawLaunch = false
        var staged: StagedOutputFile?
        do throws(TraceError) {
            var reader: BinaryTraceReader?
            if readable > 0 {
                do {
                    reader = try BinaryTraceReader(descriptor: file, name: tracePath, byteLimit: readable, codec: codec)
                } catch let error where error.kind != .io {
                    if readable < size {
                        // A committed length that does not even cover the header is damage to the
                        // region, not to the file: what the file holds is read as far as it is
                        // valid rather than thrown away.
                        lseek(file, 0, SEEK_SET)
                        readable = size
                        reader = try? BinaryTraceReader(descriptor: file, name: tracePath, byteLimit: size, codec: codec)
                    }
                    if reader == nil {
                        losses.append("the trace's first \(readable) bytes have no readable header (\(error.message)); its events are lost")
                    } else {
                        losses.append(
                            "the region says \(committed) bytes of the trace were written, too few for its header (\(error.message)); the file's \(size) bytes were read as far as they are valid")
                    }
                }
            }
            // The sealed trace keeps the trace's mode and, where the process may, its owner: a
            // 0600 trace recovered by root stays 0600 and its owner's.
            let original = file >= 0 ? FileFacts.ownership(of: file) : nil
            let output = try StagedOutputFile(path: tracePath, mode: original?.mode)
            if let original { _ = fchown(output.descriptor, original.owner, original.group) }
            staged = output
            let writer = try TraceWriter(
                fileDescriptor: output.descriptor, name: tracePath,
                metadata: reader?.metadata ?? TraceMetadata([("recorder", "LifetraceRecorder")]), codec: codec)
            if var source = reader {
                while let event = try source.next() {
                    if shouldStop() { throw stopped }
                    try writer.append(event.reinterned(from: source.symbols, into: &symbols), symbols: symbols)
                    lastTimestamp = max(lastTimestamp, event.timestamp)
                    sawLaunch = sawLaunch || event.type == .launch
                    fromFile += 1
                }
                // The stack samples and images the file holds, beside its events.
                try writer.appendSampledStacks(source.sampledStacks)
                if let lost = source.sampledStacks.lostRecords {
                    losses.append("\(lost) were past the reader's limits and are not in the sealed trace")
                }
                // A file this codec cannot read is left as it is, rather than sealed without its events.
                if let unreadable = source.issues.first(where: { $0.kind == .needsLibzstd }) { throw unreadable }
                // What the writer committed ends at a frame, unclosed: anything else is damage.
                let damage = source.issues.filter { !isOpenEnd($0, at: readable, closed: source.summary.isClosed) }
                losses += damage.prefix(listedLosses).map { "\($0.description); what it held is lost" }
                if damage.count > listedLosses { losses.append("and \(damage.count - listedLosses) more problems of the file") }
            }
            if !sawLaunch, let launch = region.launchTimestamp {
                if TraceTime.contains(launch) {
                    // Killed before the first flush: the launch fact is still only in the region.
                    let payload = EventPayload.launch(
                        reason: .none, background: false, prewarm: false, pid: Int64(region.producerPID))
                    try writer.append(TraceEvent(timestamp: launch, payload: payload, stream: .system), symbols: symbols)
                    lastTimestamp = max(lastTimestamp, launch)
                } else {
                    losses.append("the process's start time in the region, \(launch) ns, is outside ±2^60 ns; no launch was written")
                }
            }
            let pump = AppStreamPump(
                region: region, defersCommit: true, resuming: true, notBefore: lastTimestamp, givesUpOnDamage: true)
            var fromRegion = 0
            if shouldStop() { throw stopped }
            if let hollow = hollowRings(region, path: regionPath(forTrace: tracePath)) {
                // Checked before a slot is read: a sparse file claiming full rings would make the
                // drain read gigabytes of holes (memory and time that grow with the claim).
                losses.append(hollow)
            } else {
                fromRegion = try pump.pumpMerged(into: writer, symbols: &symbols)
            }
            if fromRegion > 0 { lastTimestamp = max(lastTimestamp, pump.drainer.latestTimestamp) }
            if pump.drainer.gaveUp, let read = pump.drainer.slotsRead {
                // Reported early: a region of garbage is not read to its last claimed slot.
                losses.append(
                    "the region's slots are mostly not events (\(read.invalid) of the \(read.valid + read.invalid) read were invalid); its other \(pump.drainer.unreadSlots) slots were not read")
            }
            if pump.rejectedCount > 0 {
                losses.append(
                    "\(pump.rejectedCount) records in the region cannot be events (an unknown or system type, a time outside ±2^60 ns, or a name the region does not hold) and were dropped; a dropped event counts them")
            }
            var fact = region.exitFact
            if let damage = region.exitFactDamage {
                losses.append(damage + "; the exit is inferred")
            }
            if let stored = fact, !TraceTime.contains(stored.timestamp) {
                losses.append("the exit the process stored is stamped \(stored.timestamp) ns, outside ±2^60 ns; the exit is inferred")
                fact = nil
            }
            writer.marksDataLost = !losses.isEmpty
            if lastTimestamp == .min {
                guard !losses.isEmpty else {
                    // Killed while the recorder started: nothing was recorded, there is nothing to
                    // seal; an empty file the writer had just made (no header yet) goes with its
                    // region rather than stay an input that is not a trace.
                    output.discard()
                    if file >= 0 && size == 0 { _ = unlink(tracePath) }
                    return .nothingToRecover
                }
            } else {
                let payload: EventPayload
                let exitTime: Int64
                switch fact {
                case .code(let code, let at)?: (payload, exitTime) = (.exit(code: code, signal: nil), at)
                case .signal(let signal, let at)?: (payload, exitTime) = (.exit(code: nil, signal: signal), at)
                case nil: (payload, exitTime) = (.exit(code: nil, signal: nil), lastTimestamp)
                }
                try writer.append(
                    TraceEvent(timestamp: max(exitTime, lastTimestamp), payload: payload, stream: .system), symbols: symbols)
            }
            try writer.close()
            try output.commit()
            return .sealed(fromFile: fromFile, fromRegion: fromRegion, inferredExit: fact == nil, losses: losses)
        } catch {
            staged?.discard()
            if error == stopped { throw RecoveryError(.stopped, path: tracePath, detail: "left as it was") }
            throw RecoveryError(.writeFailed, path: tracePath, detail: error.description)
        }
    }

    /// Thrown inside ``seal(tracePath:region:codec:shouldStop:)`` when it is told to stop.
    private static let stopped = TraceError(.io, file: "", "recovery stopped")

    /// Why the rings of `region` (the file at `path`) cannot hold what they claim, or nil: the
    /// slots the rings say are pending take more bytes than the file has allocated (a recorder
    /// writes every slot it publishes, so a file whose claimed slots lie in holes is damage).
    static func hollowRings(_ region: RecorderRegion, path: String) -> String? {
        guard let allocated = FileFacts.allocatedBytes(path: path) else { return nil }
        let capacity = UInt64(region.layout.ringCapacity)
        var claimed: Int64 = 0
        for ring in 0..<region.layout.ringCount {
            let head = region.ringAtomic(ring, RegionField.ringHead).load(ordering: .acquiring)
            let tail = region.ringAtomic(ring, RegionField.ringTail).load(ordering: .relaxed)
            claimed += Int64(min(head &- tail, capacity)) * Int64(RegionLayout.slotSize)
        }
        guard claimed > allocated else { return nil }
        return "the region's rings claim \(claimed) bytes of records and its file has \(allocated) bytes allocated (a sparse file); its records were not read"
    }

    /// Whether `issue` only says that the part read ends, unclosed, at a frame boundary at
    /// `length`: the state a killed writer leaves below its committed length.
    private static func isOpenEnd(_ issue: TraceError, at length: Int64, closed: Bool) -> Bool {
        !closed && issue.isNotClosed && issue.location == .byte(length, chunk: nil)
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
        /// The trace path is a symbolic link or not a regular file: nothing is written through it.
        case notARegularTrace = "will not recover"
        /// The sealed trace could not be written.
        case writeFailed = "cannot write the recovered trace"
        /// Another process holds the region's recovery lock: it is recovering the trace.
        case beingRecovered = "cannot recover a trace that another process is recovering"
        /// The recovery was told to stop (its process is exiting); the trace and region are as they were.
        case stopped = "stopped recovering"
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
