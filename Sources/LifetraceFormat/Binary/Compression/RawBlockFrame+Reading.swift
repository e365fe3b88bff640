extension RawBlockFrame {
    /// Why a frame could not be read without libzstd.
    package enum ReadResult: Equatable {
        /// The frame's content is now in the destination.
        case read
        /// The frame has a compressed block or a dictionary: only libzstd can read it.
        case needsLibzstd
        /// The frame is malformed or does not hold exactly the destination's size; the reason.
        case invalid(String)
    }

    /// Reads `frame`, which must be exactly one zstd frame of raw and RLE blocks declaring a content
    /// size of `destination.count` bytes, into `destination`, without libzstd.
    ///
    /// Holds to the same rules as the libzstd reader: the content size must be declared and equal
    /// the size the chunk header announced, the frame must end exactly at `frame.count`, and
    /// nothing is ever written past `destination`, whatever the frame claims (RFC 8878, 3.1.1).
    package static func read(_ frame: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> ReadResult {
        guard frame.count >= 6 else { return .invalid("frame too short") }
        guard frame.littleEndian(at: 0, as: UInt32.self) == 0xFD2F_B528 else { return .invalid("not a zstd frame") }
        let descriptor = frame[4]
        let singleSegment = descriptor & 0x20 != 0
        let hasChecksum = descriptor & 0x04 != 0
        if descriptor & 0x08 != 0 { return .invalid("reserved bit set in the frame header") }
        if descriptor & 0x03 != 0 { return .needsLibzstd }
        let sizeFlag = descriptor >> 6
        let fieldSize = sizeFlag == 0 ? (singleSegment ? 1 : 0) : 1 << Int(sizeFlag)
        guard fieldSize > 0 else { return .invalid("frame header without content size") }
        var offset = 5 + (singleSegment ? 0 : 1)
        guard frame.count >= offset + fieldSize else { return .invalid("frame too short") }
        var declared: UInt64 = 0
        for index in 0..<fieldSize { declared |= UInt64(frame[offset + index]) << (8 * index) }
        if fieldSize == 2 { declared += 256 }
        offset += fieldSize
        guard declared == UInt64(destination.count) else {
            return .invalid("frame declares \(declared) bytes, chunk header \(destination.count)")
        }
        var written = 0
        while true {
            guard frame.count >= offset + 3 else { return .invalid("frame ends inside a block header") }
            let header = Int(frame[offset]) | Int(frame[offset + 1]) << 8 | Int(frame[offset + 2]) << 16
            offset += 3
            let blockSize = header >> 3
            guard blockSize <= maxBlockSize else { return .invalid("block of \(blockSize) bytes exceeds \(maxBlockSize)") }
            guard blockSize <= destination.count - written else { return .invalid("blocks hold more than \(destination.count) bytes") }
            switch (header >> 1) & 0x3 {
            case 0:
                guard frame.count >= offset + blockSize else { return .invalid("frame ends inside a raw block") }
                if blockSize > 0 {
                    (destination.baseAddress! + written).copyMemory(from: frame.baseAddress! + offset, byteCount: blockSize)
                }
                offset += blockSize
            case 1:
                guard frame.count >= offset + 1 else { return .invalid("frame ends inside an RLE block") }
                if blockSize > 0 {
                    (destination.baseAddress! + written).initializeMemory(as: UInt8.self, repeating: frame[offset], count: blockSize)
                }
                offset += 1
            case 2:
                return .needsLibzstd
            default:
                return .invalid("reserved block type")
            }
            written += blockSize
            if header & 1 != 0 { break }
        }
        if hasChecksum { offset += 4 }
        guard offset == frame.count else { return .invalid("frame is \(offset) bytes, chunk header says \(frame.count)") }
        guard written == destination.count else { return .invalid("frame produced \(written) bytes, expected \(destination.count)") }
        return .read
    }
}
