import Foundation
import Testing
@testable import LifetraceFormat

/// Truncated, corrupt and hostile binary traces.
struct BinaryTraceRobustnessTests {
    typealias Fixture = BinaryTraceFixture

    /// A closed trace of 60 events in 4 flush groups; `events` use the symbols of `symbols`.
    static func smallTrace() throws -> (bytes: [UInt8], events: [TraceEvent], chunks: [ChunkStatistics], headerSize: Int) {
        let trace = RandomTrace(seed: 21, count: 60)
        let bytes = try Fixture.write(trace.events, symbols: trace.symbols, flushEvery: 15)
        let (events, reader) = try Fixture.read(bytes, options: .init(collectsChunkStatistics: true))
        symbols = trace.symbols
        let remapped = events.map { Fixture.remap($0, from: reader.symbols, to: trace.symbols) }
        return (bytes, remapped, reader.chunks, Int(reader.chunks[0].offset))
    }

    nonisolated(unsafe) static var symbols = SymbolTable()

    /// Reads `bytes`, with the events' symbols moved to those of ``smallTrace()``.
    static func readSmall(_ bytes: [UInt8]) throws -> (events: [TraceEvent], reader: BinaryTraceReader) {
        let (events, reader) = try Fixture.read(bytes)
        return (events.map { Fixture.remap($0, from: reader.symbols, to: symbols) }, reader)
    }

    static func isSubsequence(_ part: [TraceEvent], of whole: [TraceEvent]) -> Bool {
        var index = whole.startIndex
        for event in part {
            guard let found = whole[index...].firstIndex(of: event) else { return false }
            index = found + 1
        }
        return true
    }

    @Test func cutAtEveryByteYieldsTheCompleteChunks() throws {
        let (bytes, all, chunks, headerSize) = try Self.smallTrace()
        #expect(chunks.count >= 6)
        for cut in 0..<bytes.count {
            let prefix = Array(bytes[0..<cut])
            if cut < headerSize {
                #expect(throws: TraceError.self) { try Fixture.read(prefix) }
                continue
            }
            let (events, reader) = try Self.readSmall(prefix)
            // The whole groups before the cut (but perhaps the last, when the cut falls in the
            // next chunk's header), and of the group the cut falls in at most its whole chunks
            // (TruncatedTraceTests).
            let whole = TruncatedTraceTests.wholeGroups(chunks, before: Int64(cut))
            let complete = chunks.filter { $0.offset + Int64($0.storedSize) <= Int64(cut) }
            #expect(events.count >= TruncatedTraceTests.events(ofGroups: whole - 1, chunks), "cut at \(cut)")
            #expect(events.count <= complete.reduce(0) { $0 + Int($1.eventCount) }, "cut at \(cut)")
            #expect(Self.isSubsequence(events, of: all), "cut at \(cut)")
            #expect(reader.issues.count == 1, "cut at \(cut)")
            #expect(reader.issues.first?.kind == .truncated)
            #expect(reader.issues.first?.message.contains("truncated at byte \(cut)") == true, "cut at \(cut)")
        }
        let (events, reader) = try Self.readSmall(bytes)
        #expect(events == all)
        #expect(reader.issues.isEmpty)
    }

    @Test func flippedByteSkipsOnlyItsChunk() throws {
        let (bytes, all, chunks, _) = try Self.smallTrace()
        for target in [1, chunks.count / 2, chunks.count - 1] {
            let chunk = chunks[target]
            var corrupt = bytes
            corrupt[Int(chunk.offset) + Int(chunk.storedSize) - 3] ^= 0x40
            let (events, reader) = try Self.readSmall(corrupt)
            #expect(reader.issues.count == 1)
            let issue = try #require(reader.issues.first)
            #expect(issue.kind == .corruptChunk)
            #expect(issue.location == .byte(chunk.offset, chunk: .init(stream: chunk.stream.rawValue, sequence: chunk.sequence)))
            #expect(events.count == all.count - Int(chunk.eventCount))
            #expect(Self.isSubsequence(events, of: all), "chunk \(target)")
        }
    }

    @Test func flippedHeaderSizeFieldResynchronizes() throws {
        let (bytes, all, chunks, _) = try Self.smallTrace()
        let chunk = chunks[2]
        var corrupt = bytes
        corrupt[Int(chunk.offset) + 8 + 48] ^= 0x10  // compressed size
        let (events, reader) = try Fixture.read(corrupt)
        #expect(reader.issues.contains { $0.kind == .corruptChunk && $0.location == .byte(chunk.offset, chunk: .init(stream: chunk.stream.rawValue, sequence: chunk.sequence)) })
        #expect(events.count == all.count - Int(chunk.eventCount))
    }

    @Test func everySingleByteFlipIsHandled() throws {
        let (bytes, _, _, _) = try Self.smallTrace()
        for position in 0..<bytes.count {
            var corrupt = bytes
            corrupt[position] ^= 0xFF
            do {
                let (events, reader) = try Fixture.read(corrupt)
                #expect(events.count <= 60 + 1)
                _ = reader.issues
            } catch {
                #expect(position < 200, "only header damage may throw: byte \(position)")
            }
        }
    }

    @Test func unknownMajorVersionIsRefusedAndNewerMinorRead() throws {
        let (bytes, all, _, headerSize) = try Self.smallTrace()
        func withVersion(_ major: UInt8, _ minor: UInt8) -> [UInt8] {
            var copy = bytes
            copy[12] = major
            copy[13] = minor
            let crc = CRC32C.checksum(copy[8..<(headerSize - 4)])
            copy.setLittleEndian(crc, at: headerSize - 4)
            return copy
        }
        #expect {
            try Fixture.read(withVersion(2, 0))
        } throws: { ($0 as? TraceError)?.kind == .unsupportedVersion }
        let (events, reader) = try Self.readSmall(withVersion(1, 9))
        #expect(events == all)
        #expect(reader.summary.minorVersion == 9)
    }

    @Test func hostileHeaderLengthsFailCleanly() throws {
        let (bytes, _, _, headerSize) = try Self.smallTrace()
        var huge = bytes
        huge.setLittleEndian(UInt32.max, at: 4)
        #expect { try Fixture.read(huge) } throws: { ($0 as? TraceError)?.kind == .limitExceeded }

        var chunkSize = bytes
        chunkSize.setLittleEndian(UInt32.max, at: 16)
        chunkSize.setLittleEndian(CRC32C.checksum(chunkSize[8..<(headerSize - 4)]), at: headerSize - 4)
        #expect { try Fixture.read(chunkSize) } throws: { ($0 as? TraceError)?.kind == .limitExceeded }

        // Metadata count of 2^63: a varint claiming far more fields than the header holds.
        var header = FileHeader(maxChunkSize: 4096, metadata: TraceMetadata()).encoded()
        header.removeLast(5)
        header += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        header.setLittleEndian(UInt32(header.count - 8 + 4), at: 4)
        header.appendLittleEndian(CRC32C.checksum(header[8...]))
        #expect { try Fixture.read(header) } throws: { ($0 as? TraceError)?.kind == .corruptChunk }

        #expect { try Fixture.read([]) } throws: { ($0 as? TraceError)?.kind == .truncated }
        #expect { try Fixture.read(Array("{\"ts\":1,\"type\":\"mark\"}".utf8)) } throws: { ($0 as? TraceError)?.kind == .badMagic }
    }

    @Test func hostileChunkHeaderIsSkipped() throws {
        let (bytes, all, chunks, _) = try Self.smallTrace()
        let chunk = chunks[1]
        var corrupt = bytes
        corrupt.setLittleEndian(UInt32.max, at: Int(chunk.offset) + 8 + 44)  // raw size
        let (events, reader) = try Fixture.read(corrupt)
        #expect(reader.issues.first?.kind == .corruptChunk)
        #expect(reader.issues.first?.message.contains("raw size") == true)
        #expect(events.count == all.count - Int(chunk.eventCount))
    }

    @Test func hostileRecordLengthsAreCorruptChunks() throws {
        let symbols = SymbolTable()
        let bytes = try Fixture.write([], symbols: symbols, extra: { writer in
            writer.appendRawRecord([0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], delta: [], timestamp: 1, stream: .app)
            writer.appendRawRecord([0x09, 0x00], delta: [0x00], timestamp: 1, stream: .app)
        })
        let (events, reader) = try Fixture.read(bytes)
        #expect(events.isEmpty)
        #expect(reader.issues.map(\.kind) == [.corruptChunk])
        #expect(reader.issues.first?.message.contains("string definition length") == true)

        let overlong = try Fixture.write([], symbols: symbols, extra: { writer in
            writer.appendRawRecord([0x05], delta: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], timestamp: 1, stream: .app)
        })
        let (none, overlongReader) = try Fixture.read(overlong)
        #expect(none.isEmpty)
        #expect(overlongReader.issues.first?.message.contains("delta section") == true)
    }
}

/// What a frame that claims more bytes than the file holds costs.
struct TraceInputBufferTests {
    @Test("a frame that claims 16 MiB of a 1 KiB file grows the buffer only with the bytes read")
    func claimedSizeDoesNotBuyMemory() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("claim-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x5A, count: 1024).write(to: URL(fileURLWithPath: path))
        let input = try TraceInput(path: path)
        #expect(try input.ensure(16 << 20) == false)
        #expect(input.available == 1024)
        #expect(input.capacity <= 2 * TraceInput.blockSize)
    }

    @Test("a frame larger than one block is still read whole")
    func largeFrameIsReadWhole() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = 5 * TraceInput.blockSize + 123
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }).write(to: URL(fileURLWithPath: path))
        let input = try TraceInput(path: path)
        #expect(try input.ensure(size))
        let matches = input.withAvailable { bytes in
            bytes.count == size && bytes.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset) }
        }
        #expect(matches)
    }
}
