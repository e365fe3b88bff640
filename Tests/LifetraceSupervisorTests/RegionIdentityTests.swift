import Foundation
import LifetraceFormat
@testable import LifetraceRecorder
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// A region proves that the file beside it is its trace before a recovery writes anything: a
/// file that is not a trace, or another trace than the region's, is never touched, by `recover`
/// or by a self-recording app's start (docs/FORMAT.md, "Recorder region"; docs/RELIABILITY.md).
@Suite struct RegionIdentityTests {
    typealias Hostile = HostileRecoveryTests

    @Test("a leftover region named after a text file never replaces it, with an identity or without one", arguments: [false, true])
    func textFileBesideARegion(_ withIdentity: Bool) throws {
        let directory = try ScratchDirectory.make("identity-text")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notes = directory + "/notes.txt"
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        let region = try Hostile.leftoverRegion(beside: notes, committed: 0)
        if withIdentity { _ = region.makeTraceIdentity() }
        let result = try Hostile.lifetrace(["recover", notes], in: directory)
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error == "lifetrace: will not recover \(notes): not a lifetrace trace, so not the trace of the region beside it; "
            + "both are left as they are\n")
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        #expect(try Hostile.listing(directory) == ["notes.txt", "notes.txt.lifetrace-region"])
    }

    @Test("a stale region beside a later, unrelated, closed trace leaves the trace as it is")
    func staleRegionBesideAnotherTrace() throws {
        let directory = try ScratchDirectory.make("identity-stale")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/run.ltrace"
        try Hostile.synthesized(trace, events: 2000, in: directory)
        let original = try #require(Hostile.bytes(trace))
        let region = try Hostile.leftoverRegion(beside: trace, committed: Int64(original.count))
        let identity = region.makeTraceIdentity()
        let result = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error == "lifetrace: will not recover \(trace): another trace (no identity in its header), not the one the region "
            + "beside it was made for (identity \(identity)); both are left as they are\n")
        #expect(Hostile.bytes(trace) == original)
    }

    @Test("the region's own trace, its identity in its header, is recovered")
    func ownTraceIsRecovered() throws {
        let directory = try ScratchDirectory.make("identity-own")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/own.ltrace"
        let region = try Hostile.leftoverRegion(beside: trace, committed: 0)
        let identity = region.makeTraceIdentity()
        let writer = try TraceWriter(path: trace, metadata: TraceMetadata([(RecorderRegion.traceIdentityKey, identity)]), codec: RawBlockCodec())
        try writer.flush()
        region.setCommittedLength(Hostile.size(trace))
        let result = try Hostile.lifetrace(["recover", trace], in: directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(try Hostile.listing(directory) == ["own.ltrace"])
        #expect(try BinaryTraceReader(path: trace).metadata[RecorderRegion.traceIdentityKey] == identity)
    }

    @Test("a self-recording app's start recovers no leftover over a file that is not its trace")
    func startLeavesUnrelatedFiles() throws {
        let directory = try ScratchDirectory.make("identity-start")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let notes = directory + "/notes.txt"
        try "my notes\n".write(toFile: notes, atomically: true, encoding: .utf8)
        try Hostile.leftoverRegion(beside: notes, committed: 0)
        let other = directory + "/other.ltrace"
        try Hostile.synthesized(other, events: 500, in: directory)
        let original = try #require(Hostile.bytes(other))
        _ = try Hostile.leftoverRegion(beside: other, committed: Int64(original.count)).makeTraceIdentity()
        let result = TraceRecovery.recoverLeftovers(in: directory, codec: RawBlockCodec())
        #expect(result.recovered.isEmpty)
        #expect(result.failures.map(\.path).sorted() == [notes, other])
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
        #expect(Hostile.bytes(other) == original)
    }
}
