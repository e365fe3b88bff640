/// Something that yields a trace's events in order, with their strings and metadata.
///
/// Both the binary reader and the JSONL reader conform, so that analysis code is written once
/// and specialised for each (use it as a generic constraint, not as an existential, on hot paths).
public protocol TraceEventSource {
    /// The trace's metadata.
    var metadata: TraceMetadata { get }
    /// The strings behind the events' symbols; grows as events are read.
    var symbols: SymbolTable { get }
    /// The number of strings in ``symbols``, without copying the table: consumers that keep a
    /// copy of the table compare it with their copy's count to learn that the table has grown.
    var symbolCount: Int { get }
    /// The stack samples and loaded images read so far, kept beside the events.
    var sampledStacks: SampledStacks { get }
    /// Problems met and recovered from so far (a truncated end, a skipped corrupt chunk).
    var issues: [TraceError] { get }
    /// The places of the chunks read, by the number each event carries
    /// (``TraceEvent/chunkNumber``); nil for a source that reads no chunks.
    var chunkPositions: ChunkPositions? { get }
    /// The next event, or nil at the end. Throws only when nothing more can be read.
    mutating func next() throws(TraceError) -> TraceEvent?
    /// Reads the next events and calls `body` with them, in order, and with the table that
    /// resolves their symbols; returns false, without calling `body`, at the end.
    ///
    /// The buffer is only valid during the call. It holds the same events ``next()`` would
    /// return, as many as the source has at hand: a binary trace passes a decoded run of events
    /// at a time, so that a consumer's loop costs no call and no symbol-table check per event.
    /// Throws only when nothing more can be read.
    mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) throws(TraceError) -> Bool
}

extension TraceEventSource {
    /// The stack samples and loaded images read so far; none for a source that has no such
    /// records (docs/FORMAT.md, "Stack samples").
    public var sampledStacks: SampledStacks { SampledStacks() }

    /// No chunks: the source is not a binary trace.
    public var chunkPositions: ChunkPositions? { nil }

    /// The number of strings in ``symbols`` (a source that can tell it without copying the table
    /// should say so).
    public var symbolCount: Int { symbols.count }

    /// One event at a time, from ``next()``.
    public mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) throws(TraceError) -> Bool {
        guard let event = try next() else { return false }
        let symbols = self.symbols
        withUnsafePointer(to: event) { body(UnsafeBufferPointer(start: $0, count: 1), symbols) }
        return true
    }
}
