/// Fixed-size little-endian fields of the container's frame headers.
extension Array where Element == UInt8 {
    /// Appends `value` in little-endian byte order.
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var value = value.littleEndian
        Swift.withUnsafeBytes(of: &value) { append(contentsOf: $0) }
    }

    /// Stores `value` in little-endian byte order at `offset`, which must be in bounds.
    mutating func setLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        var value = value.littleEndian
        Swift.withUnsafeBytes(of: &value) { bytes in
            for (index, byte) in bytes.enumerated() { self[offset + index] = byte }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`; the caller checks the bounds.
    @inline(__always)
    func littleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type = T.self) -> T {
        T(littleEndian: loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
