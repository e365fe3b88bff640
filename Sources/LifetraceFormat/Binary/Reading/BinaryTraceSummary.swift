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
