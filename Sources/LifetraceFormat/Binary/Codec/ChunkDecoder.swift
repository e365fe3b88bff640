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
    /// Where the stack samples and images of the chunk go, shared by a reader's decoders; nil
    /// for a decoder whose reader does not collect them (the records are then skipped).
    var stacks: ChunkStacks?
    /// This decoder's slot among its reader's decoders (its chunk-local stacks in ``stacks``).
    var slot = 0
    /// The chunk's number among those its reader read (``TraceEvent/chunkNumber``), 0 for none.
    var chunkNumber: UInt32 = 0

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
        chunkNumber = 0
        localSymbols.removeAll(keepingCapacity: true)
        localSymbols.append(.none)
        stacks?.reset(slot: slot)
    }

    /// Whether every record has been decoded.
    var isAtEnd: Bool { position >= Int(header.structureSize) }

    /// Whether every delta has been used: true for a well-formed chunk once ``isAtEnd``.
    var deltasAreConsumed: Bool { deltaPosition == records.count }

    /// Decodes up to `capacity` events into `events`, initialized events (each is overwritten but
    /// its line and chunk number, which its reader stamps once per chunk); returns how many, and the bad record that
    /// stopped decoding, if any. The events before a bad record are decoded and counted: they are
    /// returned like any other (docs/FORMAT.md, "Reader rules for a chunk", rule 5).
    mutating func decode(
        into events: UnsafeMutablePointer<TraceEvent>, capacity: Int, symbols: inout SymbolTable
    ) -> (count: Int, failure: Failure?) {
        var progress = Progress(
            position: position, deltaPosition: deltaPosition, timestamp: timestamp, decodedCount: decodedCount)
        var localSymbols = self.localSymbols
        self.localSymbols = []
        let records = self.records
        let sampleSink = stacks.map { SampleSink(stacks: $0, slot: slot) }
        var decoded = 0
        var problem: Problem?
        while true {
            // The loop stops at each image, stack or sample record (rare), which is taken here,
            // so that the per-event loop carries nothing for them.
            let (count, stop) = records.withUnsafeBufferPointer { buffer in
                ChunkDecoder.decodeRecords(
                    buffer, structureSize: Int(header.structureSize), unit: header.timestampUnit, stream: stream,
                    into: events + decoded, capacity: capacity - decoded, progress: &progress,
                    localSymbols: &localSymbols, symbols: &symbols)
            }
            decoded += count
            guard case .sideRecord(let tag, let thread, let bodyStart, let bodyEnd)? = stop else {
                problem = stop
                break
            }
            let failure: StaticString? = records.withUnsafeBufferPointer { buffer in
                var body = ByteCursor(position: buffer.baseAddress! + bodyStart, end: buffer.baseAddress! + bodyEnd)
                return sampleSink?.decode(type: tag & EventRecord.typeMask, thread: thread, body: &body)
            }
            if let failure {
                problem = .message(failure)
                break
            }
            // Its delta and timestamp, as for any record.
            let next: (magnitude: UInt64, length: Int)? = records.withUnsafeBufferPointer { buffer in
                var deltas = ByteCursor(position: buffer.baseAddress! + progress.deltaPosition, end: buffer.baseAddress! + buffer.count)
                guard let magnitude = deltas.varint() else { return nil }
                return (magnitude, deltas.position - (buffer.baseAddress! + progress.deltaPosition))
            }
            guard let next else {
                problem = .message("the delta section ends early")
                break
            }
            let stamped = ChunkDecoder.advance(progress.timestamp, by: next.magnitude, unit: header.timestampUnit, tag: tag)
            guard TraceTime.contains(stamped) else {
                problem = .message("a timestamp is outside ±2^60 ns")
                break
            }
            progress.deltaPosition += next.length
            progress.timestamp = stamped
            progress.position = bodyEnd
            progress.decodedCount &+= 1
            sampleSink?.stamp(stamped)
            if decoded == capacity { break }
        }
        position = progress.position
        deltaPosition = progress.deltaPosition
        timestamp = progress.timestamp
        decodedCount = progress.decodedCount
        self.localSymbols = localSymbols
        return (decoded, problem.map { Failure(recordOffset: progress.position, reason: $0.description) })
    }

    /// Where decoding stands; on a bad record, `position` is that record's offset.
    private struct Progress {
        var position: Int
        var deltaPosition: Int
        var timestamp: Int64
        var decodedCount: UInt32
    }

    // The loop over records. A static function whose state is all local, so that the compiler
    // keeps it in registers (variables captured by a closure live in memory), and whose common
    // records (no length prefix) are read from one cursor with one switch on the type.
    private static func decodeRecords(
        _ buffer: UnsafeBufferPointer<UInt8>, structureSize: Int, unit: UInt64, stream: TraceStream,
        into events: UnsafeMutablePointer<TraceEvent>, capacity: Int, progress: inout Progress,
        localSymbols: inout [Symbol], symbols: inout SymbolTable
    ) -> (decoded: Int, problem: Problem?) {
        guard let base = buffer.baseAddress else { return (0, nil) }
        var cursor = ByteCursor(position: base + progress.position, end: base + structureSize)
        var deltas = ByteCursor(position: base + progress.deltaPosition, end: base + buffer.count)
        var timestamp = progress.timestamp
        var skipped: UInt32 = 0
        var decoded = 0
        var problem: Problem?
        var recordStart = cursor.position
        records: while decoded < capacity {
            recordStart = cursor.position
            guard let tag = cursor.byte() else { break }
            let type = tag & EventRecord.typeMask
            var thread: UInt64 = 0
            let payload: EventPayload
            if type == EventRecord.stringDefinition || tag & EventRecord.delimitedFlag != 0 {
                switch ChunkDecoder.decodeOther(tag: tag, from: &cursor, localSymbols: &localSymbols, symbols: &symbols) {
                case .defined:
                    continue records
                case .sideRecord(let thread, let start, let end):
                    // An image, stack or sample: `decode` takes it, then goes on after it.
                    problem = .sideRecord(tag: tag, thread: thread, body: start - base, end: end - base)
                    break records
                case .event(let value, let on):
                    payload = value
                    thread = on
                case .skipped:
                    // A newer type: its timestamp still counts, the event is not returned.
                    guard let magnitude = deltas.varint() else { problem = .message("the delta section ends early"); break records }
                    timestamp = ChunkDecoder.advance(timestamp, by: magnitude, unit: unit, tag: tag)
                    skipped &+= 1
                    continue records
                case .failed(let failure):
                    problem = failure
                    break records
                }
            } else {
                if tag & EventRecord.threadFlag != 0 {
                    guard let value = cursor.varint() else { problem = .message("truncated thread"); break }
                    thread = value
                }
                switch type {
                case EventType.runloopWake.rawValue:
                    payload = .runloopWake
                case EventType.runloopSleep.rawValue:
                    payload = .runloopSleep
                case EventType.frame.rawValue:
                    guard let first = cursor.byte(), first <= 2 else { problem = .message("bad frame first value"); break records }
                    payload = .frame(first: first == 0 ? nil : first == 2)
                case EventType.signpostBegin.rawValue, EventType.signpostEnd.rawValue:
                    guard let name = cursor.symbol(localSymbols) else { problem = .message("signpost name is not a defined string"); break records }
                    guard let present = cursor.byte(), present <= 1 else { problem = .message("bad signpost id presence"); break records }
                    var id: Int64?
                    if present == 1 {
                        guard let value = cursor.signed() else { problem = .message("truncated signpost id"); break records }
                        id = value
                    }
                    payload = type == EventType.signpostBegin.rawValue ? .signpostBegin(name: name, id: id) : .signpostEnd(name: name, id: id)
                case EventType.callbackBegin.rawValue, EventType.callbackEnd.rawValue:
                    guard let name = cursor.symbol(localSymbols), let scene = cursor.symbol(localSymbols) else {
                        problem = .message("callback name or scene is not a defined string")
                        break records
                    }
                    payload = type == EventType.callbackBegin.rawValue ? .callbackBegin(name: name, scene: scene) : .callbackEnd(name: name, scene: scene)
                default:
                    switch ChunkDecoder.decodeRarePayload(type: type, from: &cursor, symbols: localSymbols) {
                    case .payload(let value):
                        payload = value
                    case .unknown:
                        problem = .unknownType(type)
                        break records
                    case .invalid(let message):
                        problem = .message(message)
                        break records
                    }
                }
            }
            guard let magnitude = deltas.varint() else { problem = .message("the delta section ends early"); break }
            timestamp = ChunkDecoder.advance(timestamp, by: magnitude, unit: unit, tag: tag)
            // Everything after the reader subtracts timestamps freely (TraceTime).
            guard TraceTime.contains(timestamp) else { problem = .message("a timestamp is outside ±2^60 ns"); break }
            // The slot holds an event of no line with its chunk's number (``EventBatches``): its
            // fields are overwritten and where it was read stays as stamped, two stores fewer per
            // event than initializing it whole.
            let slot = events + decoded
            slot.pointee.timestamp = timestamp
            slot.pointee.thread = ThreadID(rawValue: thread)
            slot.pointee.payload = payload
            slot.pointee.stream = stream
            decoded &+= 1
        }
        if case .sideRecord = problem {
            progress.position = cursor.position - base
        } else {
            progress.position = (problem == nil ? cursor.position : recordStart) - base
        }
        progress.deltaPosition = deltas.position - base
        progress.timestamp = timestamp
        // Records decoded, skipped ones included; a chunk holds at most 2^31 events.
        progress.decodedCount &+= UInt32(truncatingIfNeeded: decoded) &+ skipped
        return (decoded, problem)
    }

    /// The timestamp after a record's delta: `magnitude` units, backwards when the tag says so.
    @inline(__always)
    private static func advance(_ timestamp: Int64, by magnitude: UInt64, unit: UInt64, tag: UInt8) -> Int64 {
        let step = Int64(bitPattern: magnitude &* unit)
        return tag & EventRecord.negativeDeltaFlag != 0 ? timestamp &- step : timestamp &+ step
    }

    /// What ``decodeOther`` found.
    private enum OtherRecord {
        /// A string definition, now in the local symbols.
        case defined
        /// A length-prefixed event of a known type, on `thread`.
        case event(EventPayload, thread: UInt64)
        /// A length-prefixed event of a type this reader does not know.
        case skipped
        /// An image, stack or sample record on `thread`, its body at `start ..< end`.
        case sideRecord(thread: UInt64, start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>)
        case failed(Problem)
    }

    // A string definition or a length-prefixed record (tag already read), out of the loop: both
    // are rare in a trace written by this writer. The common payloads are decoded here a second
    // time rather than through a function shared with the loop: the compiler does not inline
    // such a function into the loop, and calling it cost a sixth more instructions per event.
    @inline(never)
    private static func decodeOther(
        tag: UInt8, from cursor: inout ByteCursor, localSymbols: inout [Symbol], symbols: inout SymbolTable
    ) -> OtherRecord {
        let type = tag & EventRecord.typeMask
        if type == EventRecord.stringDefinition {
            if tag != EventRecord.stringDefinition { return .failed(.stringFlags(tag)) }
            guard let length = cursor.varint(), length <= UInt64(cursor.remaining) else {
                return .failed(.message("string definition length runs past the chunk"))
            }
            let bytes = UnsafeBufferPointer(start: cursor.position, count: Int(length))
            guard let string = String(validUTF8: bytes) else { return .failed(.message("string definition is not UTF-8")) }
            _ = cursor.skip(length)
            localSymbols.append(symbols.intern(string))
            return .defined
        }
        guard let length = cursor.varint(), length <= UInt64(cursor.remaining) else {
            return .failed(.message("record length runs past the chunk"))
        }
        var body = ByteCursor(position: cursor.position, end: cursor.position + Int(length))
        cursor.position += Int(length)
        var thread: UInt64 = 0
        if tag & EventRecord.threadFlag != 0 {
            guard let value = body.varint() else { return .failed(.message("truncated thread")) }
            thread = value
        }
        switch type {
        case EventRecord.image, EventRecord.stack, EventRecord.sample, EventRecord.symbol:
            return .sideRecord(thread: thread, start: body.position, end: body.end)
        case EventType.runloopWake.rawValue:
            return .event(.runloopWake, thread: thread)
        case EventType.runloopSleep.rawValue:
            return .event(.runloopSleep, thread: thread)
        case EventType.frame.rawValue:
            guard let first = body.byte(), first <= 2 else { return .failed(.message("bad frame first value")) }
            return .event(.frame(first: first == 0 ? nil : first == 2), thread: thread)
        case EventType.signpostBegin.rawValue, EventType.signpostEnd.rawValue:
            guard let name = body.symbol(localSymbols) else { return .failed(.message("signpost name is not a defined string")) }
            guard let present = body.byte(), present <= 1 else { return .failed(.message("bad signpost id presence")) }
            var id: Int64?
            if present == 1 {
                guard let value = body.signed() else { return .failed(.message("truncated signpost id")) }
                id = value
            }
            return .event(type == EventType.signpostBegin.rawValue ? .signpostBegin(name: name, id: id) : .signpostEnd(name: name, id: id), thread: thread)
        case EventType.callbackBegin.rawValue, EventType.callbackEnd.rawValue:
            guard let name = body.symbol(localSymbols), let scene = body.symbol(localSymbols) else {
                return .failed(.message("callback name or scene is not a defined string"))
            }
            return .event(type == EventType.callbackBegin.rawValue ? .callbackBegin(name: name, scene: scene) : .callbackEnd(name: name, scene: scene), thread: thread)
        default:
            switch decodeRarePayload(type: type, from: &body, symbols: localSymbols) {
            case .payload(let value): return .event(value, thread: thread)
            case .unknown: return .skipped
            case .invalid(let message): return .failed(.message(message))
            }
        }
    }

    /// What is wrong with a record; a plain value so that the loop carries no string.
    private enum Problem: CustomStringConvertible {
        case message(StaticString)
        /// Not a problem: an image, stack or sample record (tag read, body at offsets
        /// `body ..< end`) stopped the loop for ``decode(into:capacity:symbols:)`` to take it.
        case sideRecord(tag: UInt8, thread: UInt64, body: Int, end: Int)
        case stringFlags(UInt8)
        case unknownType(UInt8)

        var description: String {
            switch self {
            case .message(let text): "\(text)"
            case .stringFlags(let tag): "string definition with flags 0x\(hex(tag))"
            case .unknownType(let type): "unknown record type 0x\(hex(type)) without a length"
            case .sideRecord: "an image, stack or sample record"
            }
        }
    }

    private enum Decoded {
        case payload(EventPayload)
        case unknown
        case invalid(StaticString)
    }

    // The payloads of the types that are rare in a trace (a few per lifetime), out of the loop.
    @inline(never)
    private static func decodeRarePayload(type: UInt8, from body: inout ByteCursor, symbols: [Symbol]) -> Decoded {
        switch type {
        case EventType.mark.rawValue:
            guard let name = body.symbol(symbols) else { return .invalid("mark name is not a defined string") }
            return .payload(.mark(name: name))
        case EventType.launch.rawValue:
            guard let flags = body.byte(), flags & ~0x07 == 0 else { return .invalid("bad launch flags") }
            guard let reason = body.symbol(symbols) else { return .invalid("launch reason is not a defined string") }
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
            guard let scene = body.symbol(symbols) else { return .invalid("state scene is not a defined string") }
            return .payload(.state(to: to, scene: scene))
        case EventType.bgtaskBegin.rawValue, EventType.bgtaskEnd.rawValue, EventType.bgtaskExpire.rawValue:
            guard let id = body.signed() else { return .invalid("truncated background task id") }
            guard let name = body.symbol(symbols) else { return .invalid("background task name is not a defined string") }
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
            // As in the text form: a count of lost events cannot be negative.
            guard count >= 0 else { return .invalid("negative dropped count") }
            return .payload(.dropped(count: count))
        default:
            return .unknown
        }
    }
}

extension ByteCursor {
    /// The next varint as an index into a chunk's local symbols, or nil when it is not one.
    @inline(__always)
    mutating func symbol(_ symbols: [Symbol]) -> Symbol? {
        guard let index = varint(), index < UInt64(symbols.count) else { return nil }
        return symbols[Int(index)]
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count == 1 ? "0" + digits : digits
}
