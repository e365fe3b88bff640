import Atomics
import Foundation
import LifetraceFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One thread's producer state for its ring, kept in the thread's pthread-specific slot.
///
/// Only the owning thread touches it, so the head and the cached tail are plain fields; the
/// region's atomics are what the drainer sees.
struct ThreadRing {
    /// The ring's header in the region, nil when no ring was free (the thread's events are dropped).
    var header: UnsafeMutableRawPointer?
    /// The ring's first slot.
    var slots: UnsafeMutableRawPointer?
    /// `ringCapacity - 1`.
    var mask: UInt64
    /// The next position to write; mirrors the header's head.
    var head: UInt64
    /// The drainer's tail as last read; reloaded only when the ring looks full.
    var cachedTail: UInt64
    /// Events this thread dropped because its ring was full; mirrors the header's counter.
    var dropped: UInt64
    /// The region's header, for the count of events dropped without a ring.
    var regionBase: UnsafeMutableRawPointer

    /// Writes one record and publishes it; drops it if the ring is full. No lock, no allocation,
    /// no system call.
    @inline(__always)
    mutating func write(
        timestamp: Int64, type: EventType, name: UInt32, scene: UInt32, value: Int64, flags: UInt8
    ) {
        guard let header, let slots else {
            UnsafeAtomic<UInt64>(at: (regionBase + RegionField.droppedWithoutRing).assumingMemoryBound(
                to: UInt64.AtomicRepresentation.self)).wrappingIncrement(ordering: .relaxed)
            return
        }
        if head &- cachedTail > mask {
            cachedTail = UnsafeAtomic<UInt64>(at: (header + RegionField.ringTail).assumingMemoryBound(
                to: UInt64.AtomicRepresentation.self)).load(ordering: .acquiring)
            if head &- cachedTail > mask {
                dropped &+= 1
                UnsafeAtomic<UInt64>(at: (header + RegionField.ringDropped).assumingMemoryBound(
                    to: UInt64.AtomicRepresentation.self)).store(dropped, ordering: .releasing)
                return
            }
        }
        let slot = slots + Int(truncatingIfNeeded: head & mask) &* RegionLayout.slotSize
        slot.storeBytes(of: timestamp, toByteOffset: RegionField.slotTimestamp, as: Int64.self)
        slot.storeBytes(of: value, toByteOffset: RegionField.slotValue, as: Int64.self)
        slot.storeBytes(of: name, toByteOffset: RegionField.slotName, as: UInt32.self)
        slot.storeBytes(of: scene, toByteOffset: RegionField.slotScene, as: UInt32.self)
        slot.storeBytes(of: type.rawValue, toByteOffset: RegionField.slotType, as: UInt8.self)
        slot.storeBytes(of: flags, toByteOffset: RegionField.slotFlags, as: UInt8.self)
        head &+= 1
        // The release store is the record's commit: a drainer that sees this head sees the bytes.
        UnsafeAtomic<UInt64>(at: header.assumingMemoryBound(to: UInt64.AtomicRepresentation.self))
            .store(head, ordering: .releasing)
    }

    /// Claims a free ring of `region` for the calling thread, or returns a state that drops.
    static func claim(in region: RecorderRegion) -> ThreadRing {
        let layout = region.layout
        var state = ThreadRing(
            header: nil, slots: nil, mask: UInt64(layout.ringCapacity - 1), head: 0, cachedTail: 0,
            dropped: 0, regionBase: region.base)
        for ring in 0..<layout.ringCount {
            let ringState = region.ringAtomic(ring, RegionField.ringState)
            guard
                ringState.compareExchange(
                    expected: RingState.free.rawValue, desired: RingState.owned.rawValue, ordering: .acquiring
                ).exchanged
            else { continue }
            let thread: ThreadID
            if Thread.isMainThread {
                thread = .main
            } else {
                let number = region.atomic(at: RegionField.nextThreadNumber).loadThenWrappingIncrement(
                    ordering: .relaxed)
                thread = .numbered(number + 1)
            }
            region.ringAtomic(ring, RegionField.ringThread).store(thread.rawValue, ordering: .relaxed)
            state.header = region.base + layout.ringHeaderOffset(ring)
            state.slots = region.base + layout.slotsOffset(ring: ring)
            state.head = region.ringAtomic(ring, RegionField.ringHead).load(ordering: .relaxed)
            state.cachedTail = region.ringAtomic(ring, RegionField.ringTail).load(ordering: .acquiring)
            state.dropped = region.ringAtomic(ring, RegionField.ringDropped).load(ordering: .relaxed)
            return state
        }
        return state
    }

    /// Gives the ring back when its thread exits; the drainer frees it once it has read it all.
    func retire() {
        guard let header else { return }
        UnsafeAtomic<UInt64>(at: (header + RegionField.ringState).assumingMemoryBound(
            to: UInt64.AtomicRepresentation.self)).store(RingState.retired.rawValue, ordering: .releasing)
    }
}

/// Flag bits of an event slot.
enum SlotFlags {
    /// The slot's value field holds the event's optional id or flag.
    static let hasValue: UInt8 = 1
}
