/// Fixed-size little-endian fields: the one little-endian writer of the package (the container's
/// frame headers, raw-block frames, the CTF export's packets). Reads go through ``ByteCursor``.
extension Array where Element == UInt8 {
    /// Appends `value` in little-endian byte order.
    package mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var value = value.littleEndian
        Swift.withUnsafeBytes(of: &value) { append(contentsOf: $0) }
    }

    /// Stores `value` in little-endian byte order at `offset`, which must be in bounds.
    package mutating func setLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        withUnsafeMutableBytes { $0.storeLittleEndian(value, byteCount: MemoryLayout<T>.size, at: offset) }
    }
}

extension UnsafeMutableRawBufferPointer {
    /// Stores the low `byteCount` bytes of `value` in little-endian byte order at `offset`; the
    /// range must be in bounds.
    package func storeLittleEndian<T: FixedWidthInteger>(_ value: T, byteCount: Int, at offset: Int) {
        precondition(offset >= 0 && byteCount <= count - offset, "little-endian store out of bounds")
        for index in 0..<byteCount { self[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`, without consuming it (a peek at a frame's magic
    /// and size, whose bytes the caller has made sure of); ``ByteCursor`` reads with bounds.
    @inline(__always)
    func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
