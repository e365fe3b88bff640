/// The end-of-trace record that ``TraceWriter/close()`` writes last (see `docs/FORMAT.md`).
struct TraceEnd: Equatable {
    /// The size of the v1 end record content.
    static let size = 28
    /// The number of chunks in the file.
    var chunkCount: UInt64
    /// The number of event records in the file.
    var eventCount: UInt64
    /// The number of flush groups in the file.
    var flushGroupCount: UInt64
    /// `End_Flags` (written only when not 0, as a 32-byte content; a 28-byte record has none).
    var flags: UInt32 = 0

    /// `End_Flags` bit 0: the writer knows that data of the recorded run is missing from the
    /// trace (a recovery that skipped damaged data); readers report it as a problem.
    static let dataLost: UInt32 = 1

    /// The complete skippable frame.
    func encoded() -> [UInt8] {
        var content: [UInt8] = []
        content.appendLittleEndian(chunkCount)
        content.appendLittleEndian(eventCount)
        content.appendLittleEndian(flushGroupCount)
        if flags != 0 { content.appendLittleEndian(flags) }
        var bytes: [UInt8] = []
        bytes.appendLittleEndian(BinaryTraceFormat.endMagic)
        bytes.appendLittleEndian(UInt32(4 + content.count))
        bytes.appendLittleEndian(CRC32C.checksum(content))
        return bytes + content
    }

    /// Decodes an end record content; nil when it is too short or its checksum is wrong.
    init?(content: UnsafeRawBufferPointer) {
        var cursor = ByteCursor(content)
        guard let stored = cursor.readInteger(as: UInt32.self),
            let chunkCount = cursor.readInteger(as: UInt64.self),
            let eventCount = cursor.readInteger(as: UInt64.self),
            let flushGroupCount = cursor.readInteger(as: UInt64.self)
        else { return nil }
        var crc = CRC32C()
        crc.update(UnsafeRawBufferPointer(rebasing: content[4...]))
        guard crc.value == stored else { return nil }
        self.chunkCount = chunkCount
        self.eventCount = eventCount
        self.flushGroupCount = flushGroupCount
        flags = cursor.readInteger(as: UInt32.self) ?? 0
    }

    /// Creates an end record for writing.
    init(chunkCount: UInt64, eventCount: UInt64, flushGroupCount: UInt64, flags: UInt32 = 0) {
        self.chunkCount = chunkCount
        self.eventCount = eventCount
        self.flushGroupCount = flushGroupCount
        self.flags = flags
    }
}
