/// Reads a binary trace (format v1, `docs/FORMAT.md`) as a stream of events.
///
/// The file is read in bounded blocks, one flush group at a time: the chunks of a group are
/// decompressed, then their events are merged by timestamp (ties and equal runs keep file order,
/// and each stream's own order is kept, so a timestamp that goes backwards stays visible).
/// Memory stays bounded by the header's chunk size and the group limits, whatever the file size.
///
/// Only an unusable file header throws from `init`. A truncated end, a corrupt chunk (which is
/// skipped) or a missing end-of-trace record are recorded in ``issues`` and reading goes on.
/// The reader holds the open input: copies share it, so use one copy.
public struct BinaryTraceReader: TraceEventSource {
    /// Reader limits and what to collect.
    public struct Options: Sendable {
        /// The largest raw chunk size accepted in a header; at most ``BinaryTraceFormat/hardMaxChunkSize``.
        public var maxChunkSize: Int
        /// Whether to keep a ``ChunkStatistics`` for every chunk read (for `lifetrace info`).
        public var collectsChunkStatistics: Bool

        /// Whether to keep the stack samples and images (``sampledStacks``); without, their
        /// records are skipped as a reader that does not know them skips them.
        public var collectsStackSamples = true

        /// Creates options.
        public init(maxChunkSize: Int = BinaryTraceFormat.hardMaxChunkSize, collectsChunkStatistics: Bool = false) {
            self.maxChunkSize = maxChunkSize
            self.collectsChunkStatistics = collectsChunkStatistics
        }
    }

    /// The trace's metadata, from the file header.
    public private(set) var metadata: TraceMetadata
    /// The strings behind the events' symbols; grows as chunks are read.
    public private(set) var symbols = SymbolTable()
    /// The number of strings in ``symbols``; kept apart so that reading it per event costs a load.
    public private(set) var symbolCount = SymbolTable().count
    /// Problems met and recovered from so far.
    public private(set) var issues: [TraceError] = []
    /// Totals over what has been read so far.
    public private(set) var summary = BinaryTraceSummary()
    /// Every chunk read so far, when ``Options/collectsChunkStatistics`` is set.
    public private(set) var chunks: [ChunkStatistics] = []

    /// The place of every chunk read so far, by the number its events carry
    /// (``TraceEvent/chunkNumber``).
    public var chunkPositions: ChunkPositions? { groups.positions }

    /// The stack samples and loaded images read so far (docs/FORMAT.md, "Stack samples").
    public var sampledStacks: SampledStacks { groups.stacks.collected }

    @usableFromInline var groups: ChunkGroupReader
    // The run of events being returned: groups.events[runIndex..<runEnd].
    @usableFromInline var runIndex = 0
    @usableFromInline var runEnd = 0

    /// The number of events decoded at a time per chunk.
    static let batchSize = 512

    /// Opens the file at `path` (`-` for standard input) and reads its header; chunks are read by `codec`.
    public init(path: String, codec: some TraceCodec, options: Options = .init()) throws(TraceError) {
        try self.init(input: TraceInput(path: path), codec: codec, options: options)
    }

    /// Reads the first `byteLimit` bytes of the open `descriptor` (from its current offset; the
    /// caller keeps it open while reading), as if the file ended there: the part of a trace a
    /// recovery trusts, which ends after a whole flush group when it ends at a frame boundary.
    /// `name` is used in issues and errors.
    public init(
        descriptor: Int32, name: String, byteLimit: Int64, codec: some TraceCodec, options: Options = .init()
    ) throws(TraceError) {
        try self.init(input: TraceInput(descriptor: descriptor, name: name, limit: byteLimit), codec: codec, options: options)
        // A committed length is written after a whole flush group.
        groups.endsAtGroupBoundary = true
    }

    /// Reads a trace held in memory with `codec`; `name` is used in issues and errors.
    public init(bytes: [UInt8], name: String, codec: some TraceCodec, options: Options = .init()) throws(TraceError) {
        try self.init(input: TraceInput(bytes: bytes, name: name), codec: codec, options: options)
    }

    /// The input's name, as errors give it.
    public let name: String

    init(input: TraceInput, codec: some TraceCodec, options: Options) throws(TraceError) {
        name = input.name
        let header = try ChunkGroupReader.readHeader(from: input, limit: min(options.maxChunkSize, BinaryTraceFormat.hardMaxChunkSize))
        metadata = header.metadata
        summary.majorVersion = header.major
        summary.minorVersion = header.minor
        summary.maxChunkSize = Int(header.maxChunkSize)
        summary.bytesRead = input.offset
        groups = try ChunkGroupReader(input: input, maxChunkSize: Int(header.maxChunkSize), codec: codec, options: options)
    }

    /// The next event in timestamp order within each flush group, or nil at the end.
    @inlinable
    public mutating func next() throws(TraceError) -> TraceEvent? {
        if runIndex == runEnd && !advanceRun() { return nil }
        let event = groups.events[runIndex]
        runIndex &+= 1
        return event
    }

    /// Calls `body` with the rest of the current run of merged events (the events of one chunk
    /// that come next in timestamp order), decoding the next run first when none is left.
    @inlinable
    public mutating func nextBatch(_ body: (UnsafeBufferPointer<TraceEvent>, SymbolTable) -> Void) throws(TraceError) -> Bool {
        if runIndex == runEnd && !advanceRun() { return false }
        let batch = UnsafeBufferPointer(start: groups.events.base + runIndex, count: runEnd &- runIndex)
        runIndex = runEnd
        body(batch, symbols)
        return true
    }

    // Makes the next merged run current; false at the end of the trace.
    @usableFromInline
    mutating func advanceRun() -> Bool {
        defer { symbolCount = symbols.count }
        guard let run = groups.nextRun(summary: &summary, symbols: &symbols, issues: &issues, chunks: &chunks) else {
            runIndex = 0
            runEnd = 0
            return false
        }
        summary.eventCount += run.count
        runIndex = run.lowerBound
        runEnd = run.upperBound
        return true
    }
}
