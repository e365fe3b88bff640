/// The decoded events of the chunks being merged: one batch of ``BinaryTraceReader/batchSize``
/// events per chunk of the current flush group, in one allocation that grows with the group.
///
/// A class holding a raw allocation rather than an array, so that decoding into a batch and
/// reading events back costs no copy-on-write check and no exclusivity check per event. Every
/// event in it is initialized, and has no line (``TraceEvent/line``): the decoder overwrites the
/// other fields only.
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

    /// The event at `index` (counted from slot 0).
    @inlinable
    subscript(index: Int) -> TraceEvent {
        base[index]
    }
}
