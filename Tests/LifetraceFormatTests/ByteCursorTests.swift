import Testing
@testable import LifetraceFormat

/// Fixed-width reads that consume what they return and return nil, consuming nothing, when short.
struct ByteCursorTests {
    @Test func readsLittleEndianIntegersInOrder() {
        let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xFF]
        bytes.withUnsafeBytes { buffer in
            var cursor = ByteCursor(buffer)
            #expect(cursor.readInteger(as: UInt16.self) == 0x0201)
            #expect(cursor.readInteger(as: UInt32.self) == 0x0605_0403)
            #expect(cursor.readInteger(as: UInt8.self) == 0x07)
            #expect(cursor.readInteger(as: Int8.self) == -1)
            #expect(cursor.isAtEnd)
        }
    }

    @Test func aShortReadReturnsNilAndConsumesNothing() {
        let bytes: [UInt8] = [1, 2, 3]
        bytes.withUnsafeBytes { buffer in
            var cursor = ByteCursor(buffer)
            #expect(cursor.readInteger(as: UInt32.self) == nil)
            #expect(cursor.remaining == 3)
            #expect(cursor.readInteger(as: UInt16.self) == 0x0201)
            #expect(cursor.readInteger(as: UInt16.self) == nil)
            #expect(cursor.remaining == 1)
        }
        [UInt8]().withUnsafeBytes { buffer in
            var cursor = ByteCursor(buffer)
            #expect(cursor.readInteger(as: UInt8.self) == nil)
            #expect(cursor.varint() == nil)
        }
    }

    @Test func aChunkHeaderShorterThanV1IsNil() {
        let header = ChunkHeader(
            stream: 1, sequence: 7, flushGroup: 3, firstTimestamp: -5, lastTimestamp: 9, eventCount: 2, rawSize: 40,
            compressedSize: 30, timestampUnit: 1000, structureSize: 20)
        let content = Array(header.encoded()[BinaryTraceFormat.frameHeaderSize...])
        #expect(content.count == ChunkHeader.size)
        content.withUnsafeBytes { #expect(ChunkHeader(content: $0) == header) }
        // Newer minors may append fields: ignored.
        (content + [9, 9]).withUnsafeBytes { #expect(ChunkHeader(content: $0) == header) }
        content.dropLast().withUnsafeBytes { #expect(ChunkHeader(content: $0) == nil) }
    }
}

/// The file header's smallest content is 17 bytes, as docs/FORMAT.md says.
struct FileHeaderSizeTests {
    @Test func seventeenBytesReadAndSixteenAreRefused() throws {
        let frame = FileHeader(maxChunkSize: 4096, metadata: TraceMetadata()).encoded()
        let content = Array(frame[BinaryTraceFormat.frameHeaderSize...])
        #expect(content.count == FileHeader.minimumContentSize)
        let header = try content.withUnsafeBytes { (bytes) throws(FileHeader.Problem) in try FileHeader(content: bytes) }
        #expect(header.maxChunkSize == 4096)
        // Without the metadata count: refused for its size, before its checksum is looked at.
        let short = Array(content[0..<12]) + Array(content[13...])
        #expect(short.count == 16)
        let reason: String? = short.withUnsafeBytes { bytes in
            do throws(FileHeader.Problem) {
                _ = try FileHeader(content: bytes)
                return nil
            } catch {
                if case .malformed(let reason) = error { return reason }
                return "\(error)"
            }
        }
        #expect(reason == "header content of 16 bytes is shorter than 17")
    }
}
