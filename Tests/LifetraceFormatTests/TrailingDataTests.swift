import Foundation
import LifetraceRunner
import Testing
@testable import LifetraceFormat
import LifetraceZstd

/// The end-of-trace record closes a binary trace (docs/FORMAT.md, "End-of-trace frame"): what
/// follows it is not read as events, and is reported once as damage, where it starts, unless it
/// is another tool's whole skippable frame.
struct TrailingDataTests {
    /// The golden trace's bytes: 648 bytes, 31 events, its end record the last 36 bytes.
    static let golden: [UInt8] = {
        let path = GoldenTraceTests.directory + "v1-golden.ltrace"
        guard let bytes = FileManager.default.contents(atPath: path) else { return [] }
        return Array(bytes)
    }()

    static func read(_ bytes: [UInt8], prefetching: Bool = false) throws -> (events: Int, issues: [TraceError], closed: Bool) {
        let reader = try BinaryTraceReader(bytes: bytes, name: "t.ltrace")
        if prefetching {
            var source = PrefetchingTraceReader(reader)
            var count = 0
            while try source.next() != nil { count += 1 }
            return (count, source.issues, source.summary.isClosed)
        }
        var source = reader
        var count = 0
        while try source.next() != nil { count += 1 }
        return (count, source.issues, source.summary.isClosed)
    }

    /// The golden trace's chunks and group-order frame: bytes 151 up to its end record.
    static var frames: ArraySlice<UInt8> { golden[151..<(golden.count - 36)] }

    @Test(arguments: [false, true])
    func aSecondEndRecordIsReported(prefetching: Bool) throws {
        let read = try Self.read(Self.golden + Self.golden.suffix(36), prefetching: prefetching)
        #expect(read.events == 31 && read.closed)
        #expect(read.issues.map(\.kind) == [.trailingData])
        #expect(read.issues.map(\.description) == [
            "t.ltrace: byte 648: 36 bytes after the end-of-trace record, which closes the trace, were not read; "
                + "they start with a second end-of-trace record",
        ])
        #expect(read.issues.losesData)
    }

    @Test(arguments: [false, true])
    func chunksAfterTheEndRecordAreNotRead(prefetching: Bool) throws {
        let read = try Self.read(Self.golden + Self.frames + Self.golden.suffix(36), prefetching: prefetching)
        // Before, the appended chunks' 31 events were read as the trace's, with no word.
        #expect(read.events == 31)
        #expect(read.issues.map(\.message) == [
            "\(Self.frames.count + 36) bytes after the end-of-trace record, which closes the trace, were not read; they start with a chunk",
        ])
    }

    @Test func anotherTraceAppendedIsNotRead() throws {
        let read = try Self.read(Self.golden + Self.golden)
        #expect(read.events == 31)
        #expect(read.issues.map(\.message) == [
            "648 bytes after the end-of-trace record, which closes the trace, were not read; they start with a file header (another trace appended?)",
        ])
    }

    @Test func bytesThatAreNoFrameAreReportedOnce() throws {
        let read = try Self.read(Self.golden + Array("garbage".utf8))
        #expect(read.events == 31)
        #expect(read.issues.map(\.message) == ["7 bytes after the end-of-trace record, which closes the trace, were not read; they are no frame"])
        let one = try Self.read(Self.golden + [0])
        #expect(one.issues.map(\.message) == ["1 byte after the end-of-trace record, which closes the trace, were not read; they are no frame"])
    }

    @Test func anotherToolsWholeSkippableFrameAfterTheEndIsSkipped() throws {
        // A zstd seek table, for instance (magic 0x184D2A5E), holds no events.
        let seekTable: [UInt8] = [0x5E, 0x2A, 0x4D, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]
        let read = try Self.read(Self.golden + seekTable)
        #expect(read.events == 31 && read.closed && read.issues.isEmpty)
        // Cut short, it is damage like any other.
        let cut = try Self.read(Self.golden + seekTable.dropLast(2))
        #expect(cut.issues.map(\.message) == [
            "10 bytes after the end-of-trace record, which closes the trace, were not read; they start with a skippable frame cut short",
        ])
        // Followed by a chunk, the chunk is reported from where it starts.
        let then = try Self.read(Self.golden + seekTable + Self.frames)
        #expect(then.events == 31)
        #expect(then.issues.map(\.location) == [.byte(660, chunk: nil)])
    }

    @Test func anEndRecordThatFailsItsChecksumClosesNothing() throws {
        var bad = Array(Self.golden.suffix(36))
        bad[20] ^= 0xFF
        // The damaged record is reported and ignored, as before: the chunks after it are read,
        // and the real end record closes the trace.
        let read = try Self.read(Array(Self.golden.dropLast(36)) + bad + Self.golden.suffix(36))
        #expect(read.events == 31 && read.closed)
        #expect(read.issues.map(\.message) == ["end-of-trace record checksum mismatch"])
    }
}
