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
    /// Problems met and recovered from so far (a truncated end, a skipped corrupt chunk).
    var issues: [TraceError] { get }
    /// The next event, or nil at the end. Throws only when nothing more can be read.
    mutating func next() throws(TraceError) -> TraceEvent?
}

extension TraceEventSource {
    /// The number of strings in ``symbols`` (a source that can tell it without copying the table
    /// should say so).
    public var symbolCount: Int { symbols.count }
}
