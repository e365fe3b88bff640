/// The decoded events of the chunks being merged: one batch of ``BinaryTraceReader/batchSize``
/// events per chunk of the current flush group, in one allocation that grows with the group.
///
/// A class holding a raw allocation rather than an array, so that decoding into a batch and
/// reading events back costs no copy-on-write check and no exclusivity check per event. Every
/// event in it is initialized, and has no line (``TraceEvent/line``); each slot's events carry
/// the number of the chunk decoded into it (``stamp(slot:chunk:)``, once per chunk): the decoder
/// overwrites the other fields only.
@usableFromInline
final class EventBatches {
    /// The first event of slot 0; slot `i` starts at `base + i * batchSize`.
    @usableFromInline
    @exclusivity(unchecked)
    private(set) var base: UnsafeMutablePointer<TraceEvent>
    private var slotCount: Int

    /// Room for one slot.
    init() {
        slotCount = 1
        base = .allocate(capacity: BinaryTraceReader.batchSize)
        base.initialize(repeating: ChunkGroupReader.placeholder, count: BinaryTraceReader.batchSize)
    }

    deinit {
        base.deinitialize(count: slotCount * BinaryTraceReader.batchSize)
        base.deallocate()
    }

    /// Makes room for `count` slots, keeping nothing of the old content.
    func reserve(slots count: Int) {
        guard count > slotCount else { return }
        base.deinitialize(count: slotCount * BinaryTraceReader.batchSize)
        base.deallocate()
        slotCount = count
        base = .allocate(capacity: count * BinaryTraceReader.batchSize)
        base.initialize(repeating: ChunkGroupReader.placeholder, count: count * BinaryTraceReader.batchSize)
    }

    /// Gives every event of `slot` the chunk number `chunk` (0: none), before the chunk decoded
    /// into the slot is read: what each event of a binary trace knows of where it was read.
    func stamp(slot: Int, chunk: UInt32) {
        let start = base + slot * BinaryTraceReader.batchSize
        for index in 0..<BinaryTraceReader.batchSize {
            start[index].storedLine = chunk
            start[index].storedLineIsChunk = chunk != 0
        }
    }

    /// The event at `index` (counted from slot 0).
    @inlinable
    subscript(index: Int) -> TraceEvent {
        base[index]
    }
}
