/// Writes zstd frames made of raw (stored) blocks, without libzstd.
///
/// RFC 8878 lets a frame carry its content uncompressed in `Raw_Block`s (section 3.1.1.2.2), and
/// every zstd decoder reads such frames. A recorder on a platform without libzstd (iOS) writes its
/// chunks this way: the trace is valid and every reader reads it, at the raw size; `lifetrace
/// import` (or `recover`) recompresses it on the analysis machine. Each frame is single-segment
/// with its content size, no dictionary and no checksum (chunks carry their own CRC-32C):
///
/// | field | size | value |
/// | --- | --- | --- |
/// | Magic_Number | 4 | `28 B5 2F FD` |
/// | Frame_Header_Descriptor | 1 | `Single_Segment_Flag` (bit 5) and the `Frame_Content_Size` field's size code (bits 7-6) |
/// | Frame_Content_Size | 1, 2, 4 or 8 | the content size (the 2-byte form stores size - 256) |
/// | blocks | 3 + size each | `Last_Block` (bit 0), `Block_Type` 0 = raw (bits 1-2), `Block_Size` (bits 3-23); at most 128 KiB each |
package enum RawBlockFrame {
    /// The largest block content, `Block_Maximum_Size` (RFC 8878, 3.1.1.2.3).
    package static let maxBlockSize = 128 * 1024

    /// The size of the frame holding `count` bytes.
    package static func size(_ count: Int) -> Int {
        let blocks = max(1, (count + maxBlockSize - 1) / maxBlockSize)
        return 4 + 1 + contentSizeFieldSize(count) + blocks * 3 + count
    }

    /// Writes the frame of `source` at `destination`, which must hold ``size(_:)`` bytes; returns
    /// the frame's size.
    package static func write(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int {
        let count = source.count
        precondition(destination.count >= size(count), "raw block frame destination too small")
        var offset = 0
        func put(_ value: UInt64, bytes: Int) {
            destination.storeLittleEndian(value, byteCount: bytes, at: offset)
            offset += bytes
        }
        put(0xFD2F_B528, bytes: 4)
        let fieldSize = contentSizeFieldSize(count)
        let sizeCode: UInt64 = fieldSize == 1 ? 0 : fieldSize == 2 ? 1 : fieldSize == 4 ? 2 : 3
        put(sizeCode << 6 | 1 << 5, bytes: 1)
        put(fieldSize == 2 ? UInt64(count - 256) : UInt64(count), bytes: fieldSize)
        var start = 0
        repeat {
            let blockSize = min(maxBlockSize, count - start)
            let last: UInt64 = start + blockSize == count ? 1 : 0
            put(UInt64(blockSize) << 3 | last, bytes: 3)
            if blockSize > 0 {
                (destination.baseAddress! + offset).copyMemory(from: source.baseAddress! + start, byteCount: blockSize)
            }
            offset += blockSize
            start += blockSize
        } while start < count
        return offset
    }

    /// The bytes of the `Frame_Content_Size` field for a single-segment frame of `count` bytes.
    private static func contentSizeFieldSize(_ count: Int) -> Int {
        if count < 256 { return 1 }
        if count < 65_536 + 256 { return 2 }
        if count <= Int(UInt32.max) { return 4 }
        return 8
    }
}
