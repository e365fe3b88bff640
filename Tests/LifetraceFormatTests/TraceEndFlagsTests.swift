import Foundation
import LifetraceRunner
import Testing

@testable import LifetraceFormat
import LifetraceZstd

/// `End_Flags` in the end-of-trace record (docs/FORMAT.md) and reading the trusted part of a file.
@Suite struct TraceEndFlagsTests {
    static func trace(marksDataLost: Bool, path: String) throws {
        let writer = try TraceWriter(path: path, metadata: TraceMetadata([("recorder", "test")]))
        writer.marksDataLost = marksDataLost
        var symbols = SymbolTable()
        let name = symbols.intern("x")
        try writer.append(TraceEvent(timestamp: 1_000, payload: .launch(reason: .none, background: false, prewarm: false, pid: 7), stream: .system), symbols: symbols)
        try writer.append(TraceEvent(timestamp: 2_000, payload: .mark(name: name), stream: .app), symbols: symbols)
        try writer.close()
    }

    static func read(_ path: String) throws -> (count: Int, issues: [TraceError], closed: Bool) {
        var reader = try BinaryTraceReader(path: path)
        var count = 0
        while try reader.next() != nil { count += 1 }
        return (count, reader.issues, reader.summary.isClosed)
    }

    @Test func aTraceMarkedAsMissingDataReadsWithOneDataLostIssue() throws {
        let directory = NSTemporaryDirectory() + "end-flags-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let whole = directory + "/whole.ltrace", lost = directory + "/lost.ltrace"
        try Self.trace(marksDataLost: false, path: whole)
        try Self.trace(marksDataLost: true, path: lost)
        let wholeBytes = try #require(FileManager.default.contents(atPath: whole))
        let lostBytes = try #require(FileManager.default.contents(atPath: lost))
        // Unmarked, the end record is the 1.0 one; marked, it holds End_Flags (4 more bytes).
        #expect(lostBytes.count == wholeBytes.count + 4)
        #expect(wholeBytes.suffix(36).prefix(8) == Data([0x5C, 0x2A, 0x4D, 0x18, 28, 0, 0, 0]))
        #expect(try Self.read(whole).issues.isEmpty)
        let read = try Self.read(lost)
        #expect(read.count == 2 && read.closed)
        #expect(read.issues.map(\.kind) == [.dataLost])
        #expect(read.issues.first?.description.hasPrefix("\(lost): byte \(wholeBytes.count - 36): sealed with data missing") == true)
    }

    @Test func aReaderGivenALimitStopsThereAsIfTheFileEnded() throws {
        let directory = NSTemporaryDirectory() + "byte-limit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/t.ltrace"
        try Self.trace(marksDataLost: false, path: path)
        let size = Int64(try #require(FileManager.default.contents(atPath: path)).count)
        let descriptor = open(path, O_RDONLY)
        defer { close(descriptor) }
        var reader = try BinaryTraceReader(descriptor: descriptor, name: path, byteLimit: size - 36, codec: ZstdCodec())
        var count = 0
        while try reader.next() != nil { count += 1 }
        #expect(count == 2 && !reader.summary.isClosed)
        #expect(reader.issues.map(\.message) == ["not closed: no end-of-trace record (truncated at byte \(size - 36))"])
    }
}
