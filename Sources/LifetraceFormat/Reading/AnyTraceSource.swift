/// A trace reader of either kind, chosen by ``TraceFile/open(path:)`` from the input's content.
///
/// An enum rather than an existential, so that a generic consumer specialised for it pays one
/// switch per event and no dynamic dispatch.
public enum AnyTraceSource: TraceEventSource {
    /// A text trace (JSONL).
    case jsonl(JSONLTraceReader)
    /// A binary trace.
    case binary(BinaryTraceReader)

    /// The trace's metadata.
    public var metadata: TraceMetadata {
        switch self {
        case .jsonl(let reader): reader.metadata
        case .binary(let reader): reader.metadata
        }
    }

    /// The strings behind the events' symbols.
    public var symbols: SymbolTable {
        switch self {
        case .jsonl(let reader): reader.symbols
        case .binary(let reader): reader.symbols
        }
    }

    /// Problems met and recovered from so far.
    public var issues: [TraceError] {
        switch self {
        case .jsonl(let reader): reader.issues
        case .binary(let reader): reader.issues
        }
    }

    /// The next event, or nil at the end.
    public mutating func next() throws(TraceError) -> TraceEvent? {
        switch self {
        case .jsonl(var reader):
            defer { self = .jsonl(reader) }
            return try reader.next()
        case .binary(var reader):
            defer { self = .binary(reader) }
            return try reader.next()
        }
    }
}
