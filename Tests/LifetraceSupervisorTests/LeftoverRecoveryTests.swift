import Foundation
import LifetraceFormat
@testable import LifetraceRecorder
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The recovery of leftover regions: off a self-recording app's start path, one recoverer per
/// region, and a region of mostly invalid slots given up early (docs/RELIABILITY.md, "Regions,
/// recovery and the app").
@Suite struct LeftoverRecoveryTests {
    typealias Hostile = HostileRecoveryTests

    /// Takes the recovery lock of the region at `path` as a recoverer does; nil if it is taken.
    static func lockRegion(_ path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    @Test("a self-recording app records before a leftover beside it is recovered, and the leftover is recovered while it runs")
    func startDoesNotWaitForLeftovers() throws {
        let directory = try ScratchDirectory.make("leftover-after-start")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = directory + "/old.ltrace"
        try Hostile.synthesized(old, events: 200_000, in: directory)
        let original = try #require(Hostile.bytes(old))
        let region = TraceRecovery.regionPath(forTrace: old)
        try Hostile.leftoverRegion(beside: old, committed: Int64(original.count))
        // The test holds the leftover's recovery lock, as a recoverer in another process would:
        // whatever recovers it must wait, so the app can record only if its start does not.
        var lock = try #require(Self.lockRegion(region))
        defer { if lock >= 0 { close(lock) } }

        let probe = try StandaloneProbe(in: directory)
        let process = probe.process
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        #expect(process.isRunning, "the probe ended with status \(process.terminationStatus)")
        // Recording, and the leftover not recovered yet: the start did not wait for it.
        #expect(FileManager.default.fileExists(atPath: region))
        #expect(Hostile.bytes(old) == original)

        // Once the lock is free, the running app's recovery seals the leftover and removes its region.
        close(lock)
        lock = -1
        let deadline = Date().addingTimeInterval(300)  // a bound against a hang, not a measurement
        while process.isRunning && FileManager.default.fileExists(atPath: region) && Date() < deadline { usleep(5_000) }
        #expect(!FileManager.default.fileExists(atPath: region), "\(probe.errorText)")
        #expect(process.isRunning)
        var reader = try BinaryTraceReader(path: old)
        var events = 0
        var last: TraceEvent?
        while let event = try reader.next() {
            events += 1
            last = event
        }
        #expect(reader.issues.isEmpty, "\(reader.issues)")
        #expect(reader.summary.isClosed)
        #expect(events >= 200_000)
        #expect(last?.type == .exit)
    }

    @Test("recover refuses a region another process is recovering, and leaves the trace and the region as they were")
    func oneRecovererPerRegion() throws {
        let directory = try ScratchDirectory.make("one-recoverer")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/t.ltrace"
        try Hostile.synthesized(trace, events: 2000, in: directory)
        let original = try #require(Hostile.bytes(trace))
        let region = TraceRecovery.regionPath(forTrace: trace)
        try Hostile.leftoverRegion(beside: trace, committed: Int64(original.count))
        let lock = try #require(Self.lockRegion(region))
        let refused = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(refused.status == 2, "\(refused.error)")
        #expect(refused.error == "lifetrace: cannot recover a trace that another process is recovering \(trace): run recover again once it has finished\n")
        #expect(Hostile.bytes(trace) == original)
        #expect(FileManager.default.fileExists(atPath: region))
        #expect(try Hostile.listing(directory) == ["t.ltrace", "t.ltrace.lifetrace-region"])
        close(lock)
        let recovered = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(recovered.status == 0, "\(recovered.error)")
        #expect(!FileManager.default.fileExists(atPath: region))
    }

    @Test("a region whose slots are mostly invalid is given up after 4,096 invalid slots and reported, not read to its end")
    func mostlyInvalidRegion() throws {
        let directory = try ScratchDirectory.make("mostly-invalid")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/g.ltrace"
        let capacity = 1 << 16
        do {
            let region = try RecorderRegion.create(
                path: TraceRecovery.regionPath(forTrace: trace),
                layout: RegionLayout(ringCount: 4, ringCapacity: capacity, symbolCapacity: 64))
            region.setProducerPID(0)
            // Every ring full of slots that are no event (type 0xFF), written (not holes).
            for ring in 0..<4 {
                memset(region.base + region.layout.slotsOffset(ring: ring), 0xFF, capacity * RegionLayout.slotSize)
                Hostile.store(RingState.owned.rawValue, in: region, at: region.layout.ringHeaderOffset(ring) + RegionField.ringState)
                Hostile.store(UInt64(capacity), in: region, at: region.layout.ringHeaderOffset(ring) + RegionField.ringHead)
            }
        }
        let recover = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(recover.status == 3, "\(recover.output) \(recover.error)")
        let unread = 4 * capacity - 4096
        #expect(
            recover.error.contains(
                "lost: the region's slots are mostly not events (4096 of the 4096 read were invalid); its other \(unread) slots were not read"),
            "\(recover.error)")
        // Every claimed slot is counted lost: the trace's dropped events add up to all of them.
        var reader = try BinaryTraceReader(path: trace)
        var dropped: Int64 = 0
        while let event = try reader.next() {
            if case .dropped(let count) = event.payload { dropped += count }
        }
        #expect(dropped == Int64(4 * capacity))
    }
}
