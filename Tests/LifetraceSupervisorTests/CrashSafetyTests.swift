import Atomics
import Foundation
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd
import LifetraceRecorder
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SIGKILL at random points: the trace holds every event whose record call returned.
@Suite struct CrashSafetyTests {
    /// What a probe run left: the trace's signposts per thread name, drops, and the probe's counts.
    struct ProbeRun {
        var ids: [String: [Int64]] = [:]
        var dropped: Int64 = 0
        var reported: [UInt64] = []
        var issues: [TraceError] = []
    }

    static let threads = 2
    /// Kills per test run: 50, or `LIFETRACE_SOAK_RUNS` (scripts/recorder-soak.sh sets it).
    static let runs = ProcessInfo.processInfo.environment["LIFETRACE_SOAK_RUNS"].flatMap(Int.init) ?? 50

    @Test func supervisedProbeKilledAtRandomPointsLosesNothing() throws {
        var generator = SystemRandomNumberGenerator()
        var runsWithEvents = 0
        for run in 0..<Self.runs {
            // One kill in five during start-up; the others at a random point after the probe's first
            // published record, since a busy machine can take long to start it.
            let duringStartUp = run % 5 == 0
            let delay = UInt32.random(in: duringStartUp ? 2_000...60_000 : 0...80_000, using: &generator)
            let result = try supervisedRun(killAfter: delay, fromFirstRecord: !duringStartUp, tag: run)
            #expect(result.issues.isEmpty, "run \(run): \(result.issues)")
            for thread in 0..<Self.threads {
                let ids = result.ids["Probe\(thread)"] ?? []
                let reported = Int64(result.reported[thread])
                // Increasing ids, each once: nothing repeated, nothing invented. A ring that was full
                // while the drain lagged leaves a gap, which a `dropped` event must account for.
                #expect(zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }, "run \(run): thread \(thread)")
                #expect((ids.last ?? 0) - Int64(ids.count) <= result.dropped, "run \(run): thread \(thread) has gaps beyond the \(result.dropped) dropped")
                #expect(Int64(ids.count) + result.dropped >= reported, "run \(run): thread \(thread) reported \(reported), trace holds \(ids.count)")
            }
            if result.reported.contains(where: { $0 > 0 }) { runsWithEvents += 1 }
        }
        // Most kills land while the probe records, not before it started.
        #expect(runsWithEvents >= Self.runs / 2, "only \(runsWithEvents) of \(Self.runs) runs recorded anything")
    }

    @Test func standaloneRecorderKilledMidWriteLeavesAReadableFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for run in 0..<3 {
            let trace = directory.appendingPathComponent("standalone-\(run).ltrace").path
            let countFile = directory.appendingPathComponent("counts-\(run)").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
            process.arguments = [countFile, String(Self.threads), "--standalone", trace]
            try process.run()
            // Kill only once every thread is recording: a slow start is not a lost event.
            let startDeadline = Date().addingTimeInterval(30)
            while Self.readCounts(countFile).contains(0), Date() < startDeadline { usleep(5_000) }
            // What the probe had recorded at a random moment must reach the file while the probe
            // goes on recording: the writer flushes on its own. The kill comes once it is there,
            // read from the file as it grows; the deadline only keeps a writer that never flushes
            // from hanging the test (the expectation below then fails), it measures nothing.
            usleep(UInt32.random(in: 50_000...150_000))
            let before = Self.readCounts(countFile)
            let flushDeadline = Date().addingTimeInterval(30)
            while !Self.lastIDs(inFile: trace).reaches(before), Date() < flushDeadline { usleep(5_000) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)

            var reader = try BinaryTraceReader(path: trace)
            var lastID: [ThreadID: Int64] = [:]
            var gaps: [ThreadID: Int64] = [:]
            var dropped: [ThreadID: Int64] = [:]
            var increasing = true
            while let event = try reader.next() {
                switch event.payload {
                case .signpostBegin(_, let id?):
                    let previous = lastID[event.thread] ?? 0
                    increasing = increasing && id > previous
                    gaps[event.thread, default: 0] += id - previous - 1
                    lastID[event.thread] = id
                case .dropped(let count):
                    dropped[event.thread, default: 0] += count
                default:
                    break
                }
            }
            #expect(increasing)
            // A full ring drops events; every gap in the ids is a counted drop.
            for (thread, gap) in gaps { #expect(gap <= dropped[thread] ?? 0, "thread \(thread): \(gap) missing, \(dropped[thread] ?? 0) dropped") }
            #expect(lastID.count == Self.threads)
            // Each thread's ids run 1, 2, 3, ... with counted drops only; the file reaches at
            // least the count published a second before the kill.
            let reached = lastID.values.sorted()
            #expect(reached.reaches(before), "file reaches \(reached), before the kill the probe had \(before.sorted())")
            #expect(reader.issues.allSatisfy { $0.description.contains("not closed") || $0.description.contains("truncated") }, "\(reader.issues)")
        }
    }

    @Test func standaloneProbeKilledAtRandomPointsLosesNothingAfterRecovery() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("solo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SystemRandomNumberGenerator()
        var runsWithEvents = 0
        for run in 0..<Self.runs {
            let trace = directory.appendingPathComponent("solo-\(run).ltrace").path
            let countFile = directory.appendingPathComponent("counts-\(run)").path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
            // Odd runs write raw blocks, as on a device without libzstd, and are recovered the way
            // the recorder's next start does, without libzstd; even runs compress with libzstd and
            // are recovered as `lifetrace recover` does.
            let rawBlocks = run % 2 == 1
            process.arguments = [countFile, String(Self.threads), "--standalone", trace] + (rawBlocks ? ["--raw-blocks"] : [])
            try process.run()
            if run % 5 == 0 {
                // During start-up: before the first record, even before the region exists.
                usleep(UInt32.random(in: 2_000...60_000, using: &generator))
            } else {
                // While it records: a busy machine can take long to start the probe, so the random
                // point is counted from its first published record.
                let deadline = Date().addingTimeInterval(30)
                while Self.readCounts(countFile).allSatisfy({ $0 == 0 }), Date() < deadline { usleep(1_000) }
                usleep(UInt32.random(in: 0...100_000, using: &generator))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let reported = Self.readCounts(countFile)
            let codec: any TraceCodec = rawBlocks ? RawBlockCodec() : ZstdCodec()
            let outcome = try TraceRecovery.recover(tracePath: trace, codec: codec)
            guard case .sealed(_, _, let inferredExit, _) = outcome else {
                // Killed before the recorder created its region: nothing was recorded.
                #expect(reported.allSatisfy { $0 == 0 }, "run \(run): no region, yet the probe reported \(reported)")
                continue
            }
            #expect(inferredExit)
            #expect(access(TraceRecovery.regionPath(forTrace: trace), F_OK) != 0, "run \(run): the region is left")
            let recorded = try RecordedTrace(path: trace)
            #expect(recorded.issues.isEmpty, "run \(run): \(recorded.issues)")
            #expect(recorded.events.first?.type == .launch, "run \(run)")
            #expect(recorded.events.last?.payload == .exit(code: nil, signal: nil), "run \(run)")
            var ids: [String: [Int64]] = [:]
            var dropped: Int64 = 0
            for event in recorded.events {
                switch event.payload {
                case .signpostBegin(let name, let id): ids[recorded.symbols[name], default: []].append(id ?? 0)
                case .dropped(let count): dropped += count
                default: break
                }
            }
            for thread in 0..<Self.threads {
                let threadIDs = ids["Probe\(thread)"] ?? []
                // Increasing ids, each once: nothing repeated, nothing invented.
                #expect(zip(threadIDs, threadIDs.dropFirst()).allSatisfy { $0 < $1 }, "run \(run): thread \(thread)")
                #expect(
                    Int64(threadIDs.count) + dropped >= Int64(reported[thread]),
                    "run \(run): thread \(thread) reported \(reported[thread]), the trace holds \(threadIDs.count), \(dropped) dropped")
            }
            if reported.contains(where: { $0 > 0 }) { runsWithEvents += 1 }
            // Recovering again changes nothing.
            #expect(try TraceRecovery.recover(tracePath: trace, codec: codec) == .nothingToRecover)
        }
        #expect(runsWithEvents >= Self.runs / 2, "only \(runsWithEvents) of \(Self.runs) runs recorded anything")
    }

    /// The last signpost id of each thread in a trace still being written, smallest first.
    static func lastIDs(inFile path: String) -> [Int64] {
        var last: [ThreadID: Int64] = [:]
        for event in RecordedTrace(readableSoFar: path).events {
            if case .signpostBegin(_, let id?) = event.payload { last[event.thread] = id }
        }
        return last.values.sorted()
    }

    @Test func recoveryWithoutLibzstdLeavesACompressedTraceAsItIs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nolib-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("solo.ltrace").path
        let countFile = directory.appendingPathComponent("counts").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
        // Compressed with libzstd (the probe's default); killed once a flush has written chunks.
        process.arguments = [countFile, String(Self.threads), "--standalone", trace]
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Self.readCounts(countFile).allSatisfy({ $0 < 2_000 }), Date() < deadline { usleep(1_000) }
        // Killed once the writer has put a chunk of events in the file.
        while RecordedTrace(readableSoFar: trace).events.count == 0, Date() < deadline { usleep(5_000) }
        #expect(RecordedTrace(readableSoFar: trace).events.count > 0)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        // What a recorder without libzstd does at its next start: it cannot read the chunks, so it
        // refuses, in one line, and changes nothing.
        #expect(throws: RecoveryError.self) { try TraceRecovery.recover(tracePath: trace, codec: RawBlockCodec()) }
        do {
            _ = try TraceRecovery.recover(tracePath: trace, codec: RawBlockCodec())
        } catch {
            #expect(error.description.contains("chunk compressed with libzstd, which this reader does not link"))
            #expect(!error.description.contains("\n"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
        #expect(access(TraceRecovery.regionPath(forTrace: trace), F_OK) == 0, "the region is kept for a later recovery")
        // `lifetrace recover`, with libzstd, seals it.
        guard case .sealed(let fromFile, _, _, _) = try TraceRecovery.recover(tracePath: trace, codec: ZstdCodec()) else {
            Issue.record("not sealed")
            return
        }
        #expect(fromFile > 0)
    }

    @Test func aCrashLeavesASealedTraceEndingInExitWithTheSignal() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("crash.ltrace").path
        let countFile = directory.appendingPathComponent("counts").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
        process.arguments = [countFile, "1", "--standalone", trace, "--crash-after", "5000"]
        // Without the Swift runtime's backtracer, whose helper process outlives the crash and
        // keeps the pipe Foundation watches for the child's end open for up to its timeout.
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        try process.run()
        process.waitUntilExit()
        // The handler hands the signal on: the process still dies of it.
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGSEGV)

        let recorded = try RecordedTrace(path: trace)
        #expect(recorded.issues.isEmpty, "\(recorded.issues)")
        #expect(recorded.events.first?.type == .launch)
        #expect(recorded.events.last?.payload == .exit(code: nil, signal: SIGSEGV))
        // Every record call that returned before the crash is in the sealed trace.
        let ids = recorded.events.compactMap { event -> Int64? in
            if case .signpostBegin(_, let id) = event.payload { return id }
            return nil
        }
        let dropped = recorded.events.reduce(Int64(0)) { total, event in
            if case .dropped(let count) = event.payload { return total + count }
            return total
        }
        #expect(Int64(ids.count) + dropped >= Int64(Self.readCounts(countFile)[0]))
        #expect(ids.last == 5000)
    }

    /// The counts the probe published in `path`, one per thread (0 before it published any).
    static func readCounts(_ path: String) -> [UInt64] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return Array(repeating: 0, count: threads) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 64 * threads)
        _ = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return (0..<threads).map { thread in bytes.withUnsafeBytes { $0.load(fromByteOffset: thread * 64, as: UInt64.self) } }
    }

    /// Runs the probe under a region it drains (as the supervisor does), kills it after `delay`
    /// microseconds, drains the rest, writes and reads back a binary trace.
    private func supervisedRun(killAfter delay: UInt32, fromFirstRecord: Bool, tag: Int) throws -> ProbeRun {
        let directory = FileManager.default.temporaryDirectory
        let regionPath = "/dev/shm/lifetrace-probe-\(getpid())-\(tag)-\(UUID().uuidString.prefix(8))"
        let countFile = directory.appendingPathComponent("probe-counts-\(UUID().uuidString)").path
        let tracePath = directory.appendingPathComponent("probe-\(UUID().uuidString).ltrace").path
        defer {
            unlink(regionPath)
            unlink(countFile)
            unlink(tracePath)
        }
        let region = try RecorderRegion.create(path: regionPath, layout: RegionLayout(ringCount: 4, ringCapacity: 16_384))
        let writer = try TraceWriter(path: tracePath, metadata: TraceMetadata([("test", "crash-safety")]))
        let pump = AppStreamPump(region: region)
        var symbols = SymbolTable()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
        process.arguments = [countFile, String(Self.threads)]
        process.environment = ProcessInfo.processInfo.environment.merging([RecorderRegion.environmentKey: regionPath]) { $1 }
        try process.run()
        let clock = ContinuousClock()
        if fromFirstRecord {
            let startDeadline = clock.now + .seconds(30)
            while Self.readCounts(countFile).allSatisfy({ $0 == 0 }), clock.now < startDeadline {
                try pump.pump(into: writer, symbols: &symbols)
                usleep(1000)
            }
        }
        let deadline = clock.now + .microseconds(Int64(delay))
        while clock.now < deadline {
            try pump.pump(into: writer, symbols: &symbols)
            usleep(1000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The process is dead; its region and its count file are still readable.
        try pump.pump(into: writer, symbols: &symbols)
        try writer.close()

        var result = ProbeRun()
        result.reported = Self.readCounts(countFile)
        var reader = try BinaryTraceReader(path: tracePath)
        while let event = try reader.next() {
            switch event.payload {
            case .signpostBegin(let name, let id): result.ids[reader.symbols[name], default: []].append(id ?? 0)
            case .dropped(let count): result.dropped += count
            default: break
            }
        }
        result.issues = reader.issues
        return result
    }
}

extension [Int64] {
    /// Whether these last ids per thread (smallest first) reach the probe's published `counts`,
    /// thread by thread in the same order.
    func reaches(_ counts: [UInt64]) -> Bool {
        count == counts.count && zip(self, counts.sorted()).allSatisfy { $0 >= Int64($1) }
    }
}
