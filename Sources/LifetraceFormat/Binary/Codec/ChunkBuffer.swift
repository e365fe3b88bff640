/// The storage of the chunk being built by a ``ChunkEncoder``: its records' structure bytes and
/// their timestamps, addressed by raw pointers.
///
/// Appending through a pointer costs no uniqueness check and no closure per event, which array
/// storage would. The owner writes only within the capacities and grows the buffer (``grown(bytes:timestamps:)``)
/// before writing past them.
final class ChunkBuffer {
    /// The structure bytes.
    let bytes: UnsafeMutablePointer<UInt8>
    /// The number of bytes `bytes` holds.
    let byteCapacity: Int
    /// The timestamps.
    let timestamps: UnsafeMutablePointer<Int64>
    /// The number of timestamps `timestamps` holds.
    let timestampCapacity: Int

    /// Allocates room for `byteCapacity` bytes and `timestampCapacity` timestamps.
    init(byteCapacity: Int, timestampCapacity: Int) {
        self.byteCapacity = Swift.max(byteCapacity, 1)
        self.timestampCapacity = Swift.max(timestampCapacity, 1)
        bytes = .allocate(capacity: self.byteCapacity)
        timestamps = .allocate(capacity: self.timestampCapacity)
    }

    deinit {
        bytes.deallocate()
        timestamps.deallocate()
    }

    /// A larger buffer with the first `byteCount` bytes and `timestampCount` timestamps copied.
    func grown(bytes byteCount: Int, timestamps timestampCount: Int, minimumBytes: Int, minimumTimestamps: Int) -> ChunkBuffer {
        let result = ChunkBuffer(
            byteCapacity: Swift.max(minimumBytes, byteCapacity), timestampCapacity: Swift.max(minimumTimestamps, timestampCapacity))
        result.bytes.update(from: bytes, count: byteCount)
        result.timestamps.update(from: timestamps, count: timestampCount)
        return result
    }
}
