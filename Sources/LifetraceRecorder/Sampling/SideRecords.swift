import Atomics
import LifetraceFormat

/// The region's slots for stack samples and loaded images (docs/RECORDING.md, "Stack samples"):
/// a head slot, then the record's bytes in continuation slots of 24 bytes each, written by the
/// sampler thread into its own ring and published together by one store of the ring's head, so
/// that a reader sees all of a record or none of it, and no event of another thread is touched.
enum SideSlot {
    /// A head slot of a loaded image: value = base address, name = its path's name id,
    /// scene = the byte count (the mapped size as 8 bytes, then the build id).
    static let image: UInt8 = 0x10
    /// A head slot of a stack sample: value = the sampled thread's ThreadID, scene = the byte
    /// count (the frames as 8-byte addresses, innermost first).
    static let sample: UInt8 = 0x11
    /// A slot carrying 24 bytes of the record before it.
    static let continuation: UInt8 = 0x13
    /// The bytes a continuation slot carries.
    static let bytesPerSlot = 24
    /// The most bytes one record carries: 256 frames.
    static let maxBytes = 256 * 8

    /// The slots a record of `byteCount` bytes takes, its head included.
    static func slots(for byteCount: Int) -> Int { 1 + (byteCount + bytesPerSlot - 1) / bytesPerSlot }
}

extension ThreadRing {
    /// Writes a head slot and `bytes` in continuation slots, then publishes them with one store;
    /// drops the whole record (and counts one drop) when the ring has no room for all of it.
    mutating func writeSideRecord(
        type: UInt8, timestamp: Int64, value: Int64, name: UInt32, bytes: UnsafeRawBufferPointer
    ) {
        guard let header, let slots else { return }
        let count = UInt64(SideSlot.slots(for: bytes.count))
        if head &+ count &- cachedTail > mask &+ 1 {
            cachedTail = UnsafeAtomic<UInt64>(at: (header + RegionField.ringTail).assumingMemoryBound(
                to: UInt64.AtomicRepresentation.self)).load(ordering: .acquiring)
            if head &+ count &- cachedTail > mask &+ 1 {
                dropped &+= 1
                UnsafeAtomic<UInt64>(at: (header + RegionField.ringDropped).assumingMemoryBound(
                    to: UInt64.AtomicRepresentation.self)).store(dropped, ordering: .releasing)
                return
            }
        }
        var position = head
        func slot(_ at: UInt64) -> UnsafeMutableRawPointer {
            slots + Int(truncatingIfNeeded: at & mask) &* RegionLayout.slotSize
        }
        let first = slot(position)
        first.storeBytes(of: timestamp, toByteOffset: RegionField.slotTimestamp, as: Int64.self)
        first.storeBytes(of: value, toByteOffset: RegionField.slotValue, as: Int64.self)
        first.storeBytes(of: name, toByteOffset: RegionField.slotName, as: UInt32.self)
        first.storeBytes(of: UInt32(bytes.count), toByteOffset: RegionField.slotScene, as: UInt32.self)
        first.storeBytes(of: type, toByteOffset: RegionField.slotType, as: UInt8.self)
        first.storeBytes(of: 0, toByteOffset: RegionField.slotFlags, as: UInt8.self)
        position &+= 1
        var offset = 0
        while offset < bytes.count {
            let target = slot(position)
            let length = min(SideSlot.bytesPerSlot, bytes.count - offset)
            target.copyMemory(from: bytes.baseAddress! + offset, byteCount: length)
            target.storeBytes(of: SideSlot.continuation, toByteOffset: RegionField.slotType, as: UInt8.self)
            offset += length
            position &+= 1
        }
        head = position
        UnsafeAtomic<UInt64>(at: header.assumingMemoryBound(to: UInt64.AtomicRepresentation.self))
            .store(head, ordering: .releasing)
    }
}

/// An image or a stack sample read from a region.
public enum DrainedSideRecord: Hashable, Sendable {
    /// A loaded image; `path` is empty when the region does not hold its name.
    case image(LoadedImage)
    /// A stack sample of `thread`: `frames` outermost first.
    case sample(timestamp: Int64, thread: ThreadID, frames: [UInt64])
}

/// The images and samples a drainer read, until they are taken.
public final class DrainedSideRecords: @unchecked Sendable {
    /// The records read since the last ``take()``.
    public private(set) var records: [DrainedSideRecord] = []

    /// Returns and forgets the records read so far.
    public func take() -> [DrainedSideRecord] {
        defer { records.removeAll(keepingCapacity: true) }
        return records
    }

    func append(_ record: DrainedSideRecord) { records.append(record) }
}

/// A sink that takes stack samples and images besides events: the binary writer.
public protocol StackSampleSink: AnyObject {
    /// Adds a stack sample, frames outermost first.
    func appendSample(timestamp: Int64, thread: ThreadID, frames: [UInt64]) throws(TraceError)
    /// Adds a loaded image.
    func appendImage(_ image: LoadedImage) throws(TraceError)
}

extension TraceWriter: StackSampleSink {}

extension OrderedTraceSink: StackSampleSink {
    /// Passes the sample to the target when it takes samples (they are kept beside the events,
    /// so they need no place in the events' order).
    public func appendSample(timestamp: Int64, thread: ThreadID, frames: [UInt64]) throws(TraceError) {
        try (target as? any StackSampleSink)?.appendSample(timestamp: timestamp, thread: thread, frames: frames)
    }

    /// Passes the image to the target when it takes images.
    public func appendImage(_ image: LoadedImage) throws(TraceError) {
        try (target as? any StackSampleSink)?.appendImage(image)
    }
}

extension StackSampleSink {
    /// Writes `records` (a drain's), skipping samples whose frames are out of the format's range.
    func write(_ records: [DrainedSideRecord]) throws(TraceError) {
        for record in records {
            switch record {
            case .image(let image):
                try appendImage(image)
            case .sample(let timestamp, let thread, let frames):
                guard !frames.isEmpty, frames.count <= SampledStacks.maxDepth else { continue }
                try appendSample(timestamp: timestamp, thread: thread, frames: frames)
            }
        }
    }
}
