/// LEB128 unsigned varints and zigzag signed integers, the integer encodings of format v1.
///
/// A varint stores 7 bits per byte, least significant group first; the high bit says another byte
/// follows. A value takes at most 10 bytes, and the tenth byte may only be 0 or 1. The one varint
/// writer of the package: the Perfetto export's protobuf encoder writes its varints with it too.
package enum Varint {
    /// The most bytes one varint takes.
    package static let maxLength = 10

    /// Maps a signed value to an unsigned one so that small magnitudes stay small:
    /// 0, -1, 1, -2, ... become 0, 1, 2, 3, ...
    @inline(__always)
    package static func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }

    /// The inverse of ``zigzag(_:)``.
    @inline(__always)
    package static func unzigzag(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }

    /// Writes `value` at `pointer`, which must have ``maxLength`` bytes of room; returns the count.
    @inline(__always)
    package static func write(_ value: UInt64, to pointer: UnsafeMutablePointer<UInt8>) -> Int {
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
    package static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// The number of bytes `value` takes: one per started group of 7 significant bits, at least one.
    @inline(__always)
    package static func length(_ value: UInt64) -> Int {
        (64 - (value | 1).leadingZeroBitCount + 6) / 7
    }
}
