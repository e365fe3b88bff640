import Foundation

/// Reads a binary trace on a second thread: a ``BinaryTraceReader`` decodes ahead (reading,
/// checksums, decompression, record decoding and the merge of streams) while the caller
/// consumes the events it has already decoded.
///
/// Events come in the same order, with the same symbols, as from the reader itself. They travel
/// in a few fixed blocks that go back and forth between the two threads, so memory stays bounded
/// (``blockCapacity`` events per block, ``depth`` blocks) whatever the trace's size, and nothing
/// is allocated per event. ``issues`` and ``summary`` are complete once ``next()`` or
/// ``nextBatch(_:)`` has returned the end; ``metadata`` is known from the start.
///
/// Copies share the background reader, so use one copy. Dropping the reader before the end stops
/// the background thread.
public struct PrefetchingTraceReader: TraceEventSource {
    /// The number of events a block holds: small enough for a block to stay in a core's cache
    /// between the two threads, large enough for hand-overs to be rare.
    public static let blockCapacity = 4_096
    /// The number of blocks in flight: one being filled, the rest decoded ahead or being read.
    public static let depth = 4

    /// The trace's metadata, from the file header.
    public let metadata: TraceMetadata
    /// The strings behind the symbols of the events returned so far.
    public private(set) var symbols: SymbolTable
    /// The number of strings in ``symbols``.
    public var symbolCount: Int { symbols.count }
    /// Problems met and recovered from; complete at the end.
    public private(set) var issues: [TraceError] = []
    /// Totals over the whole trace; complete at the end.
    public private(set) var summary: BinaryTraceSummary
    /// The stack samples and loaded images; complete at the end.
    public private(set) var sampledStacks = SampledStacks()
    /// The places of the chunks read, filled by the decoding thread before their events arrive.
    public let chunkPositions: ChunkPositions?

    private let handle: Handle
    /// The queues shared with the decoding thread.
    var channel: BlockChannel { handle.channel }
    private var block: EventBlock?
    private var index = 0
    private var ended = false

    /// Starts reading `reader`'s events on a background thread.
    public init(_ reader: BinaryTraceReader) {
        metadata = reader.metadata
        symbols = reader.symbols
        summary = reader.summary
        chunkPositions = reader.chunkPositions
        let channel = BlockChannel(blocks: (0..<Self.depth).map { _ in EventBlock(capacity: Self.blockCapacity) })
        handle = Handle(channel: channel)
        let producer = Producer(reader: reader, channel: channel)
        let thread = Thread { producer.run() }
        thread.name = "lifetrace.decode"
        thread.start()
    }

    /// The next event, or nil at the end.
    public mutating func next() throws(TraceError) -> TraceEvent? {
        while true {
            if let block, index < block.count {
                let event = block.events[index]
                index += 1
                return event
            }
            guard try advance() else { return nil }
        }
    }

    /// Calls `body` with the rest of the current block's events, waiting for the next block
    /// when none is left; returns false at the end.
    public mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) throws(TraceError) -> Bool {
        while true {
            if let block, index < block.count {
                let start = index
                index = block.count
                body(UnsafeBufferPointer(start: block.events + start, count: block.count - start), symbols)
                return true
            }
            guard try advance() else { return false }
        }
    }

    // Hands the finished block back and takes the next one; false (after taking the reader's
    // issues and summary) at the end.
    private mutating func advance() throws(TraceError) -> Bool {
        if ended { return false }
        if let block {
            handle.channel.recycle(block)
            self.block = nil
        }
        switch handle.channel.take() {
        case .block(let next):
            block = next
            index = 0
            symbols = next.symbols
            return true
        case .end(let end):
            ended = true
            issues = end.issues
            summary = end.summary
            symbols = end.symbols
            sampledStacks = end.sampledStacks
            if let error = end.error { throw error }
            return false
        }
    }
}

/// A fixed buffer of decoded events and the symbol table that resolves them.
final class EventBlock: @unchecked Sendable {
    let events: UnsafeMutablePointer<TraceEvent>
    let capacity: Int
    var count = 0
    var symbols = SymbolTable()

    init(capacity: Int) {
        self.capacity = capacity
        events = .allocate(capacity: capacity)
    }

    deinit {
        events.deinitialize(count: count)
        events.deallocate()
    }

    /// Appends what fits of `batch`; returns how many were taken.
    func append(_ batch: UnsafeBufferPointer<TraceEvent>) -> Int {
        let taken = min(batch.count, capacity - count)
        guard taken > 0, let source = batch.baseAddress else { return 0 }
        (events + count).initialize(from: source, count: taken)
        count += taken
        return taken
    }

    /// Empties the block for reuse.
    func clear() {
        events.deinitialize(count: count)
        count = 0
    }
}

/// What the background thread leaves when it is done.
struct ReaderEnd: Sendable {
    var issues: [TraceError]
    var summary: BinaryTraceSummary
    var symbols: SymbolTable
    var error: TraceError?
    var sampledStacks = SampledStacks()
}

/// The background side: fills free blocks from the reader and publishes them in order.
private final class Producer: @unchecked Sendable {
    // Owned by the background thread once it starts.
    private var reader: BinaryTraceReader
    private let channel: BlockChannel

    init(reader: BinaryTraceReader, channel: BlockChannel) {
        self.reader = reader
        self.channel = channel
    }

    func run() {
        defer { channel.decoderEnds() }
        var block = channel.free()
        var failure: TraceError?
        do {
            while block != nil {
                let more = try reader.nextBatch { batch, symbols in
                    var rest = batch
                    while let current = block, !rest.isEmpty {
                        let taken = current.append(rest)
                        rest = UnsafeBufferPointer(rebasing: rest[taken...])
                        if current.count == current.capacity {
                            // The table only grows: the latest one resolves the whole block.
                            current.symbols = symbols
                            channel.publish(current)
                            block = channel.free()
                        }
                    }
                }
                if !more { break }
            }
        } catch {
            failure = error
        }
        guard let last = block else { return }
        if last.count > 0 {
            last.symbols = reader.symbols
            channel.publish(last)
        } else {
            channel.recycle(last)
        }
        channel.finish(ReaderEnd(
            issues: reader.issues, summary: reader.summary, symbols: reader.symbols, error: failure,
            sampledStacks: reader.sampledStacks))
    }
}

/// Stops the background thread when the consuming side is dropped.
private final class Handle {
    let channel: BlockChannel

    init(channel: BlockChannel) { self.channel = channel }

    deinit { channel.cancel() }
}
