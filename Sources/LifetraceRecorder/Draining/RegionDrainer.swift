import Atomics
import LifetraceFormat

/// Reads the records of every ring of a region: the consumer side of the rings.
///
/// Only one drainer may read a region. It reads each ring up to the head it loads (acquire), then
/// hands the slots back by storing the tail (release). It works the same whether the recording
/// process is alive or dead: every record whose call returned is below its ring's head.
public final class RegionDrainer: @unchecked Sendable {
    /// The region read.
    public let region: RecorderRegion
    private var droppedSeen: [UInt64]
    private var lastTimestamp: [Int64]
    private var droppedWithoutRingSeen: UInt64 = 0
    /// The latest timestamp read from any ring.
    public private(set) var latestTimestamp: Int64 = 0
    /// Slots read and not passed on because they cannot be an app's event: a type the app never
    /// records (or none), a timestamp outside ``TraceTime/range``, or a ring whose thread number
    /// is past Int64.max. Saturates at Int64.max; each
    /// is also counted in its ring's next `dropped` record, so the trace shows the loss.
    public private(set) var rejectedCount: Int64 = 0
    /// Whether tails wait for ``commit()``: the slots read stay in the ring (and so survive a
    /// kill) until the caller has made them durable.
    public let defersCommit: Bool
    // With a deferred commit: how far each ring was read, and the drop counts reported so far.
    private var readPosition: [UInt64?]

    /// A drainer of `region`, which must be its only drainer. With `defersCommit`, tails advance
    /// only at ``commit()``. With `resuming`, it takes over from a drainer that committed
    /// (the recovery of a killed standalone recorder): drops already reported are not reported again.
    public init(region: RecorderRegion, defersCommit: Bool = false, resuming: Bool = false) {
        self.region = region
        self.defersCommit = defersCommit
        let rings = region.layout.ringCount
        droppedSeen = Array(repeating: 0, count: rings)
        lastTimestamp = Array(repeating: 0, count: rings)
        readPosition = Array(repeating: nil, count: rings)
        if resuming {
            for ring in 0..<rings {
                droppedSeen[ring] = region.ringAtomic(ring, RegionField.ringCommittedDropped).load(ordering: .acquiring)
            }
            droppedWithoutRingSeen = region.atomic(at: RegionField.committedWithoutRing).load(ordering: .acquiring)
        }
    }

    /// Hands every slot read so far back to the producers and records the drops reported, once
    /// the caller made what it read durable.
    public func commit() {
        for ring in 0..<region.layout.ringCount {
            guard let position = readPosition[ring] else { continue }
            region.ringAtomic(ring, RegionField.ringCommittedDropped).store(droppedSeen[ring], ordering: .relaxed)
            region.ringAtomic(ring, RegionField.ringTail).store(position, ordering: .releasing)
            freeIfDrained(ring, tail: position)
        }
        region.atomic(at: RegionField.committedWithoutRing).store(droppedWithoutRingSeen, ordering: .releasing)
    }

    /// The most slots read and not yet committed in any ring.
    public var uncommittedMaximum: UInt64 {
        var most: UInt64 = 0
        for ring in 0..<region.layout.ringCount {
            guard let position = readPosition[ring] else { continue }
            most = max(most, position &- region.ringAtomic(ring, RegionField.ringTail).load(ordering: .relaxed))
        }
        return most
    }

    /// Frees a retired ring whose every slot was read and handed back.
    private func freeIfDrained(_ ring: Int, tail: UInt64) {
        let stateWord = region.ringAtomic(ring, RegionField.ringState).load(ordering: .acquiring)
        if stateWord == RingState.retired.rawValue,
            region.ringAtomic(ring, RegionField.ringHead).load(ordering: .acquiring) == tail
        {
            _ = region.ringAtomic(ring, RegionField.ringState).compareExchange(
                expected: RingState.retired.rawValue, desired: RingState.free.rawValue, ordering: .releasing)
            readPosition[ring] = nil
        }
    }

    /// Appends every committed record (each ring's in its order) and a `dropped` record for each
    /// ring that lost events since the last call. Returns the number of records appended.
    @discardableResult
    public func drain(into events: inout [DrainedEvent]) -> Int {
        let start = events.count
        let layout = region.layout
        let mask = UInt64(layout.ringCapacity - 1)
        for ring in 0..<layout.ringCount {
            let stateWord = region.ringAtomic(ring, RegionField.ringState).load(ordering: .acquiring)
            if stateWord == RingState.free.rawValue { continue }
            let head = region.ringAtomic(ring, RegionField.ringHead).load(ordering: .acquiring)
            let tailAtomic = region.ringAtomic(ring, RegionField.ringTail)
            var tail = readPosition[ring] ?? tailAtomic.load(ordering: .relaxed)
            let threadWord = region.ringAtomic(ring, RegionField.ringThread).load(ordering: .relaxed)
            // A recorder numbers threads from 0 as they first record; a number past Int64.max
            // (which no output can print as a signed integer) is damage: the ring's slots are
            // rejected, and its drops reported on the main thread.
            let threadInRange = threadWord <= UInt64(Int64.max)
            let thread = threadInRange ? ThreadID(rawValue: threadWord) : .main
            // A head more than a ring ahead means the producer's memory was damaged; skip the lost part.
            if head &- tail > UInt64(layout.ringCapacity) { tail = head &- UInt64(layout.ringCapacity) }
            let slots = region.base + layout.slotsOffset(ring: ring)
            // The slots are another process's word, checked as a reader checks a file's records.
            var rejected: UInt64 = 0
            while tail != head {
                let slot = slots + Int(truncatingIfNeeded: tail & mask) &* RegionLayout.slotSize
                let type = EventType(rawValue: slot.load(fromByteOffset: RegionField.slotType, as: UInt8.self))
                let timestamp = slot.load(fromByteOffset: RegionField.slotTimestamp, as: Int64.self)
                if threadInRange, let type, Self.isAppEvent(type), TraceTime.contains(timestamp) {
                    events.append(
                        DrainedEvent(
                            timestamp: timestamp, type: type, thread: thread,
                            name: slot.load(fromByteOffset: RegionField.slotName, as: UInt32.self),
                            scene: slot.load(fromByteOffset: RegionField.slotScene, as: UInt32.self),
                            value: slot.load(fromByteOffset: RegionField.slotValue, as: Int64.self),
                            hasValue: slot.load(fromByteOffset: RegionField.slotFlags, as: UInt8.self)
                                & SlotFlags.hasValue != 0))
                    lastTimestamp[ring] = max(lastTimestamp[ring], timestamp)
                    latestTimestamp = max(latestTimestamp, timestamp)
                } else {
                    rejected &+= 1
                }
                tail &+= 1
            }
            if defersCommit {
                readPosition[ring] = tail
            } else {
                tailAtomic.store(tail, ordering: .releasing)
            }
            let dropped = region.ringAtomic(ring, RegionField.ringDropped).load(ordering: .acquiring)
            let lost = Self.newDrops(dropped, seen: droppedSeen[ring])
            droppedSeen[ring] = dropped
            if lost > 0 || rejected > 0 {
                events.append(droppedEvent(count: Self.saturatingSum(lost, rejected), at: lastTimestamp[ring], thread: thread))
                rejectedCount = TraceTime.advanced(rejectedCount, by: Int64(clamping: rejected))
            }
            if !defersCommit { freeIfDrained(ring, tail: tail) }
        }
        let withoutRing = region.droppedWithoutRing
        let lostWithoutRing = Self.newDrops(withoutRing, seen: droppedWithoutRingSeen)
        droppedWithoutRingSeen = withoutRing
        if lostWithoutRing > 0 {
            events.append(droppedEvent(count: lostWithoutRing, at: latestTimestamp, thread: .main))
        }
        return events.count - start
    }

    /// Whether an app records events of `type` (the system's `launch`, `state` and `exit` are
    /// written by whoever drains, never read from a ring).
    static func isAppEvent(_ type: EventType) -> Bool {
        switch type {
        case .launch, .state, .exit: false
        default: true
        }
    }

    /// The drops a counter gained since `seen`; a counter that went backwards (damaged, or
    /// written by a hostile process) gained none.
    static func newDrops(_ counter: UInt64, seen: UInt64) -> UInt64 { counter > seen ? counter - seen : 0 }

    static func saturatingSum(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// A `dropped` record of `count` events, saturated at Int64.max (a count a trace can hold).
    private func droppedEvent(count: UInt64, at timestamp: Int64, thread: ThreadID) -> DrainedEvent {
        DrainedEvent(
            timestamp: timestamp, type: .dropped, thread: thread, name: 0, scene: 0,
            value: Int64(clamping: count), hasValue: true)
    }

    /// The total number of events the region's producers dropped so far.
    public var droppedTotal: UInt64 {
        (0..<region.layout.ringCount).reduce(region.droppedWithoutRing) {
            Self.saturatingSum($0, region.ringAtomic($1, RegionField.ringDropped).load(ordering: .relaxed))
        }
    }
}
