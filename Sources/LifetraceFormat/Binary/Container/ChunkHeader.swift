/// The header of a chunk, in the skippable frame just before the chunk's zstd frame
/// (see `docs/FORMAT.md`, "Chunk header").
struct ChunkHeader: Equatable {
    /// The size of the v1 chunk header content.
    static let size = 64

    /// CRC-32C of the header content after this field, then of the whole zstd frame.
    var checksum: UInt32 = 0
    /// The stream code (``TraceStream/rawValue``).
    var stream: UInt8
    /// Flags; none are defined in v1.
    var flags: UInt8 = 0
    /// The chunk's number within its stream, from 0.
    var sequence: UInt64
    /// The flush group: chunks written together share it, and are merged by timestamp.
    var flushGroup: UInt64
    /// The timestamp of the first event; the first event's delta is relative to it.
    var firstTimestamp: Int64
    /// The timestamp of the last event.
    var lastTimestamp: Int64
    /// The number of event records (string definitions excluded).
    var eventCount: UInt32
    /// The size of the decompressed records.
    var rawSize: UInt32
    /// The size of the zstd frame that follows.
    var compressedSize: UInt32
    /// The unit of the timestamp deltas, in nanoseconds (at least 1).
    var timestampUnit: UInt64
    /// The size of the structure section; the delta section takes the rest of the raw bytes.
    var structureSize: UInt32

    /// The complete skippable frame (magic, size, content); `checksum` must already be set.
    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(BinaryTraceFormat.frameHeaderSize + ChunkHeader.size)
        bytes.appendLittleEndian(BinaryTraceFormat.chunkMagic)
        bytes.appendLittleEndian(UInt32(ChunkHeader.size))
        bytes.appendLittleEndian(checksum)
        bytes.append(stream)
        bytes.append(flags)
        bytes.appendLittleEndian(UInt16(0))
        bytes.appendLittleEndian(sequence)
        bytes.appendLittleEndian(flushGroup)
        bytes.appendLittleEndian(firstTimestamp)
        bytes.appendLittleEndian(lastTimestamp)
        bytes.appendLittleEndian(eventCount)
        bytes.appendLittleEndian(rawSize)
        bytes.appendLittleEndian(compressedSize)
        bytes.appendLittleEndian(timestampUnit)
        bytes.appendLittleEndian(structureSize)
        return bytes
    }

    /// The checksum over `content` (the header content, checksum field included but skipped)
    /// and `frame`.
    static func checksum(content: UnsafeRawBufferPointer, frame: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32C()
        crc.update(UnsafeRawBufferPointer(rebasing: content[4...]))
        crc.update(frame)
        return crc.value
    }

    /// Decodes a header content; nil when it is shorter than ``size`` bytes. Extra bytes (newer
    /// minors) are ignored.
    init?(content: UnsafeRawBufferPointer) {
        var cursor = ByteCursor(content)
        guard let checksum = cursor.readInteger(as: UInt32.self),
            let stream = cursor.readInteger(as: UInt8.self),
            let flags = cursor.readInteger(as: UInt8.self),
            cursor.readInteger(as: UInt16.self) != nil,
            let sequence = cursor.readInteger(as: UInt64.self),
            let flushGroup = cursor.readInteger(as: UInt64.self),
            let firstTimestamp = cursor.readInteger(as: Int64.self),
            let lastTimestamp = cursor.readInteger(as: Int64.self),
            let eventCount = cursor.readInteger(as: UInt32.self),
            let rawSize = cursor.readInteger(as: UInt32.self),
            let compressedSize = cursor.readInteger(as: UInt32.self),
            let timestampUnit = cursor.readInteger(as: UInt64.self),
            let structureSize = cursor.readInteger(as: UInt32.self)
        else { return nil }
        self.init(
            stream: stream, sequence: sequence, flushGroup: flushGroup, firstTimestamp: firstTimestamp,
            lastTimestamp: lastTimestamp, eventCount: eventCount, rawSize: rawSize, compressedSize: compressedSize,
            timestampUnit: timestampUnit, structureSize: structureSize)
        self.checksum = checksum
        self.flags = flags
    }

    /// Creates a header for writing.
    init(
        stream: UInt8, sequence: UInt64, flushGroup: UInt64, firstTimestamp: Int64, lastTimestamp: Int64,
        eventCount: UInt32, rawSize: UInt32, compressedSize: UInt32, timestampUnit: UInt64,
        structureSize: UInt32
    ) {
        self.stream = stream
        self.sequence = sequence
        self.flushGroup = flushGroup
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
        self.eventCount = eventCount
        self.rawSize = rawSize
        self.compressedSize = compressedSize
        self.timestampUnit = timestampUnit
        self.structureSize = structureSize
    }
}
