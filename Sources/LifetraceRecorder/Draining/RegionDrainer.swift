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
    /// The names of the region, read once each and checked (see ``RegionNames``).
    public let names: RegionNames
    /// The images and stack samples read, until taken (docs/RECORDING.md, "Stack samples").
    public let sideRecords = DrainedSideRecords()
    /// The latest timestamp read from any ring.
    public private(set) var latestTimestamp: Int64 = 0
    /// Slots read and not passed on because they cannot be an app's event: a type the app never
    /// records (none, a system type, or `dropped`), a timestamp outside ``TraceTime/range``, a
    /// name or scene id the region holds no name for (or a name that is not UTF-8), or a ring
    /// whose thread number is past Int64.max. Saturates at Int64.max; each
    /// is also counted in its ring's next `dropped` record, so the trace shows the loss.
    public private(set) var rejectedCount: Int64 = 0
    /// Whether tails wait for ``commit()``: the slots read stay in the ring (and so survive a
    /// kill) until the caller has made them durable.
    public let defersCommit: Bool
    // With a deferred commit: how far each ring was read, and the drop counts reported so far.
    private var readPosition: [UInt64?]
    /// With `givesUpOnDamage`: the slots read so far, and whether the drain gave up.
    private let damage: DamageTally?

    /// The slots a drain that gives up on damage reads at least before it may give up: 4,096.
    public static let damageSample: UInt64 = 4096

    /// Whether the drain gave up on the region: at least ``damageSample`` slots were invalid and
    /// more than the valid ones read (the region's slots are mostly not events).
    public var gaveUp: Bool { damage?.gaveUp ?? false }
    /// The valid and invalid slots read so far, when the drain gives up on damage.
    public var slotsRead: (valid: UInt64, invalid: UInt64)? { damage.map { ($0.valid, $0.invalid) } }
    /// The slots the region claimed and the drain did not read, once it gave up; counted in the
    /// rings' `dropped` records.
    public private(set) var unreadSlots: UInt64 = 0

    /// A drainer of `region`, which must be its only drainer. With `defersCommit`, tails advance
    /// only at ``commit()``. With `resuming`, it takes over from a drainer that committed
    /// (the recovery of a killed standalone recorder): drops already reported are not reported again.
    /// With `givesUpOnDamage` (a recovery), it stops reading a region whose slots are mostly
    /// invalid (``gaveUp``) instead of reading every slot the rings claim.
    public init(region: RecorderRegion, defersCommit: Bool = false, resuming: Bool = false, givesUpOnDamage: Bool = false) {
        self.region = region
        self.defersCommit = defersCommit
        damage = givesUpOnDamage ? DamageTally() : nil
        names = RegionNames(region: region)
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
        for ring in 0..<region.layout.ringCount {
            guard var reader = openRing(ring) else { continue }
            while let record = reader.next() {
                events.append(record)
                latestTimestamp = max(latestTimestamp, record.timestamp)
            }
            if let dropped = closeRing(reader) { events.append(dropped) }
        }
        if let dropped = droppedWithoutRing() { events.append(dropped) }
        return events.count - start
    }

    /// Reads what ``drain(into:)`` reads, but hands the records to `body` one at a time, the rings
    /// merged by timestamp (each ring is in its thread's order, which a clock that never goes back
    /// makes timestamp order), so that memory stays bounded by the number of rings, not by the
    /// records the region holds: a recovery of a full region reads a million records.
    public func drainMerged<Failure: Error>(_ body: (DrainedEvent) throws(Failure) -> Void) throws(Failure) {
        var readers: [RingReader] = []
        var heap = RecordHeap()
        for ring in 0..<region.layout.ringCount {
            guard var reader = openRing(ring) else { continue }
            if let first = reader.next() {
                heap.push(first, source: readers.count)
            } else if let dropped = closeRing(reader) {
                heap.push(dropped, source: -1)
            }
            readers.append(reader)
        }
        while let (record, source) = heap.pop() {
            latestTimestamp = max(latestTimestamp, record.timestamp)
            try body(record)
            guard source >= 0 else { continue }
            if let next = readers[source].next() {
                heap.push(next, source: source)
            } else if let dropped = closeRing(readers[source]) {
                heap.push(dropped, source: -1)
            }
        }
        if let dropped = droppedWithoutRing() { try body(dropped) }
    }

    /// The unread records of `ring`, or nil for a free ring.
    private func openRing(_ ring: Int) -> RingReader? {
        let layout = region.layout
        let stateWord = region.ringAtomic(ring, RegionField.ringState).load(ordering: .acquiring)
        let head = region.ringAtomic(ring, RegionField.ringHead).load(ordering: .acquiring)
        var tail = readPosition[ring] ?? region.ringAtomic(ring, RegionField.ringTail).load(ordering: .relaxed)
        // A ring is freed only once read to its head; a free ring that still holds records (a
        // damaged state word) is read like any other rather than skipped.
        if stateWord == RingState.free.rawValue && head == tail { return nil }
        let threadWord = region.ringAtomic(ring, RegionField.ringThread).load(ordering: .relaxed)
        // A head more than a ring ahead means the producer's memory was damaged; skip the lost part.
        if head &- tail > UInt64(layout.ringCapacity) { tail = head &- UInt64(layout.ringCapacity) }
        return RingReader(
            ring: ring, threadWord: threadWord, slots: region.base + layout.slotsOffset(ring: ring),
            mask: UInt64(layout.ringCapacity - 1), position: tail, end: head, lastTimestamp: lastTimestamp[ring],
            names: names, side: sideRecords, damage: damage)
    }

    /// Hands the ring's slots back (or records how far it was read), and returns the `dropped`
    /// record for the events it lost and the slots rejected since the last call, if any.
    private func closeRing(_ reader: RingReader) -> DrainedEvent? {
        let ring = reader.ring
        lastTimestamp[ring] = reader.lastTimestamp
        if defersCommit {
            readPosition[ring] = reader.position
        } else {
            region.ringAtomic(ring, RegionField.ringTail).store(reader.position, ordering: .releasing)
        }
        let dropped = region.ringAtomic(ring, RegionField.ringDropped).load(ordering: .acquiring)
        let lost = Self.newDrops(dropped, seen: droppedSeen[ring])
        droppedSeen[ring] = dropped
        // Slots left unread when the drain gave up are lost with the rejected ones.
        let unread = gaveUp ? reader.end &- reader.position : 0
        unreadSlots = Self.saturatingSum(unreadSlots, unread)
        var event: DrainedEvent?
        if lost > 0 || reader.rejected > 0 || unread > 0 {
            event = droppedEvent(
                count: Self.saturatingSum(Self.saturatingSum(lost, reader.rejected), unread), at: reader.lastTimestamp,
                thread: reader.thread)
            rejectedCount = TraceTime.advanced(rejectedCount, by: Int64(clamping: reader.rejected))
        }
        if !defersCommit { freeIfDrained(ring, tail: reader.position) }
        return event
    }

    /// The `dropped` record for events dropped without a ring since the last call, if any.
    private func droppedWithoutRing() -> DrainedEvent? {
        let withoutRing = region.droppedWithoutRing
        let lost = Self.newDrops(withoutRing, seen: droppedWithoutRingSeen)
        droppedWithoutRingSeen = withoutRing
        return lost > 0 ? droppedEvent(count: lost, at: latestTimestamp, thread: .main) : nil
    }

    /// Whether an app records events of `type` (the system's `launch`, `state` and `exit`, and
    /// `dropped`, are written by whoever drains, never read from a ring).
    static func isAppEvent(_ type: EventType) -> Bool {
        switch type {
        case .launch, .state, .exit, .dropped: false
        case .callbackBegin, .callbackEnd, .runloopWake, .runloopSleep, .signpostBegin, .signpostEnd, .mark, .frame,
            .bgtaskBegin, .bgtaskEnd, .bgtaskExpire:
            true
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

/// One ring's unread slots, read one record at a time and checked as a reader checks a file's
/// records (the slots are another process's word).
struct RingReader {
    let ring: Int
    let thread: ThreadID
    /// A recorder numbers threads from 0 as they first record; a number past Int64.max (which no
    /// output can print as a signed integer) is damage: the ring's slots are rejected, and its
    /// drops reported on the main thread.
    let threadInRange: Bool
    let slots: UnsafeMutableRawPointer
    let mask: UInt64
    /// The next position to read, and the head.
    private(set) var position: UInt64
    let end: UInt64
    /// Slots read and rejected: no app event type (a system type or `dropped`), a time outside
    /// ±2^60 ns, or a name or scene the region cannot resolve.
    private(set) var rejected: UInt64 = 0
    /// The latest timestamp of the ring's records so far.
    private(set) var lastTimestamp: Int64
    let names: RegionNames
    let side: DrainedSideRecords?
    /// The drain's tally of valid and invalid slots, when it gives up on damage.
    let damage: DamageTally?

    init(
        ring: Int, threadWord: UInt64, slots: UnsafeMutableRawPointer, mask: UInt64, position: UInt64, end: UInt64,
        lastTimestamp: Int64, names: RegionNames, side: DrainedSideRecords? = nil, damage: DamageTally? = nil
    ) {
        self.names = names
        self.side = side
        self.damage = damage
        self.ring = ring
        threadInRange = threadWord <= UInt64(Int64.max)
        thread = threadInRange ? ThreadID(rawValue: threadWord) : .main
        self.slots = slots
        self.mask = mask
        self.position = position
        self.end = end
        self.lastTimestamp = lastTimestamp
    }

    /// The next record that can be an app's event, or nil at the head (or once the drain gave up
    /// on the region's damage).
    mutating func next() -> DrainedEvent? {
        while position != end {
            if let damage, damage.gaveUp { return nil }
            let slot = slots + Int(truncatingIfNeeded: position & mask) &* RegionLayout.slotSize
            position &+= 1
            let rawType = slot.load(fromByteOffset: RegionField.slotType, as: UInt8.self)
            if rawType == SideSlot.image || rawType == SideSlot.sample {
                readSideRecord(head: slot, type: rawType)
                continue
            }
            let type = EventType(rawValue: rawType)
            let timestamp = slot.load(fromByteOffset: RegionField.slotTimestamp, as: Int64.self)
            guard threadInRange, let type, RegionDrainer.isAppEvent(type), TraceTime.contains(timestamp) else {
                rejected &+= 1
                damage?.rejected()
                continue
            }
            let record = DrainedEvent(
                timestamp: timestamp, type: type, thread: thread,
                name: slot.load(fromByteOffset: RegionField.slotName, as: UInt32.self),
                scene: slot.load(fromByteOffset: RegionField.slotScene, as: UInt32.self),
                value: slot.load(fromByteOffset: RegionField.slotValue, as: Int64.self),
                hasValue: slot.load(fromByteOffset: RegionField.slotFlags, as: UInt8.self) & SlotFlags.hasValue != 0)
            // A name the region does not hold is damage: the record is dropped and counted, never
            // written under an invented name.
            guard !record.usesName || names.resolves(record.name), !record.usesScene || names.resolves(record.scene) else {
                rejected &+= 1
                damage?.rejected()
                continue
            }
            damage?.accepted()
            lastTimestamp = max(lastTimestamp, timestamp)
            return record
        }
        return nil
    }
}

extension RingReader {
    /// Reads an image or sample whose head slot is `head` (its continuation slots follow) and
    /// hands it to ``side``; a record cut by the head, longer than allowed, with a slot that is
    /// not its continuation or stamped outside ±2^60 ns is rejected whole.
    mutating func readSideRecord(head: UnsafeMutableRawPointer, type: UInt8) {
        let byteCount = Int(head.load(fromByteOffset: RegionField.slotScene, as: UInt32.self))
        let timestamp = head.load(fromByteOffset: RegionField.slotTimestamp, as: Int64.self)
        let value = head.load(fromByteOffset: RegionField.slotValue, as: Int64.self)
        let name = head.load(fromByteOffset: RegionField.slotName, as: UInt32.self)
        let continuations = UInt64(SideSlot.slots(for: byteCount) - 1)
        guard byteCount <= SideSlot.maxBytes, end &- position >= continuations else {
            rejected &+= 1
            position = byteCount <= SideSlot.maxBytes ? end : position
            return
        }
        var bytes = [UInt8](repeating: 0, count: byteCount)
        var valid = threadInRange && TraceTime.contains(timestamp)
        for index in 0..<Int(continuations) {
            let slot = slots + Int(truncatingIfNeeded: position & mask) &* RegionLayout.slotSize
            position &+= 1
            if slot.load(fromByteOffset: RegionField.slotType, as: UInt8.self) != SideSlot.continuation { valid = false }
            let start = index * SideSlot.bytesPerSlot
            let length = min(SideSlot.bytesPerSlot, byteCount - start)
            bytes.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: start).copyMemory(from: slot, byteCount: length) }
        }
        guard valid, let side else {
            if !valid { rejected &+= 1 }
            return
        }
        if type == SideSlot.sample {
            guard byteCount >= 8, byteCount % 8 == 0, value >= 0 else {
                rejected &+= 1
                return
            }
            let frames = stride(from: byteCount - 8, through: 0, by: -8).map { offset in
                bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
            }
            side.append(.sample(timestamp: timestamp, thread: ThreadID(rawValue: UInt64(value)), frames: frames))
        } else {
            guard byteCount >= 8 else {
                rejected &+= 1
                return
            }
            let size = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self) }
            let base = UInt64(bitPattern: value)
            side.append(.image(LoadedImage(
                timestamp: timestamp, path: names.name(name) ?? "", buildID: hexString(bytes[8...]),
                base: base, size: LoadedImage.sizeWithinAddressSpace(base: base, size: size))))
        }
        lastTimestamp = max(lastTimestamp, timestamp)
    }
}

/// The valid and invalid slots a drain read over all rings, for a drain that gives up on a region
/// whose slots are mostly invalid: once at least ``RegionDrainer/damageSample`` slots were invalid
/// and the invalid outnumber the valid, it reads no more.
final class DamageTally {
    private(set) var valid: UInt64 = 0
    private(set) var invalid: UInt64 = 0
    private(set) var gaveUp = false

    @inline(__always)
    func accepted() { valid &+= 1 }

    @inline(__always)
    func rejected() {
        invalid &+= 1
        if invalid >= RegionDrainer.damageSample && invalid > valid { gaveUp = true }
    }
}

/// The next record of each ring, smallest timestamp first (then the lower ring): a binary heap
/// of at most one entry per ring.
struct RecordHeap {
    private var entries: [(record: DrainedEvent, source: Int, order: Int)] = []
    private var pushed = 0

    private func less(_ a: Int, _ b: Int) -> Bool {
        let (left, right) = (entries[a].record.timestamp, entries[b].record.timestamp)
        return left < right || (left == right && entries[a].order < entries[b].order)
    }

    /// Adds `record` read from reader `source` (-1: a `dropped` record with no reader behind it).
    mutating func push(_ record: DrainedEvent, source: Int) {
        // Ties go to the entry pushed first: the lower ring at the start, then arrival order.
        entries.append((record, source, pushed))
        pushed += 1
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the smallest entry.
    mutating func pop() -> (DrainedEvent, Int)? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let top = entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < entries.count && less(left, smallest) { smallest = left }
            if right < entries.count && less(right, smallest) { smallest = right }
            guard smallest != parent else { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return (top.record, top.source)
    }
}

/// The names of a region's symbol slots, read once each: a name is kept only if its slot was
/// written (a committed length within the slot) and holds UTF-8, so that a record whose name
/// cannot be read is rejected by the drainer rather than given an invented or altered name.
public final class RegionNames: @unchecked Sendable {
    private let region: RecorderRegion
    private var read: [UInt32: String] = [:]

    init(region: RecorderRegion) { self.region = region }

    /// Whether `id` is 0 (no name) or names a name the region holds.
    func resolves(_ id: UInt32) -> Bool { id == 0 || name(id) != nil }

    /// The name of `id`, or nil if the region holds none (or none in UTF-8).
    public func name(_ id: UInt32) -> String? {
        if let known = read[id] { return known }
        guard let name = region.symbol(id) else { return nil }
        read[id] = name
        return name
    }
}
