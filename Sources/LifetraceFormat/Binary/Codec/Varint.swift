/// LEB128 unsigned varints and zigzag signed integers, the integer encodings of format v1.
///
/// A varint stores 7 bits per byte, least significant group first; the high bit says another byte
/// follows. A value takes at most 10 bytes, and the tenth byte may only be 0 or 1.
enum Varint {
    /// The most bytes one varint takes.
    static let maxLength = 10

    /// Maps a signed value to an unsigned one so that small magnitudes stay small:
    /// 0, -1, 1, -2, ... become 0, 1, 2, 3, ...
    @inline(__always)
    static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// The inverse of ``zigzag(_:)``.
    @inline(__always)
    static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// Writes `value` at `pointer`, which must have ``maxLength`` bytes of room; returns the count.
    @inline(__always)
    static func write(_ value: UInt64, to pointer: UnsafeMutablePointer<UInt8>) -> Int {
        var value = value
        var count = 0
        while value >= 0x80 {
            pointer[count] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            count &+= 1
        }
        pointer[count] = UInt8(truncatingIfNeeded: value)
        return count &+ 1
    }

    /// Appends `value` to `bytes`.
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// The number of bytes `value` takes: one per started group of 7 significant bits, at least one.
    @inline(__always)
    static func length(_ value: UInt64) -> Int {
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }
}

/// Reads format v1 integers from a bounded run of bytes; every read checks the bound.
///
/// Used on the decoder's hot path: it holds raw pointers and must only live inside the
/// `withUnsafeBytes` scope of the buffer it reads.
struct ByteCursor {
    /// The next byte to read.
    var position: UnsafePointer<UInt8>
    /// One past the last readable byte.
    var end: UnsafePointer<UInt8>

    /// Whether every byte has been read.
    @inline(__always)
    var isAtEnd: Bool { position >= end }

    /// The number of unread bytes.
    @inline(__always)
    var remaining: Int { end - position }

    /// The next byte, or nil at the end.
    @inline(__always)
    mutating func byte() -> UInt8? {
        guard position < end else { return nil }
        let value = position.pointee
        position += 1
        return value
    }

    /// The next varint, or nil when it runs past the end or is longer than 10 bytes.
    @inline(__always)
    mutating func varint() -> UInt64? {
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
    mutating func signed() -> Int64? {
        varint().map(Varint.unzigzag)
    }

    /// Skips `count` bytes; false when fewer remain.
    @inline(__always)
    mutating func skip(_ count: UInt64) -> Bool {
        guard count <= UInt64(remaining) else { return false }
        position += Int(count)
        return true
    }
}
