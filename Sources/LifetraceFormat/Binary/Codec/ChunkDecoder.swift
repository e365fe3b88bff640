/// Decodes the raw records of one chunk into events, a batch at a time.
///
/// Holds the chunk's decompressed records, the position reached, the running timestamp and the
/// map from chunk-local string indexes to the reader's global symbols (built as the chunk's
/// string definitions are met, so each string is interned once per chunk).
struct ChunkDecoder {
    /// The chunk's header.
    var header: ChunkHeader
    /// The file offset of the chunk's frame.
    var offset: Int64
    /// The decompressed records.
    var records: [UInt8]
    /// The offset of the next record in ``records``.
    var position = 0
    /// The offset of the next timestamp delta in ``records``.
    var deltaPosition = 0
    /// The timestamp of the last decoded event.
    var timestamp: Int64
    /// Event records decoded so far, skipped unknown types included.
    var decodedCount: UInt32 = 0
    /// Whether the reader is done with this chunk (all read, or abandoned after a bad record).
    var isFinished = false
    // Global symbol of each chunk-local string index; index 0 is none.
    private var localSymbols: [Symbol] = [.none]
    private var stream: TraceStream

    /// Why a record cannot be decoded.
    struct Failure: Error {
        /// The offset of the record in the chunk's raw bytes.
        var recordOffset: Int
        /// What is wrong.
        var reason: String
    }

    /// Starts decoding `records`, which hold `header`'s chunk; the stream must be known.
    init(header: ChunkHeader, offset: Int64, records: [UInt8]) {
        self.header = header
        self.offset = offset
        self.records = records
        timestamp = header.firstTimestamp
        stream = TraceStream(rawValue: header.stream) ?? .app
    }

    /// An empty decoder whose storage ``reset(header:offset:)`` reuses.
    init() {
        self.init(header: ChunkHeader(stream: 0, sequence: 0, flushGroup: 0, firstTimestamp: 0, lastTimestamp: 0,
                                      eventCount: 0, rawSize: 0, compressedSize: 0, timestampUnit: 1, structureSize: 0), offset: 0, records: [])
    }

    /// Reuses this decoder's storage for another chunk.
    mutating func reset(header: ChunkHeader, offset: Int64) {
        self.header = header
        self.offset = offset
        position = 0
        deltaPosition = Int(header.structureSize)
        timestamp = header.firstTimestamp
        stream = TraceStream(rawValue: header.stream) ?? .app
        decodedCount = 0
        isFinished = false
        localSymbols.removeAll(keepingCapacity: true)
        localSymbols.append(.none)
    }

    /// Whether every record has been decoded.
    var isAtEnd: Bool { position >= Int(header.structureSize) }

    /// Whether every delta has been used: true for a well-formed chunk once ``isAtEnd``.
    var deltasAreConsumed: Bool { deltaPosition == records.count }

    /// Decodes up to `capacity` events into `events`; returns how many.
    mutating func decode(
        into events: UnsafeMutablePointer<TraceEvent>, capacity: Int, symbols: inout SymbolTable
    ) throws(Failure) -> Int {
        // Everything the loop touches is local: calling a method of `self` from a closure that
        // also mutates `self` would copy the whole decoder for every event.
        let stream = self.stream
        let unit = header.timestampUnit
        let structureSize = Int(header.structureSize)
        var timestamp = self.timestamp
        var position = self.position
        var deltaPosition = self.deltaPosition
        var decodedCount = self.decodedCount
        var localSymbols = self.localSymbols
        self.localSymbols = []
        var decoded = 0
        var reason: String?
        var failedAt = 0
        let records = self.records
        records.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var cursor = ByteCursor(position: base + position, end: base + structureSize)
            var deltas = ByteCursor(position: base + deltaPosition, end: base + buffer.count)
            var recordStart = cursor.position
            while decoded < capacity {
                recordStart = cursor.position
                guard let tag = cursor.byte() else { break }
                let type = tag & EventRecord.typeMask
                if type == EventRecord.stringDefinition {
                    if tag != EventRecord.stringDefinition { reason = "string definition with flags 0x\(hex(tag))"; break }
                    guard let length = cursor.varint(), length <= UInt64(cursor.remaining) else {
                        reason = "string definition length runs past the chunk"; break
                    }
                    let bytes = UnsafeBufferPointer(start: cursor.position, count: Int(length))
                    guard let string = String(validating: bytes, as: UTF8.self) else {
                        reason = "string definition is not UTF-8"; break
                    }
                    _ = cursor.skip(length)
                    localSymbols.append(symbols.intern(string))
                    continue
                }
                var body = cursor
                let delimited = tag & EventRecord.delimitedFlag != 0
                if delimited {
                    guard let length = cursor.varint(), length <= UInt64(cursor.remaining) else {
                        reason = "record length runs past the chunk"; break
                    }
                    body = ByteCursor(position: cursor.position, end: cursor.position + Int(length))
                    cursor.position += Int(length)
                }
                var thread: UInt64 = 0
                if tag & EventRecord.threadFlag != 0 {
                    guard let value = body.varint() else { reason = "truncated thread"; break }
                    thread = value
                }
                guard let magnitude = deltas.varint() else { reason = "the delta section ends early"; break }
                let step = Int64(bitPattern: magnitude &* unit)
                if tag & EventRecord.negativeDeltaFlag != 0 { timestamp &-= step } else { timestamp &+= step }
                decodedCount &+= 1
                let payload: EventPayload
                switch ChunkDecoder.decodePayload(type: type, from: &body, symbols: localSymbols) {
                case .payload(let value):
                    payload = value
                case .unknown:
                    if delimited { continue }
                    reason = "unknown record type 0x\(hex(type)) without a length"
                    payload = .runloopWake
                case .invalid(let problem):
                    reason = problem
                    payload = .runloopWake
                }
                if reason != nil { break }
                if !delimited { cursor = body }
                (events + decoded).pointee = TraceEvent(
                    timestamp: timestamp, payload: payload, stream: stream, thread: ThreadID(rawValue: thread))
                decoded += 1
            }
            failedAt = recordStart - base
            deltaPosition = deltas.position - base
            position = reason == nil ? cursor.position - base : failedAt
        }
        self.position = position
        self.deltaPosition = deltaPosition
        self.decodedCount = decodedCount
        self.localSymbols = localSymbols
        self.timestamp = timestamp
        if let reason { throw Failure(recordOffset: failedAt, reason: reason) }
        return decoded
    }

    private enum Decoded {
        case payload(EventPayload)
        case unknown
        case invalid(String)
    }

    @inline(__always)
    private static func decodePayload(type: UInt8, from body: inout ByteCursor, symbols: [Symbol]) -> Decoded {
        @inline(__always)
        func symbol(_ index: UInt64?) -> Symbol? {
            guard let index, index < UInt64(symbols.count) else { return nil }
            return symbols[Int(index)]
        }
        switch type {
        case EventType.runloopWake.rawValue:
            return .payload(.runloopWake)
        case EventType.runloopSleep.rawValue:
            return .payload(.runloopSleep)
        case EventType.callbackBegin.rawValue, EventType.callbackEnd.rawValue:
            guard let name = symbol(body.varint()), let scene = symbol(body.varint()) else {
                return .invalid("callback name or scene is not a defined string")
            }
            return .payload(type == EventType.callbackBegin.rawValue
                ? .callbackBegin(name: name, scene: scene) : .callbackEnd(name: name, scene: scene))
        case EventType.signpostBegin.rawValue, EventType.signpostEnd.rawValue:
            guard let name = symbol(body.varint()) else { return .invalid("signpost name is not a defined string") }
            guard let present = body.byte(), present <= 1 else { return .invalid("bad signpost id presence") }
            var id: Int64?
            if present == 1 {
                guard let value = body.signed() else { return .invalid("truncated signpost id") }
                id = value
            }
            return .payload(type == EventType.signpostBegin.rawValue
                ? .signpostBegin(name: name, id: id) : .signpostEnd(name: name, id: id))
        case EventType.mark.rawValue:
            guard let name = symbol(body.varint()) else { return .invalid("mark name is not a defined string") }
            return .payload(.mark(name: name))
        case EventType.frame.rawValue:
            guard let first = body.byte(), first <= 2 else { return .invalid("bad frame first value") }
            return .payload(.frame(first: first == 0 ? nil : first == 2))
        case EventType.launch.rawValue:
            guard let flags = body.byte(), flags & ~0x07 == 0 else { return .invalid("bad launch flags") }
            guard let reason = symbol(body.varint()) else { return .invalid("launch reason is not a defined string") }
            var pid: Int64?
            if flags & EventRecord.launchPID != 0 {
                guard let value = body.signed() else { return .invalid("truncated launch pid") }
                pid = value
            }
            return .payload(.launch(
                reason: reason, background: flags & EventRecord.launchBackground != 0,
                prewarm: flags & EventRecord.launchPrewarm != 0, pid: pid))
        case EventType.state.rawValue:
            guard let code = body.byte(), let to = LifecycleState(rawValue: code) else { return .invalid("bad state code") }
            guard let scene = symbol(body.varint()) else { return .invalid("state scene is not a defined string") }
            return .payload(.state(to: to, scene: scene))
        case EventType.bgtaskBegin.rawValue, EventType.bgtaskEnd.rawValue, EventType.bgtaskExpire.rawValue:
            guard let id = body.signed() else { return .invalid("truncated background task id") }
            guard let name = symbol(body.varint()) else { return .invalid("background task name is not a defined string") }
            switch type {
            case EventType.bgtaskBegin.rawValue: return .payload(.bgtaskBegin(id: id, name: name))
            case EventType.bgtaskEnd.rawValue: return .payload(.bgtaskEnd(id: id, name: name))
            default: return .payload(.bgtaskExpire(id: id, name: name))
            }
        case EventType.exit.rawValue:
            guard let flags = body.byte(), flags & ~0x03 == 0 else { return .invalid("bad exit flags") }
            var code: Int32?
            var signal: Int32?
            if flags & EventRecord.exitCode != 0 {
                guard let value = body.signed(), let narrow = Int32(exactly: value) else { return .invalid("bad exit code") }
                code = narrow
            }
            if flags & EventRecord.exitSignal != 0 {
                guard let value = body.signed(), let narrow = Int32(exactly: value) else { return .invalid("bad exit signal") }
                signal = narrow
            }
            return .payload(.exit(code: code, signal: signal))
        case EventType.dropped.rawValue:
            guard let count = body.signed() else { return .invalid("truncated dropped count") }
            return .payload(.dropped(count: count))
        default:
            return .unknown
        }
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
