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
