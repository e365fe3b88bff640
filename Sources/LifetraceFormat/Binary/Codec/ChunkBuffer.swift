/// The storage of the chunk being built by a ``ChunkEncoder``: its records' structure bytes,
/// their timestamps and their timestamp deltas, addressed by raw pointers.
///
/// Appending through a pointer costs no uniqueness check and no closure per event, which array
/// storage would. The owner writes only within the capacities and grows the buffer
/// (``grown(bytes:timestamps:deltas:minimumBytes:minimumTimestamps:minimumDeltas:)``) before
/// writing past them.
final class ChunkBuffer {
    /// The structure bytes.
    let bytes: UnsafeMutablePointer<UInt8>
    /// The number of bytes `bytes` holds.
    let byteCapacity: Int
    /// The timestamps.
    let timestamps: UnsafeMutablePointer<Int64>
    /// The number of timestamps `timestamps` holds.
    let timestampCapacity: Int
    /// The delta-section bytes.
    let deltas: UnsafeMutablePointer<UInt8>
    /// The number of bytes `deltas` holds.
    let deltaCapacity: Int

    /// Allocates room for `byteCapacity` structure bytes, `timestampCapacity` timestamps and
    /// `deltaCapacity` delta bytes.
    init(byteCapacity: Int, timestampCapacity: Int, deltaCapacity: Int) {
        self.byteCapacity = Swift.max(byteCapacity, 1)
        self.timestampCapacity = Swift.max(timestampCapacity, 1)
        self.deltaCapacity = Swift.max(deltaCapacity, 1)
        bytes = .allocate(capacity: self.byteCapacity)
        timestamps = .allocate(capacity: self.timestampCapacity)
        deltas = .allocate(capacity: self.deltaCapacity)
    }

    deinit {
        bytes.deallocate()
        timestamps.deallocate()
        deltas.deallocate()
    }

    /// A larger buffer with the first `byteCount` bytes, `timestampCount` timestamps and
    /// `deltaCount` delta bytes copied.
    func grown(
        bytes byteCount: Int, timestamps timestampCount: Int, deltas deltaCount: Int,
        minimumBytes: Int, minimumTimestamps: Int, minimumDeltas: Int
    ) -> ChunkBuffer {
        let result = ChunkBuffer(
            byteCapacity: Swift.max(minimumBytes, byteCapacity), timestampCapacity: Swift.max(minimumTimestamps, timestampCapacity),
            deltaCapacity: Swift.max(minimumDeltas, deltaCapacity))
        result.bytes.update(from: bytes, count: byteCount)
        result.timestamps.update(from: timestamps, count: timestampCount)
        result.deltas.update(from: deltas, count: deltaCount)
        return result
    }
}
