/// What a reader learned about one chunk of a binary trace (for `lifetrace info`).
public struct ChunkStatistics: Hashable, Sendable {
    /// The chunk's stream.
    public var stream: TraceStream
    /// The chunk's sequence number within its stream.
    public var sequence: UInt64
    /// The flush group the chunk was written in.
    public var flushGroup: UInt64
    /// The byte offset of the chunk's header frame in the file.
    public var offset: Int64
    /// The timestamp of the chunk's first event.
    public var firstTimestamp: Int64
    /// The timestamp of the chunk's last event.
    public var lastTimestamp: Int64
    /// The number of events the header declares.
    public var eventCount: UInt32
    /// The size of the decompressed records.
    public var rawSize: UInt32
    /// The size of the chunk on disk: header frame and zstd frame.
    public var storedSize: UInt32

    /// Creates statistics.
    public init(
        stream: TraceStream, sequence: UInt64, flushGroup: UInt64, offset: Int64, firstTimestamp: Int64,
        lastTimestamp: Int64, eventCount: UInt32, rawSize: UInt32, storedSize: UInt32
    ) {
        self.stream = stream
        self.sequence = sequence
        self.flushGroup = flushGroup
        self.offset = offset
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
        self.eventCount = eventCount
        self.rawSize = rawSize
        self.storedSize = storedSize
    }
}

/// Totals a reader gathers over the chunks it has read so far.
public struct BinaryTraceSummary: Hashable, Sendable {
    /// The file's major format version.
    public var majorVersion: UInt8 = 0
    /// The file's minor format version.
    public var minorVersion: UInt8 = 0
    /// The largest raw chunk size the header declares.
    public var maxChunkSize = 0
    /// Chunks read and decompressed.
    public var chunkCount = 0
    /// Chunks skipped because they were corrupt.
    public var skippedChunkCount = 0
    /// Flush groups read.
    public var flushGroupCount = 0
    /// Events returned so far.
    public var eventCount = 0
    /// Bytes of the input consumed so far (the file size once the end is reached).
    public var bytesRead: Int64 = 0
    /// Bytes of decompressed records.
    public var rawBytes: Int64 = 0
    /// Bytes of the chunks' frames (headers and zstd frames).
    public var chunkBytes: Int64 = 0
    /// Whether the end-of-trace record was read: the writer closed the file.
    public var isClosed = false
    /// The totals the end-of-trace record declares, when it was read.
    public var declaredTotals: DeclaredTotals?

    /// The totals written by ``TraceWriter/close()``.
    public struct DeclaredTotals: Hashable, Sendable {
        /// Chunks in the file.
        public var chunks: UInt64
        /// Events in the file.
        public var events: UInt64
        /// Flush groups in the file.
        public var flushGroups: UInt64
    }

    /// Empty totals.
    public init() {}
}
