import Foundation

/// The two queues between the decoding thread and the consuming thread of a
/// ``PrefetchingTraceReader``: free blocks going to the decoder, filled blocks (then the end)
/// going to the consumer. Both wait on one condition; every block is in exactly one place at a
/// time (a queue, the decoder or the consumer), so the number of blocks bounds the memory.
final class BlockChannel: @unchecked Sendable {
    /// What the consumer takes next.
    enum Item {
        case block(EventBlock)
        case end(ReaderEnd)
    }

    private let condition = NSCondition()
    // All guarded by `condition`.
    private var freeBlocks: [EventBlock]
    private var filled: [EventBlock] = []
    private var filledHead = 0
    private var end: ReaderEnd?
    private var cancelled = false
    private var decoderDone = false

    init(blocks: [EventBlock]) {
        freeBlocks = blocks
        filled.reserveCapacity(blocks.count)
    }

    /// A free block for the decoder, waiting for one; nil once the consumer is gone.
    func free() -> EventBlock? {
        condition.lock()
        defer { condition.unlock() }
        while freeBlocks.isEmpty && !cancelled { condition.wait() }
        if cancelled { return nil }
        let block = freeBlocks.removeLast()
        block.clear()
        return block
    }

    /// Queues a filled block for the consumer.
    func publish(_ block: EventBlock) {
        condition.lock()
        filled.append(block)
        condition.signal()
        condition.unlock()
    }

    /// Records the end, after the last published block.
    func finish(_ end: ReaderEnd) {
        condition.lock()
        self.end = end
        condition.signal()
        condition.unlock()
    }

    /// The next filled block, or the end, waiting for either.
    func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while filledHead == filled.count && end == nil { condition.wait() }
        if filledHead < filled.count {
            let block = filled[filledHead]
            filledHead += 1
            if filledHead == filled.count {
                filled.removeAll(keepingCapacity: true)
                filledHead = 0
            }
            return .block(block)
        }
        return .end(end!)
    }

    /// Gives a block the consumer has finished with back to the decoder.
    func recycle(_ block: EventBlock) {
        condition.lock()
        freeBlocks.append(block)
        condition.signal()
        condition.unlock()
    }

    /// Whether the decoding thread has returned.
    var decoderHasEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return decoderDone
    }

    /// Called by the decoding thread as it returns.
    func decoderEnds() {
        condition.lock()
        decoderDone = true
        condition.unlock()
    }

    /// Tells the decoder to stop: the consumer will take nothing more.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
