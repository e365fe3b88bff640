/// Reads integers from a bounded run of bytes, in the manner of swift-nio's `readInteger`: every
/// read consumes what it returns, checks the bound, and returns nil (consuming nothing) when the
/// bytes left are too few.
///
/// Used on the decoder's hot path: it holds raw pointers and must only live inside the
/// `withUnsafeBytes` scope of the buffer it reads.
package struct ByteCursor {
    /// The next byte to read.
    package var position: UnsafePointer<UInt8>
    /// One past the last readable byte.
    package var end: UnsafePointer<UInt8>

    /// A cursor over the bytes from `position` up to `end`.
    @inline(__always)
    package init(position: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        self.position = position
        self.end = end
    }

    /// A cursor over `bytes`, which must outlive it.
    package init(_ bytes: UnsafeRawBufferPointer) {
        // An empty buffer may have no address; a cursor at its end never dereferences it.
        let base = bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? UnsafePointer(bitPattern: 1)!
        self.init(position: base, end: base + bytes.count)
    }

    /// The next `T` stored little endian, or nil when fewer than its size remain.
    @inline(__always)
    package mutating func readInteger<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? {
        let size = MemoryLayout<T>.size
        guard end - position >= size else { return nil }
        let value = T(littleEndian: UnsafeRawPointer(position).loadUnaligned(as: T.self))
        position += size
        return value
    }

    /// Whether every byte has been read.
    @inline(__always)
    package var isAtEnd: Bool { position >= end }

    /// The number of unread bytes.
    @inline(__always)
    package var remaining: Int { end - position }

    /// The next byte, or nil at the end.
    @inline(__always)
    package mutating func byte() -> UInt8? {
        guard position < end else { return nil }
        let value = position.pointee
        position += 1
        return value
    }

    /// The next varint, or nil when it runs past the end or is longer than 10 bytes.
    @inline(__always)
    package mutating func varint() -> UInt64? {
        guard position < end else { return nil }
        let first = position.pointee
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        // Two and three bytes (timestamp deltas of a few milliseconds) are common enough to
        // read without the general loop.
        if end - position >= 3 {
            let second = position[1]
            if second < 0x80 {
                position += 2
                return UInt64(first & 0x7F) | UInt64(second) << 7
            }
            let third = position[2]
            if third < 0x80 {
                position += 3
                return UInt64(first & 0x7F) | UInt64(second & 0x7F) << 7 | UInt64(third) << 14
            }
        }
        return slowVarint()
    }

    @inline(never)
    private mutating func slowVarint() -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var pointer = position
        while pointer < end {
            let byte = pointer.pointee
            pointer += 1
            if shift == 63 && byte > 1 { return nil }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                position = pointer
                return result
            }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// The next zigzag varint, or nil.
    @inline(__always)
    package mutating func signed() -> Int64? {
        varint().map(Varint.unzigzag)
    }

    /// Skips `count` bytes; false when fewer remain.
    @inline(__always)
    package mutating func skip(_ count: UInt64) -> Bool {
        guard count <= UInt64(remaining) else { return false }
        position += Int(count)
        return true
    }
}
