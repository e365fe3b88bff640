import Foundation
import LifetraceFormat
@testable import LifetraceRecorder
import LifetraceTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Region damage that must be reported as damage, never passed off as a trace read whole, and
/// outputs that must not land where they should not (docs/RELIABILITY.md, "Regions, recovery and
/// the app").
@Suite struct RegionDamageTests {
    typealias Hostile = HostileRecoveryTests

    /// Puts `count` records of `type` (name `name`, scene `scene`) into ring `ring` of `region`,
    /// the ring in state `state`, head `count`, tail 0.
    static func fill(
        _ region: RecorderRegion, ring: Int, state: UInt64 = RingState.owned.rawValue, count: Int = 1,
        type: EventType = .mark, name: UInt32 = 0, scene: UInt32 = 0, timestamp: Int64 = 5_000_000_000_000
    ) {
        for position in 0..<count {
            let slot = region.base + region.layout.slotsOffset(ring: ring) + position * RegionLayout.slotSize
            slot.storeBytes(of: timestamp + Int64(position), toByteOffset: RegionField.slotTimestamp, as: Int64.self)
            slot.storeBytes(of: name, toByteOffset: RegionField.slotName, as: UInt32.self)
            slot.storeBytes(of: scene, toByteOffset: RegionField.slotScene, as: UInt32.self)
            slot.storeBytes(of: type.rawValue, toByteOffset: RegionField.slotType, as: UInt8.self)
        }
        Hostile.store(state, in: region, at: region.layout.ringHeaderOffset(ring) + RegionField.ringState)
        Hostile.store(UInt64(count), in: region, at: region.layout.ringHeaderOffset(ring) + RegionField.ringHead)
        Hostile.store(0, in: region, at: region.layout.ringHeaderOffset(ring) + RegionField.ringTail)
    }

    @Test("recover drops records whose name the region does not hold or holds in bad UTF-8: counted, reported, exit 3; no invented name")
    func unresolvableNames() throws {
        let directory = try ScratchDirectory.make("region-names")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/solo.ltrace"
        let region = try Hostile.leftoverRegion(beside: trace, committed: 0) { recorder in
            recorder.mark(recorder.name("kept"))
        }
        // Name 2: six bytes that are not UTF-8.
        let symbol = region.base + region.layout.symbolOffset(2)
        symbol.storeBytes(of: UInt64(6), as: UInt64.self)
        for (index, byte) in [UInt8]([0xFF, 0xFE, 0xC0, 0x80, 0x0A]).enumerated() {
            symbol.storeBytes(of: byte, toByteOffset: 8 + index, as: UInt8.self)
        }
        Self.fill(region, ring: 1, name: 0xFFFF_FFF0)
        Self.fill(region, ring: 2, name: 2)
        Self.fill(region, ring: 3, type: .callbackBegin, name: 1, scene: 40)
        let recover = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 3, "\(recover.output) \(recover.error)")
        #expect(recover.error.contains("lost: 3 records in the region cannot be events"), "\(recover.error)")
        let dump = try Hostile.lifetrace(["dump", trace], in: directory)
        // Printed whole; sealed with data missing, it is a damaged input (exit 2, docs/CLI.md).
        #expect(dump.status == 2 && dump.output.contains("\"name\":\"kept\""), "\(dump.output)")
        #expect(!dump.output.contains("#") && !dump.output.contains("\u{FFFD}") && !dump.output.contains("\\ufffd"), "\(dump.output)")
        #expect(try Hostile.lifetrace(["check", trace], in: directory).status == 2)
    }

    @Test("record drops an app's record whose name id the region does not hold, counts it and marks the trace")
    func recordDropsUnresolvableNames() throws {
        let directory = try ScratchDirectory.make("record-names")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let layout = RegionLayout()
        let slot = layout.slotsOffset(ring: 0)
        let script = Hostile.poke(1000, at: slot + RegionField.slotTimestamp)
            + Hostile.poke(0xFFFF_FFFF, at: slot + RegionField.slotName)
            + Hostile.poke(UInt64(EventType.mark.rawValue), at: slot + RegionField.slotType)
            + Hostile.poke(RingState.owned.rawValue, at: layout.ringHeaderOffset(0) + RegionField.ringState)
            + Hostile.poke(1, at: layout.ringHeaderOffset(0) + RegionField.ringHead)
        let (run, trace) = try Hostile.recordShellApp(script + "exec sleep 30", in: directory)
        #expect(!run.signalled && run.status == 5, "\(run.status): \(run.error)")
        #expect(run.error.contains("lost 1 events (1 of them records in its region that cannot be events"), "\(run.error)")
        let dump = try Hostile.lifetrace(["dump", trace], in: directory)
        #expect(!dump.output.contains("\"type\":\"mark\"") && !dump.output.contains("#4294967295"), "\(dump.output)")
        #expect(try Hostile.lifetrace(["check", trace], in: directory).status == 2)
    }

    @Test("an exit value out of range (signal 2^32+11, code 2^40+3, code -2^62, kind 9) is damage: inferred exit, lost line, exit 3")
    func exitOutOfRange() throws {
        let directory = try ScratchDirectory.make("exit-range")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cases: [(String, UInt64, Int64, String)] = [
            ("sig", 2, (1 << 32) + 11, "lost: the signal the process stored, 4294967307,"),
            ("code", 1, (1 << 40) + 3, "lost: the exit code the process stored, 1099511627779,"),
            ("neg", 1, -(1 << 62), "lost: the exit code the process stored, -4611686018427387904,"),
            ("kind", 9, 0, "lost: the exit kind the process stored, 9,"),
        ]
        for (name, kind, value, said) in cases {
            let trace = directory + "/\(name).ltrace"
            let region = try Hostile.leftoverRegion(beside: trace, committed: 0) { recorder in
                recorder.mark(recorder.name("kept"))
            }
            Hostile.store(UInt64(bitPattern: value), in: region, at: RegionField.exitValue)
            Hostile.store(UInt64(MonotonicClock.now()), in: region, at: RegionField.exitTimestamp)
            Hostile.store(kind, in: region, at: RegionField.exitKind)
            let recover = try Hostile.lifetrace(["recover", trace], in: directory)
            #expect(recover.status == 3, "\(name): \(recover.output) \(recover.error)")
            #expect(recover.error.contains(said), "\(name): \(recover.error)")
            let dump = try Hostile.lifetrace(["dump", trace], in: directory)
            #expect(!dump.output.contains("\"signal\":11") && !dump.output.contains("\"code\":3") && !dump.output.contains("\"code\":0"), "\(name): \(dump.output)")
        }
    }

    @Test("a ring marked free that still holds records is read, not skipped")
    func freeRingWithRecords() throws {
        let directory = try ScratchDirectory.make("free-ring")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/solo.ltrace"
        let region = try Hostile.leftoverRegion(beside: trace, committed: 0)
        Self.fill(region, ring: 3, state: RingState.free.rawValue, count: 3)
        let recover = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 0, "\(recover.output) \(recover.error)")
        let dump = try Hostile.lifetrace(["dump", trace], in: directory)
        #expect(dump.output.components(separatedBy: "\"type\":\"mark\"").count == 4, "\(dump.output)")
    }

    @Test("a committed length below the header: the file's events are kept, the damage reported")
    func committedBelowHeaderKeepsTheFile() throws {
        let directory = try ScratchDirectory.make("commit-short")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/t.ltrace"
        try Hostile.synthesized(trace, events: 300, in: directory)
        let before = try Hostile.lifetrace(["dump", trace], in: directory).output.split(separator: "\n").count
        try Hostile.leftoverRegion(beside: trace, committed: 10)
        let recover = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 3, "\(recover.output) \(recover.error)")
        #expect(recover.error.contains("lost: the region says 10 bytes of the trace were written, too few for its header"), "\(recover.error)")
        let after = try Hostile.lifetrace(["dump", trace], in: directory).output.split(separator: "\n").count
        #expect(after >= before, "\(before) lines before, \(after) after")
    }

    @Test("record -o naming a file inside an option value of the app's arguments (--config=PATH) is refused")
    func recordKeepsOptionValues() throws {
        let directory = try ScratchDirectory.make("record-option-value")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let argument = directory + "/argfile"
        try Data("config\n".utf8).write(to: URL(fileURLWithPath: argument))
        let scenario = directory + "/s.yaml"
        try Hostile.launchOnly.write(toFile: scenario, atomically: true, encoding: .utf8)
        let run = try Hostile.lifetrace(
            ["record", "-o", argument, "--scenario", scenario, "--", "/bin/true", "--config=\(argument)"], in: directory)
        #expect(run.status == 2, "\(run.error)")
        #expect(run.error.contains("the output is also an input"), "\(run.error)")
        #expect(Hostile.bytes(argument) == Data("config\n".utf8))
    }

    @Test("the drops a pump reports are those its dropped events count, when a ring's latest record is in the future")
    func dropCountsMatchTheTrace() throws {
        let directory = try ScratchDirectory.make("drop-counts")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let region = try RecorderRegion.create(
            path: directory + "/region", layout: RegionLayout(ringCount: 2, ringCapacity: 16, symbolCapacity: 4))
        defer { region.unlink() }
        // A record of a system type (rejected by the drainer), then one stamped far after now.
        Self.fill(region, ring: 0, count: 2, type: .launch, timestamp: 1000)
        let future = region.base + region.layout.slotsOffset(ring: 0) + RegionLayout.slotSize
        future.storeBytes(of: MonotonicClock.now() + 1_000_000_000_000, toByteOffset: RegionField.slotTimestamp, as: Int64.self)
        future.storeBytes(of: EventType.mark.rawValue, toByteOffset: RegionField.slotType, as: UInt8.self)
        let pump = AppStreamPump(region: region, rejectsFutureTimestamps: true)
        let sink = TraceEventCollection()
        var symbols = SymbolTable()
        try pump.pump(into: sink, symbols: &symbols)
        let counted = sink.snapshot.events.reduce(Int64(0)) { total, event in
            if case .dropped(let count) = event.payload { return total + count }
            return total
        }
        #expect(pump.rejectedCount == 2)
        #expect(pump.droppedCount == 2 && counted == 2, "\(pump.droppedCount) reported, \(counted) in the trace")
    }

    @Test("outputs respect the umask, and recover keeps the trace's mode")
    func outputModes() throws {
        let directory = try ScratchDirectory.make("output-modes")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let lifetrace = BuiltProducts.path("lifetrace")
        let trace = directory + "/u.ltrace"
        let made = try Hostile.run("/bin/sh", ["-c", "umask 077; exec \"$0\" synth --events 200 --seed 1 -o \"$1\"", lifetrace, trace], in: directory)
        #expect(made.status == 0, "\(made.error)")
        func mode(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int) ?? -1 }
        #expect(mode(trace) == 0o600, "\(String(mode(trace), radix: 8))")
        let kept = directory + "/k.ltrace"
        try Hostile.synthesized(kept, events: 200, in: directory)
        chmod(kept, 0o640)
        try Hostile.leftoverRegion(beside: kept, committed: Hostile.size(kept))
        let recover = try Hostile.lifetrace(["recover", kept], in: directory)
        #expect(recover.status == 0, "\(recover.error)")
        #expect(mode(kept) == 0o640, "\(String(mode(kept), radix: 8))")
    }

    @Test("a trace is never written through a link planted at its path: a symbolic link or a hard link is refused")
    func recorderOutputThroughLinks() throws {
        let directory = try ScratchDirectory.make("recorder-links")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let victim = directory + "/victim"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        let symbolic = directory + "/app.ltrace"
        try FileManager.default.createSymbolicLink(atPath: symbolic, withDestinationPath: victim)
        let hard = directory + "/hard.ltrace"
        try FileManager.default.linkItem(atPath: victim, toPath: hard)
        for path in [symbolic, hard] {
            #expect(throws: TraceError.self) {
                try TraceWriter(path: path, metadata: TraceMetadata([]), codec: RawBlockCodec())
            }
        }
        #expect(Hostile.bytes(victim) == Data("precious\n".utf8))
        // The self-recording app refuses to start recording, in one line, and writes nothing.
        let counts = directory + "/counts"
        let errors = directory + "/probe.err"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
        process.arguments = [counts, "1", "--standalone", symbolic]
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        // Either it refuses and ends, or it records (the defect): then it is stopped here.
        while process.isRunning && (CrashSafetyTests.readCounts(counts).first ?? 0) == 0 { usleep(5_000) }
        let recorded = process.isRunning
        if recorded { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(!recorded && process.terminationStatus != 0)
        let said = String(decoding: Hostile.bytes(errors) ?? Data(), as: UTF8.self)
        #expect(said.contains("will not write a trace through a symbolic link"), "\(said)")
        #expect(Hostile.bytes(victim) == Data("precious\n".utf8))
    }

    @Test("a sparse region whose rings claim records in its holes is damage reported before a slot is read")
    func sparseRegion() throws {
        let directory = try ScratchDirectory.make("sparse-region")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/t.ltrace"
        try Hostile.synthesized(trace, events: 200, in: directory)
        let region = try RecorderRegion.create(
            path: TraceRecovery.regionPath(forTrace: trace), layout: RegionLayout(ringCount: 16, ringCapacity: 4096, symbolCapacity: 4))
        region.setProducerPID(0)
        region.setCommittedLength(Hostile.size(trace))
        for ring in 0..<16 {
            Hostile.store(RingState.owned.rawValue, in: region, at: region.layout.ringHeaderOffset(ring) + RegionField.ringState)
            Hostile.store(4096, in: region, at: region.layout.ringHeaderOffset(ring) + RegionField.ringHead)
        }
        let recover = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 3, "\(recover.output) \(recover.error)")
        #expect(recover.error.contains("lost: the region's rings claim 2097152 bytes of records"), "\(recover.error)")
        #expect(!recover.error.contains("records in the region cannot be events"), "\(recover.error)")
    }
}
