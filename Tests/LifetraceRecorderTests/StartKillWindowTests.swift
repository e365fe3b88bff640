import Foundation
import LifetraceFormat
import Testing

@testable import LifetraceRecorder

/// What a kill during the recorder's start leaves: the region is made before the trace, so the
/// states a kill can leave are a staging file never linked into place, a region without its trace
/// yet, and a region beside a trace; recovery cleans up or seals each.
@Suite struct StartKillWindowTests {
    /// A process id that no process holds: one of a child that ran and was reaped.
    static func deadPID() throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        return child.processIdentifier
    }

    static func directory() -> String {
        let path = NSTemporaryDirectory() + "lifetrace-startkill-\(getpid())-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a region's staging file left by a dead process is removed; a live process's is kept")
    func abandonedStagingIsRemoved() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let dead = "\(directory)/a.ltrace\(TraceRecovery.regionSuffix).creating-\(try Self.deadPID())"
        let live = "\(directory)/b.ltrace\(TraceRecovery.regionSuffix).creating-\(getpid())"
        for path in [dead, live] { #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 4096))) }
        _ = TraceRecovery.recoverLeftovers(in: directory, codec: RawBlockCodec())
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
    }

    @Test("a region whose trace was never made (killed between the two) is removed, and no trace is made")
    func regionWithoutItsTrace() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = "\(directory)/t.ltrace"
        let region = try RecorderRegion.create(
            path: TraceRecovery.regionPath(forTrace: trace), layout: RegionLayout(ringCount: 2, ringCapacity: 1024))
        region.setProducerPID(try Self.deadPID())
        let outcome = try TraceRecovery.recover(tracePath: trace, codec: RawBlockCodec())
        guard case .nothingToRecover = outcome else {
            Issue.record("expected nothing to recover, got \(outcome)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: trace)))
        #expect(!FileManager.default.fileExists(atPath: trace))
    }

    @Test("a region beside an empty trace (killed before the trace's header) leaves neither behind")
    func regionBesideAnEmptyTrace() throws {
        let directory = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = "\(directory)/t.ltrace"
        let region = try RecorderRegion.create(
            path: TraceRecovery.regionPath(forTrace: trace), layout: RegionLayout(ringCount: 2, ringCapacity: 1024))
        region.setProducerPID(try Self.deadPID())
        #expect(FileManager.default.createFile(atPath: trace, contents: Data()))
        let outcome = try TraceRecovery.recover(tracePath: trace, codec: RawBlockCodec())
        guard case .nothingToRecover = outcome else {
            Issue.record("expected nothing to recover, got \(outcome)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: TraceRecovery.regionPath(forTrace: trace)))
        #expect(!FileManager.default.fileExists(atPath: trace))
    }
}
