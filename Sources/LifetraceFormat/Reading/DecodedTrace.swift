/// A trace held decoded in memory: its metadata, its strings and its events, in order.
///
/// Inputs of another tool's making (an Instruments export) are converted into one, because their
/// events do not arrive in time order: an interval's end is known with its start. The converter
/// bounds how many events it keeps (see docs/INSTRUMENTS.md).
public struct DecodedTrace: TraceEventSource, Sendable {
    /// The trace's metadata.
    public let metadata: TraceMetadata
    /// The strings behind the events' symbols.
    public let symbols: SymbolTable
    /// Problems the converter met and recovered from (rows it left out, and why).
    public let issues: [TraceError]
    /// The events, in the order they are read.
    public let events: [TraceEvent]
    private var position = 0

    /// A decoded trace; `events` must be in time order per stream, as in any trace.
    public init(metadata: TraceMetadata, symbols: SymbolTable, events: [TraceEvent], issues: [TraceError] = []) {
        self.metadata = metadata
        self.symbols = symbols
        self.events = events
        self.issues = issues
    }

    /// The number of strings in ``symbols``.
    public var symbolCount: Int { symbols.count }

    /// The next event, or nil at the end.
    public mutating func next() throws(TraceError) -> TraceEvent? {
        guard position < events.count else { return nil }
        defer { position += 1 }
        return events[position]
    }

    /// Calls `body` with every event not read yet, or returns false at the end.
    public mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) throws(TraceError) -> Bool {
        guard position < events.count else { return false }
        let start = position
        position = events.count
        events.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start...]), symbols) }
        return true
    }
}
