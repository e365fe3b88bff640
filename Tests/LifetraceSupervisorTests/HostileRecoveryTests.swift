import Foundation
import LifetraceFormat
@testable import LifetraceRecorder
import LifetraceTestSupport
import LifetraceZstd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `lifetrace recover`, the recorder's start-up recovery and `lifetrace record` against a hostile
/// or broken region and app (docs/RELIABILITY.md, "Regions, recovery and the app"): no trap, no
/// SIGBUS, nothing written through a link, no input overwritten, and no damage passed off as a
/// trace read whole.
@Suite struct HostileRecoveryTests {
    /// How a child process ended, and what it printed.
    struct Run {
        var status: Int32
        var signalled: Bool
        var output: String
        var error: String
        var pid: Int32 = 0
    }

    /// Runs `executable` with `arguments`; output and errors through files (no pipe to fill).
    static func run(_ executable: String, _ arguments: [String], in directory: String) throws -> Run {
        let out = directory + "/.stdout", err = directory + "/.stderr"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: out); try? FileManager.default.removeItem(atPath: err) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        func text(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }
        return Run(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            output: text(out), error: text(err), pid: process.processIdentifier)
    }

    static func lifetrace(_ arguments: [String], in directory: String) throws -> Run {
        try run(BuiltProducts.path("lifetrace"), arguments, in: directory)
    }

    /// Stores a 64-bit word into `region`'s shared memory, as a hostile or broken process would.
    static func store(_ value: UInt64, in region: RecorderRegion, at offset: Int) {
        region.base.storeBytes(of: value, toByteOffset: offset, as: UInt64.self)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func size(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? -1
    }

    static func listing(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { !$0.hasPrefix(".std") }.sorted()
    }

    /// A region beside `trace` as a killed standalone recorder leaves it: no live process, the
    /// trace's first `committed` bytes committed. `record` is given a recorder to record with.
    @discardableResult
    static func leftoverRegion(
        beside trace: String, committed: Int64, record: (Recorder) -> Void = { _ in }
    ) throws -> RecorderRegion {
        let region = try RecorderRegion.create(
            path: TraceRecovery.regionPath(forTrace: trace), layout: RegionLayout(ringCount: 4, ringCapacity: 256, symbolCapacity: 64))
        record(Recorder(region: region))
        region.setProducerPID(0)
        region.setCommittedLength(committed)
        return region
    }

    /// A closed trace of `events` synthesized events, of several chunks.
    static func synthesized(_ path: String, events: Int, in directory: String) throws {
        let made = try lifetrace(["synth", "--events", "\(events)", "--seed", "3", "-o", path], in: directory)
        #expect(made.status == 0, "\(made.error)")
    }

    /// A 4 KiB file with a region's magic and version whose header claims `capacity` slots a ring.
    static func hostileRegionFile(_ path: String, capacity: UInt32) throws {
        var header = [UInt8](repeating: 0, count: 4096)
        func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
            withUnsafeBytes(of: value.littleEndian) { header.replaceSubrange(offset..<(offset + $0.count), with: $0) }
        }
        put(RegionField.magicValue, at: RegionField.magic)
        put(RegionField.versionValue, at: RegionField.version)
        put(UInt32(1), at: RegionField.ringCount)
        put(capacity, at: RegionField.ringCapacity)
        put(UInt32(1), at: RegionField.symbolCapacity)
        try Data(header).write(to: URL(fileURLWithPath: path))
    }

    // MARK: Region header

    @Test("a 4 KiB region whose header claims 2^25 slots a ring is refused with one line, and nothing traps")
    func hugeRingCapacity() throws {
        let directory = try ScratchDirectory.make("huge-capacity")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let region = TraceRecovery.regionPath(forTrace: directory + "/x.ltrace")
        try Self.hostileRegionFile(region, capacity: 1 << 25)
        #expect(throws: RecorderError.self) { try RecorderRegion.attach(path: region) }
        let recover = try Self.lifetrace(["recover", directory + "/x.ltrace"], in: directory)
        #expect(!recover.signalled && recover.status == 2, "\(recover.error)")
        #expect(recover.error == "lifetrace: cannot read the recorder region \(region): not a recorder region \(region): ringCapacity 33554432 is outside the powers of two up to 2^24\n")
        // A region it cannot read is left as it is.
        #expect(FileManager.default.fileExists(atPath: region))
    }

    @Test("a self-recording app starts beside a hostile leftover region, leaves it alone and says so")
    func appStartsBesideAHostileRegion() throws {
        let directory = try ScratchDirectory.make("hostile-leftover")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let leftover = TraceRecovery.regionPath(forTrace: directory + "/old.ltrace")
        try Self.hostileRegionFile(leftover, capacity: 1 << 25)
        let probe = try StandaloneProbe(in: directory)
        let process = probe.process
        let started = process.isRunning
        // The leftovers are recovered on the recorder's own thread once it records: wait for its line.
        let deadline = Date().addingTimeInterval(300)  // a bound against a hang, not a measurement
        while process.isRunning && Date() < deadline
            && !probe.errorText.contains("cannot read the recorder region")
        {
            usleep(5_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(started, "the probe ended with status \(process.terminationStatus)")
        #expect(FileManager.default.fileExists(atPath: leftover))
        let said = probe.errorText
        #expect(said.contains("lifetrace recorder: cannot read the recorder region \(leftover): not a recorder region"), "\(said)")
    }

    // MARK: A hostile app under record

    /// A scenario that launches the app and gives it one second to answer.
    static let launchOnly = "timeouts:\n  launch: 1s\nsteps:\n  - launch: foreground\n"

    /// Shell commands writing the little-endian `value` at byte `offset` of the app's region.
    static func poke(_ value: UInt64, at offset: Int) -> String {
        let escaped = withUnsafeBytes(of: value.littleEndian) { $0.map { "\\\(String($0, radix: 8))" }.joined() }
        return "printf '\(escaped)' | dd of=\"$LIFETRACE_REGION\" bs=1 seek=\(offset) conv=notrunc status=none; "
    }

    /// Runs `record` on a shell app running `script`; returns the run and the trace's path.
    static func recordShellApp(_ script: String, in directory: String) throws -> (Run, String) {
        let scenario = directory + "/s.yaml"
        try launchOnly.write(toFile: scenario, atomically: true, encoding: .utf8)
        let trace = directory + "/run.ltrace"
        let run = try lifetrace(["record", "-o", trace, "--scenario", scenario, "--", "/bin/sh", "-c", script], in: directory)
        return (run, trace)
    }

    @Test("drop counters at Int64.max: no overflow in the pump, the counts saturate and are reported")
    func dropCountersAtInt64Max() throws {
        let directory = try ScratchDirectory.make("max-drops")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let layout = RegionLayout()
        var script = ""
        for ring in 0..<2 {
            script += Self.poke(UInt64(Int64.max), at: layout.ringHeaderOffset(ring) + RegionField.ringDropped)
            script += Self.poke(RingState.owned.rawValue, at: layout.ringHeaderOffset(ring) + RegionField.ringState)
        }
        let (run, trace) = try Self.recordShellApp(script + "exec sleep 30", in: directory)
        #expect(!run.signalled && run.status == 5, "\(run.status): \(run.error)")
        #expect(run.error.contains("lifetrace: warning: the app's recorder lost 9223372036854775807 events"), "\(run.error)")
        let dump = try Self.lifetrace(["dump", trace], in: directory)
        #expect(dump.status == 0, "\(dump.error)")
        #expect(dump.output.components(separatedBy: "\"type\":\"dropped\",\"count\":9223372036854775807").count == 3, "\(dump.output)")
    }

    @Test("record: an app's slot stamped 2^62 is dropped and counted, the app's events stay readable, and the trace is marked as missing data")
    func recordRangeChecksTheRegion() throws {
        let directory = try ScratchDirectory.make("record-range")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let layout = RegionLayout()
        let slot = layout.slotsOffset(ring: 0)
        let script = Self.poke(UInt64(1) << 62, at: slot + RegionField.slotTimestamp)
            + Self.poke(UInt64(EventType.mark.rawValue), at: slot + RegionField.slotType)
            + Self.poke(RingState.owned.rawValue, at: layout.ringHeaderOffset(0) + RegionField.ringState)
            + Self.poke(1, at: layout.ringHeaderOffset(0) + RegionField.ringHead)
        let (run, trace) = try Self.recordShellApp(script + "exec sleep 30", in: directory)
        #expect(!run.signalled && run.status == 5, "\(run.status): \(run.error)")
        #expect(run.error.contains("lost 1 events (1 of them records in its region that cannot be events"), "\(run.error)")
        let dump = try Self.lifetrace(["dump", trace], in: directory)
        #expect(dump.output.contains("\"type\":\"dropped\",\"count\":1") && !dump.output.contains("\"type\":\"mark\""), "\(dump.output)")
        let info = try Self.lifetrace(["info", trace], in: directory)
        #expect(info.output.contains("sealed with data missing") && info.output.contains("streams:    system 2, app 1"), "\(info.output)")
        #expect(try Self.lifetrace(["check", trace], in: directory).status == 2)
    }

    @Test("an app that truncates its region: record survives (the region cannot shrink), closes the trace, leaves nothing in /dev/shm")
    func truncatedRegion() throws {
        let directory = try ScratchDirectory.make("truncated-region")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (run, trace) = try Self.recordShellApp(
            "truncate -s 0 \"$LIFETRACE_REGION\" 2>/dev/null; true > \"$LIFETRACE_REGION\" 2>/dev/null; exec sleep 30", in: directory)
        #expect(!run.signalled && run.status == 5, "\(run.signalled ? "signal" : "status") \(run.status): \(run.error)")
        let info = try Self.lifetrace(["info", trace], in: directory)
        #expect(info.output.contains("integrity:  ok, closed"), "\(info.output)")
        // record's regions, where they are files, are named lifetrace-PID-N.
        let left = try FileManager.default.contentsOfDirectory(atPath: "/dev/shm").filter { $0.hasPrefix("lifetrace-\(run.pid)-") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test("the region's slots are range-checked like a file's records: a slot at 2^63 is dropped and counted, later events keep their time")
    func drainedEventsAreRangeChecked() throws {
        let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 4, ringCapacity: 64, symbolCapacity: 16))
        let recorder = Recorder(region: region)
        let pump = AppStreamPump(region: region)
        let sink = TraceEventCollection()
        var symbols = SymbolTable()
        recorder.mark(recorder.name("before"))
        // A hostile slot in ring 3: a mark stamped just below 2^63.
        let slot = region.base + region.layout.slotsOffset(ring: 3)
        slot.storeBytes(of: Int64.max - 1, toByteOffset: RegionField.slotTimestamp, as: Int64.self)
        slot.storeBytes(of: EventType.mark.rawValue, toByteOffset: RegionField.slotType, as: UInt8.self)
        Self.store(RingState.owned.rawValue, in: region, at: region.layout.ringHeaderOffset(3) + RegionField.ringState)
        Self.store(1, in: region, at: region.layout.ringHeaderOffset(3) + RegionField.ringHead)
        // And ring 2 claims a thread number no output can print as a signed integer.
        let other = region.base + region.layout.slotsOffset(ring: 2)
        other.storeBytes(of: MonotonicClock.now(), toByteOffset: RegionField.slotTimestamp, as: Int64.self)
        other.storeBytes(of: EventType.mark.rawValue, toByteOffset: RegionField.slotType, as: UInt8.self)
        Self.store(UInt64.max - 1, in: region, at: region.layout.ringHeaderOffset(2) + RegionField.ringThread)
        Self.store(RingState.owned.rawValue, in: region, at: region.layout.ringHeaderOffset(2) + RegionField.ringState)
        Self.store(1, in: region, at: region.layout.ringHeaderOffset(2) + RegionField.ringHead)
        // And ring 1 holds a slot of type dropped, which only a drainer writes, with a negative count.
        let forged = region.base + region.layout.slotsOffset(ring: 1)
        forged.storeBytes(of: MonotonicClock.now(), toByteOffset: RegionField.slotTimestamp, as: Int64.self)
        forged.storeBytes(of: Int64(-5), toByteOffset: RegionField.slotValue, as: Int64.self)
        forged.storeBytes(of: EventType.dropped.rawValue, toByteOffset: RegionField.slotType, as: UInt8.self)
        forged.storeBytes(of: SlotFlags.hasValue, toByteOffset: RegionField.slotFlags, as: UInt8.self)
        Self.store(5, in: region, at: region.layout.ringHeaderOffset(1) + RegionField.ringThread)
        Self.store(RingState.owned.rawValue, in: region, at: region.layout.ringHeaderOffset(1) + RegionField.ringState)
        Self.store(1, in: region, at: region.layout.ringHeaderOffset(1) + RegionField.ringHead)
        try pump.pump(into: sink, symbols: &symbols)
        recorder.mark(recorder.name("after"))
        try pump.pump(into: sink, symbols: &symbols)
        let events = sink.snapshot.events
        #expect(pump.rejectedCount == 3)
        #expect(events.allSatisfy { TraceTime.contains($0.timestamp) && $0.thread.rawValue <= UInt64(Int64.max) }, "\(events)")
        #expect(events.filter { $0.payload == .dropped(count: 1) }.count == 3)
        #expect(!events.contains { if case .dropped(let count) = $0.payload { count < 0 } else { false } })
        #expect(pump.clampedCount == 0)
        let marks = events.filter { $0.type == .mark }
        #expect(marks.count == 2 && marks[0].timestamp <= marks[1].timestamp && marks[1].timestamp < Int64.max / 2)
    }

    @Test("recovery merges the rings as it reads them: the same events as a sorted drain, in order, none clamped")
    func mergedDrainMatchesSortedDrain() throws {
        let region = try RecorderRegion.anonymous(layout: RegionLayout(ringCount: 4, ringCapacity: 1024, symbolCapacity: 16))
        let recorder = Recorder(region: region)
        let done = DispatchGroup()
        for index in 0..<3 {
            done.enter()
            Thread.detachNewThread {
                let name = recorder.name("T\(index)")
                for id in 0..<200 { recorder.signpostBegin(name, id: Int64(id)) }
                done.leave()
            }
        }
        done.wait()
        Self.store(7, in: region, at: region.layout.ringHeaderOffset(0) + RegionField.ringDropped)
        var sortedSymbols = SymbolTable(), mergedSymbols = SymbolTable()
        let sorted = TraceEventCollection(), merged = TraceEventCollection()
        let sortedPump = AppStreamPump(region: region, defersCommit: true)
        let mergedPump = AppStreamPump(region: region, defersCommit: true)
        #expect(try sortedPump.pump(into: sorted, symbols: &sortedSymbols) == 601)
        #expect(try mergedPump.pumpMerged(into: merged, symbols: &mergedSymbols) == 601)
        let (a, b) = (sorted.snapshot.events, merged.snapshot.events)
        #expect(mergedPump.clampedCount == 0 && mergedPump.droppedCount == 7)
        #expect(zip(b, b.dropFirst()).allSatisfy { $0.timestamp <= $1.timestamp })
        func key(_ event: TraceEvent) -> String { "\(event.timestamp) \(event.thread) \(event.type)" }
        #expect(a.map(key).sorted() == b.map(key).sorted())
    }

    @Test("recover drops a region's out-of-range records and an exit at Int64.max, says so, and marks the trace")
    func recoverRangeChecksTheRegion() throws {
        let directory = try ScratchDirectory.make("recover-range")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/solo.ltrace"
        let region = try Self.leftoverRegion(beside: trace, committed: 0) { recorder in
            recorder.mark(recorder.name("kept"))
        }
        let slot = region.base + region.layout.slotsOffset(ring: 3)
        slot.storeBytes(of: Int64.max, toByteOffset: RegionField.slotTimestamp, as: Int64.self)
        slot.storeBytes(of: EventType.mark.rawValue, toByteOffset: RegionField.slotType, as: UInt8.self)
        Self.store(RingState.owned.rawValue, in: region, at: region.layout.ringHeaderOffset(3) + RegionField.ringState)
        Self.store(1, in: region, at: region.layout.ringHeaderOffset(3) + RegionField.ringHead)
        Self.store(0, in: region, at: RegionField.exitValue)
        Self.store(UInt64(Int64.max), in: region, at: RegionField.exitTimestamp)
        Self.store(1, in: region, at: RegionField.exitKind)
        let recover = try Self.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 3, "\(recover.error)")
        #expect(recover.output.hasPrefix("\(trace): sealed with data missing: 0 events were in the file, 2 recovered from the region"), "\(recover.output)")
        #expect(recover.error.contains("lost: 1 records in the region cannot be events"), "\(recover.error)")
        #expect(recover.error.contains("lost: the exit the process stored is stamped 9223372036854775807 ns"), "\(recover.error)")
        let dump = try Self.lifetrace(["dump", trace], in: directory)
        // Printed whole; sealed with data missing, it is a damaged input (exit 2, docs/CLI.md).
        #expect(dump.status == 2 && dump.output.contains("\"name\":\"kept\"") && dump.output.contains("\"type\":\"dropped\",\"count\":1"), "\(dump.output)")
        #expect(dump.error.contains("sealed with data missing"), "\(dump.error)")
        #expect(try Self.lifetrace(["check", trace], in: directory).status == 2)
    }

    @Test("recover of a trace whose stack samples pass the reader's limits names them and seals the trace with data missing")
    func recoverSaysWhatTheLimitsKeptOut() throws {
        let directory = try ScratchDirectory.make("recover-limits")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/frames.ltrace"
        try HostileStackTraces.distinctFrames(path: trace)
        try Self.leftoverRegion(beside: trace, committed: Self.size(trace))
        let recover = try Self.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 3, "\(recover.error)")
        #expect(recover.error.contains(
            "lost: 3744 stack samples (a reader keeps \(SampledStacks.maxSamples) samples and \(SampledStacks.maxNodes) distinct frames of a trace) were past the reader's limits and are not in the sealed trace"),
            "\(recover.error)")
        #expect(try Self.lifetrace(["check", trace], in: directory).status == 2)
    }

    // MARK: Links and temporary files

    @Test("recover never writes through a link planted at a temporary name, and refuses a trace path that is a link")
    func plantedSymlinks() throws {
        let directory = try ScratchDirectory.make("recover-links")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/t.ltrace"
        try Self.synthesized(trace, events: 2000, in: directory)
        try Self.leftoverRegion(beside: trace, committed: Self.size(trace))
        let victim = directory + "/victim"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        for name in ["t.ltrace.recovering", ".t.ltrace.recovering", "t.ltrace.tmp"] {
            try FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: victim)
        }
        let recover = try Self.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 0, "\(recover.error)")
        #expect(Self.bytes(victim) == Data("precious\n".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/t.ltrace.recovering") == victim)
        #expect((try FileManager.default.attributesOfItem(atPath: trace))[.type] as? FileAttributeType == .typeRegular)

        // A trace path that is itself a link: refused, the link, its target and the region kept.
        let real = directory + "/real.ltrace"
        try Self.synthesized(real, events: 500, in: directory)
        let link = directory + "/link.ltrace"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        try Self.leftoverRegion(beside: link, committed: Self.size(real))
        let original = Self.bytes(real)
        let refused = try Self.lifetrace(["recover", link], in: directory)
        #expect(refused.status == 2)
        #expect(refused.error == "lifetrace: will not recover \(link): a symbolic link; recover the trace at the path it names (the recorder writes no links)\n")
        #expect(Self.bytes(real) == original)
        #expect(FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: link)))
        // A region that is a link is not followed either.
        let other = directory + "/other.ltrace"
        try FileManager.default.createSymbolicLink(atPath: TraceRecovery.regionPath(forTrace: other), withDestinationPath: victim)
        let linkedRegion = try Self.lifetrace(["recover", other], in: directory)
        #expect(linkedRegion.status == 2 && linkedRegion.error.contains("a symbolic link, not a region"), "\(linkedRegion.error)")
        #expect(Self.bytes(victim) == Data("precious\n".utf8))
    }

    // MARK: Damage is reported

    @Test("a chunk that fails its checksum: recover seals what it can, exits 3, and the trace says it is missing data")
    func damagedChunk() throws {
        let directory = try ScratchDirectory.make("recover-damage")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/t.ltrace"
        try Self.synthesized(trace, events: 20000, in: directory)
        let size = Self.size(trace)
        var bytes = try #require(Self.bytes(trace))
        bytes[Int(size / 2)] ^= 0x55
        try bytes.write(to: URL(fileURLWithPath: trace))
        try Self.leftoverRegion(beside: trace, committed: size)
        let recover = try Self.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 3, "\(recover.output) \(recover.error)")
        #expect(recover.output.contains("sealed with data missing"))
        #expect(recover.error.contains("lost: \(trace): byte "), "\(recover.error)")
        let info = try Self.lifetrace(["info", trace], in: directory)
        #expect(!info.output.contains("integrity:  ok"), "\(info.output)")
        #expect(info.output.contains("sealed with data missing"), "\(info.output)")
        #expect(try Self.lifetrace(["check", trace], in: directory).status == 2)
    }

    @Test("a committed length below the header, or past the file's end: reported as loss, the file never cut or extended")
    func committedLengths() throws {
        let directory = try ScratchDirectory.make("recover-committed")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, committed) in [("short", Int64(10)), ("long", Int64(-1))] {
            let trace = directory + "/\(name).ltrace"
            try Self.synthesized(trace, events: 300, in: directory)
            let size = Self.size(trace)
            try Self.leftoverRegion(beside: trace, committed: committed < 0 ? size + 4096 : committed) { recorder in
                recorder.mark(recorder.name("late"))
            }
            let recover = try Self.lifetrace(["recover", trace], in: directory)
            #expect(recover.status == 3, "\(name): \(recover.output) \(recover.error)")
            if committed < 0 {
                #expect(recover.error.contains("lost: the region says \(size + 4096) bytes of the trace were written and the file holds \(size)"), "\(recover.error)")
            } else {
                // The file is read as far as it is valid: its events are kept, the damage reported.
                #expect(recover.error.contains("lost: the region says 10 bytes of the trace were written, too few for its header"), "\(recover.error)")
            }
            #expect(try Self.lifetrace(["check", trace], in: directory).status == 2, "\(name)")
            #expect(!(try Self.lifetrace(["info", trace], in: directory)).output.contains("integrity:  ok"), "\(name)")
        }
    }

    @Test("SIGTERM during recover removes its temporary file and leaves the trace and the region as they were")
    func signalDuringRecover() throws {
        let directory = try ScratchDirectory.make("recover-signal")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/big.ltrace"
        try Self.synthesized(trace, events: 3_000_000, in: directory)
        try Self.leftoverRegion(beside: trace, committed: Self.size(trace))
        let original = Self.bytes(trace)
        let before = try Self.listing(directory)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("lifetrace"))
        process.arguments = ["recover", trace]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Signalled once its temporary file exists, while it copies the events.
        while try process.isRunning && Self.listing(directory) == before { usleep(2_000) }
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
        #expect(try Self.listing(directory) == before)
        #expect(Self.bytes(trace) == original)
    }

    // MARK: record's output

    @Test("record -o naming the scenario or the app is refused before anything is written; a failed launch keeps the trace at -o")
    func recordKeepsItsInputs() throws {
        let directory = try ScratchDirectory.make("record-inputs")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scenario = directory + "/sc.yaml"
        try Self.launchOnly.write(toFile: scenario, atomically: true, encoding: .utf8)
        let scenarioBytes = Self.bytes(scenario)
        let overScenario = try Self.lifetrace(["record", "-o", scenario, "--scenario", scenario, "--", "/bin/true"], in: directory)
        #expect(overScenario.status == 2 && overScenario.error.contains("the output is also an input"), "\(overScenario.error)")
        #expect(Self.bytes(scenario) == scenarioBytes)

        let app = directory + "/App"
        try FileManager.default.copyItem(atPath: "/bin/true", toPath: app)
        let appBytes = Self.bytes(app)
        let overApp = try Self.lifetrace(["record", "-o", app, "--", app], in: directory)
        #expect(overApp.status == 2 && overApp.error.contains("the output is also an input"), "\(overApp.error)")
        #expect(Self.bytes(app) == appBytes)

        let previous = directory + "/prev.ltrace"
        try Self.synthesized(previous, events: 100, in: directory)
        let previousBytes = Self.bytes(previous)
        let missing = try Self.lifetrace(["record", "-o", previous, "--", directory + "/nonexistent"], in: directory)
        #expect(missing.status == 8, "\(missing.error)")
        #expect(Self.bytes(previous) == previousBytes)
        #expect(try Self.listing(directory) == ["App", "prev.ltrace", "sc.yaml"])
    }

    @Test("record that cannot write its trace (exit 7) leaves no 0-byte trace and the previous file untouched")
    func recordOnAFullDisk() throws {
        let directory = try ScratchDirectory.make("record-full")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let previous = directory + "/prev.ltrace"
        try Self.synthesized(previous, events: 100, in: directory)
        let previousBytes = Self.bytes(previous)
        // A file size limit of 0 stands for a full disk: every write fails (EFBIG; SIGXFSZ ignored).
        let lifetrace = BuiltProducts.path("lifetrace")
        for output in [directory + "/new.ltrace", previous] {
            // Its messages go through a pipe, which the limit does not cover.
            let run = try Self.run(
                "/bin/sh",
                ["-c", "( ulimit -f 0; trap '' XFSZ; \"$0\" record -o \"$1\" -- /bin/true 2>&1; echo \"status $?\" ) | cat", lifetrace, output],
                in: directory)
            #expect(run.output.hasSuffix("cannot write: File too large\nstatus 7\n"), "\(run.output)")
        }
        #expect(Self.bytes(previous) == previousBytes)
        #expect(try Self.listing(directory) == ["prev.ltrace"])
        // With its standard error on the same full disk it still ends with its own exit code.
        let silent = try Self.run(
            "/bin/sh",
            ["-c", "( ulimit -f 0; trap '' XFSZ; \"$0\" record -o \"$1\" -- /bin/true 2>\"$1.err\"; echo \"status $?\" ) | cat",
             lifetrace, directory + "/new.ltrace"],
            in: directory)
        #expect(silent.output == "status 7\n", "\(silent.output)")
        #expect(Self.size(directory + "/new.ltrace.err") == 0)
        try FileManager.default.removeItem(atPath: directory + "/new.ltrace.err")
        #expect(try Self.listing(directory) == ["prev.ltrace"])
    }
}
