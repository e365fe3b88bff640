import LifetraceFormat

/// The binary data stream of a CTF trace, written packet by packet: each packet is built in a
/// buffer of bounded size, its context (time range, sizes) patched in when it is full, then
/// written out. Memory stays constant whatever the number of events.
///
/// Event timestamps are clock values, which CTF requires to never go back within a stream:
/// an event earlier than the one before it (a `time-order` violation in the trace, or an
/// analysis finding dated before the event that revealed it) is stamped with the previous
/// value, and keeps its own time in a field where it has one.
struct CTFPacketStream {
    /// The CTF packet header's magic number.
    static let magic: UInt32 = 0xC1FC_1FC1
    /// Header (magic, stream id) and context (two timestamps, two sizes, sequence number).
    static let headerSize = 8 + 5 * 8
    /// A packet is closed once its content reaches this many bytes.
    static let packetCapacity = 1 << 16

    private let output: ExportOutputFile
    private var packet: [UInt8] = []
    private var sequence: UInt64 = 0
    private var firstTimestamp: UInt64 = 0
    private var clock: UInt64 = 0
    private var eventsInPacket = 0
    /// How many event records were written.
    private(set) var eventCount = 0

    /// A stream written to `output`.
    init(output: ExportOutputFile) {
        self.output = output
        packet.reserveCapacity(Self.packetCapacity + 4096)
        startPacket()
    }

    /// Starts an event record: header (class id, timestamp) and context (stream, thread).
    /// The caller appends the payload fields next.
    mutating func beginEvent(classID: UInt8, timestamp: Int64, stream: UInt8, thread: UInt64) {
        let time = max(UInt64(clamping: max(0, timestamp)), clock)
        clock = time
        if eventsInPacket == 0 { firstTimestamp = time }
        eventsInPacket += 1
        eventCount += 1
        packet.append(classID)
        appendUInt64(time)
        packet.append(stream)
        appendUInt64(thread)
    }

    /// Closes the packet if it is full; call after the event's fields.
    mutating func endEvent() throws(ExportError) {
        if packet.count >= Self.packetCapacity { try closePacket() }
    }

    /// Writes the last packet (an empty one when the stream has no event at all) and flushes.
    mutating func finish() throws(ExportError) {
        if eventsInPacket > 0 || sequence == 0 { try closePacket() }
        try output.commit()
    }

    // MARK: - Fields

    /// An unsigned 8-bit field.
    mutating func appendUInt8(_ value: UInt8) { packet.append(value) }

    /// A little-endian 32-bit field.
    mutating func appendUInt32(_ value: UInt32) { packet.appendLittleEndian(value) }

    /// A little-endian 64-bit field.
    mutating func appendUInt64(_ value: UInt64) { packet.appendLittleEndian(value) }

    /// A signed 32-bit field.
    mutating func appendInt32(_ value: Int32) { appendUInt32(UInt32(bitPattern: value)) }

    /// A signed 64-bit field.
    mutating func appendInt64(_ value: Int64) { appendUInt64(UInt64(bitPattern: value)) }

    /// A CTF string: UTF-8 ended by a NUL byte (NULs inside the string are left out).
    mutating func appendString(_ value: String) {
        for byte in value.utf8 where byte != 0 { packet.append(byte) }
        packet.append(0)
    }

    // MARK: - Packets

    private mutating func startPacket() {
        packet.removeAll(keepingCapacity: true)
        appendUInt32(Self.magic)
        appendUInt32(0)
        packet.append(contentsOf: repeatElement(0, count: 5 * 8))
        eventsInPacket = 0
    }

    private mutating func closePacket() throws(ExportError) {
        let bits = UInt64(packet.count) * 8
        if eventsInPacket == 0 { firstTimestamp = clock }
        patch(at: 8, firstTimestamp)
        patch(at: 16, clock)
        patch(at: 24, bits)
        patch(at: 32, bits)
        patch(at: 40, sequence)
        try output.write(packet)
        sequence += 1
        startPacket()
    }

    private mutating func patch(at offset: Int, _ value: UInt64) { packet.setLittleEndian(value, at: offset) }
}
