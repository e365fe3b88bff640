/// A trace reader of any kind, chosen by ``TraceFile/open(path:codec:binaryOptions:converter:)`` from the input's content.
///
/// A struct holding one of the readers (binary, JSONL, or a trace converted from an Instruments
/// export) rather than an enum with payloads: a payload cannot be
/// mutated in place, and moving the reader out of the enum and back for every event cost about
/// 90 ns per event on the reference workload (`check` took 2.8 s instead of 1.9 s per 10 million
/// events). Optional storage is mutated in place, so a generic consumer specialised for this
/// type pays one branch per event and no dynamic dispatch.
public struct AnyTraceSource: TraceEventSource {
    @usableFromInline var binaryReader: BinaryTraceReader?
    @usableFromInline var jsonlReader: JSONLTraceReader?
    // Checked last, so that the two readers above pay no more than before: a converted input is small.
    @usableFromInline var decodedTrace: DecodedTrace?

    /// Reads a binary trace.
    public init(_ reader: BinaryTraceReader) { binaryReader = reader }

    /// Reads a text trace.
    public init(_ reader: JSONLTraceReader) { jsonlReader = reader }

    /// Reads a trace converted from another tool's format (an Instruments export).
    public init(_ trace: DecodedTrace) { decodedTrace = trace }

    /// The binary reader, when the input is a binary trace (for its summary and chunk statistics).
    public var binary: BinaryTraceReader? { binaryReader }

    /// The JSONL reader, when the input is a text trace.
    public var jsonl: JSONLTraceReader? { jsonlReader }

    /// The converted trace, when the input is another tool's (an Instruments export).
    public var decoded: DecodedTrace? { decodedTrace }

    /// The kind of trace being read.
    public var kind: TraceFile.Kind { binary != nil ? .binary : jsonl != nil ? .jsonl : .instrumentsExport }

    /// The trace's metadata.
    public var metadata: TraceMetadata { binary?.metadata ?? jsonl?.metadata ?? decodedTrace!.metadata }

    /// The strings behind the events' symbols.
    public var symbols: SymbolTable { binary?.symbols ?? jsonl?.symbols ?? decodedTrace!.symbols }

    /// The number of strings in ``symbols``.
    @inlinable
    public var symbolCount: Int { binaryReader?.symbolCount ?? jsonlReader?.symbolCount ?? decodedTrace!.symbolCount }

    /// The stack samples and loaded images read so far.
    public var sampledStacks: SampledStacks {
        binaryReader?.sampledStacks ?? jsonlReader?.sampledStacks ?? decodedTrace!.sampledStacks
    }

    /// The places of the chunks read, for a binary trace.
    public var chunkPositions: ChunkPositions? { binaryReader?.chunkPositions }

    /// Problems met and recovered from so far.
    public var issues: [TraceError] { binary?.issues ?? jsonl?.issues ?? decodedTrace!.issues }

    /// The next event, or nil at the end.
    @inlinable
    public mutating func next() throws(TraceError) -> TraceEvent? {
        if binaryReader != nil { return try binaryReader!.next() }
        if jsonlReader != nil { return try jsonlReader!.next() }
        return try decodedTrace!.next()
    }

    /// Calls `body` with the next events, or returns false at the end.
    @inlinable
    public mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) throws(TraceError) -> Bool {
        if binaryReader != nil { return try binaryReader!.nextBatch(body) }
        if jsonlReader != nil { return try jsonlReader!.nextBatch(body) }
        return try decodedTrace!.nextBatch(body)
    }
}
