/// Encodes one stream's events into the raw records of the chunk being built.
///
/// Strings are interned per chunk: the first time a chunk uses a symbol, a string definition
/// record gives it the next chunk-local index (from 1); events refer to that index. Timestamps
/// are zigzag deltas from the previous event (the first one from the chunk's first timestamp),
/// computed with wrapping arithmetic so that any `Int64`, backwards or not, round-trips.
struct ChunkEncoder {
    /// The stream this encoder's chunks belong to.
    let stream: TraceStream
    /// The raw-size limit of a chunk.
    let capacity: Int
    /// The sequence number of the chunk being built.
    private(set) var sequence: UInt64 = 0
    /// The number of events in the chunk being built.
    private(set) var eventCount: UInt32 = 0
    /// The timestamp of the chunk's first event.
    private(set) var firstTimestamp: Int64 = 0
    /// The timestamp of the chunk's last event.
    private(set) var lastTimestamp: Int64 = 0
    /// The records; only the first ``byteCount`` bytes are meaningful.
    private var bytes: [UInt8]
    /// The number of bytes of records written.
    private(set) var byteCount = 0
    // Chunk-local index of each global symbol (by raw value), 0 when not yet defined here.
    private var localIndex: [UInt32] = []
    private var definedSymbols: [UInt32] = []

    /// Creates an encoder for `stream` with chunks of at most `capacity` raw bytes.
    init(stream: TraceStream, capacity: Int) {
        self.stream = stream
        self.capacity = capacity
        bytes = [UInt8](repeating: 0, count: capacity)
    }

    /// Whether the chunk being built has no events.
    var isEmpty: Bool { eventCount == 0 }

    /// The records written so far.
    func withRecords<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<byteCount])) }
    }

    /// Starts the next chunk of the stream.
    mutating func reset() {
        for symbol in definedSymbols { localIndex[Int(symbol)] = 0 }
        definedSymbols.removeAll(keepingCapacity: true)
        sequence += 1
        eventCount = 0
        byteCount = 0
    }

    /// The outcome of ``append(_:symbols:)``.
    enum Fit {
        /// The event was added.
        case added
        /// The chunk has no room: write it out and try again.
        case full
        /// The event, with the strings it defines, is larger than an empty chunk.
        case tooLarge
    }

    /// Adds `event`, whose symbols belong to `symbols`.
    @inline(__always)
    mutating func append(_ event: TraceEvent, symbols: SymbolTable) -> Fit {
        let (first, second) = event.payload.symbols
        var needed = EventRecord.maxEventLength
        if !first.isNone && localIndexOf(first) == 0 { needed += definitionLength(first, symbols) }
        if !second.isNone && localIndexOf(second) == 0 { needed += definitionLength(second, symbols) }
        if byteCount + needed > capacity {
            return isEmpty ? .tooLarge : .full
        }
        let firstIndex = define(first, symbols)
        let secondIndex = define(second, symbols)
        if eventCount == 0 {
            firstTimestamp = event.timestamp
            lastTimestamp = event.timestamp
        }
        let delta = event.timestamp &- lastTimestamp
        lastTimestamp = event.timestamp
        eventCount += 1
        let start = byteCount
        byteCount += bytes.withUnsafeMutableBufferPointer { buffer in
            ChunkEncoder.encode(
                event, delta: delta, first: firstIndex, second: secondIndex, at: buffer.baseAddress! + start)
        }
        return .added
    }

    /// Appends a record as given, for tests of readers against records this writer never makes;
    /// `timestamp` is the time the record's delta leads to.
    mutating func appendRawRecord(_ record: [UInt8], timestamp: Int64) {
        if eventCount == 0 { firstTimestamp = timestamp }
        lastTimestamp = timestamp
        eventCount += 1
        for byte in record {
            bytes[byteCount] = byte
            byteCount += 1
        }
    }

    @inline(__always)
    private func localIndexOf(_ symbol: Symbol) -> UInt32 {
        let raw = Int(symbol.rawValue)
        return raw < localIndex.count ? localIndex[raw] : 0
    }

    private func definitionLength(_ symbol: Symbol, _ symbols: SymbolTable) -> Int {
        let length = symbols[symbol].utf8.count
        return 1 + Varint.length(UInt64(length)) + length
    }

    // The chunk-local index of `symbol`, writing its definition record first if needed.
    @inline(__always)
    private mutating func define(_ symbol: Symbol, _ symbols: SymbolTable) -> UInt32 {
        if symbol.isNone { return 0 }
        let known = localIndexOf(symbol)
        if known != 0 { return known }
        return defineNew(symbol, symbols)
    }

    @inline(never)
    private mutating func defineNew(_ symbol: Symbol, _ symbols: SymbolTable) -> UInt32 {
        let raw = Int(symbol.rawValue)
        if raw >= localIndex.count {
            localIndex.append(contentsOf: repeatElement(0, count: max(raw + 1, symbols.count) - localIndex.count))
        }
        let index = UInt32(definedSymbols.count + 1)
        localIndex[raw] = index
        definedSymbols.append(symbol.rawValue)
        let utf8 = Array(symbols[symbol].utf8)
        bytes[byteCount] = EventRecord.stringDefinition
        byteCount += 1
        byteCount += bytes.withUnsafeMutableBufferPointer { buffer in
            Varint.write(UInt64(utf8.count), to: buffer.baseAddress! + byteCount)
        }
        bytes.replaceSubrange(byteCount..<(byteCount + utf8.count), with: utf8)
        byteCount += utf8.count
        return index
    }

    @inline(__always)
    private static func encode(
        _ event: TraceEvent, delta: Int64, first: UInt32, second: UInt32, at pointer: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var tag = event.payload.type.rawValue
        if !event.thread.isMain { tag |= EventRecord.threadFlag }
        pointer[0] = tag
        var count = 1
        if !event.thread.isMain { count += Varint.write(event.thread.rawValue, to: pointer + count) }
        count += Varint.write(Varint.zigzag(delta), to: pointer + count)
        switch event.payload {
        case .launch(_, let background, let prewarm, let pid):
            var flags: UInt8 = 0
            if background { flags |= EventRecord.launchBackground }
            if prewarm { flags |= EventRecord.launchPrewarm }
            if pid != nil { flags |= EventRecord.launchPID }
            pointer[count] = flags
            count += 1
            count += Varint.write(UInt64(first), to: pointer + count)
            if let pid { count += Varint.write(Varint.zigzag(pid), to: pointer + count) }
        case .state(let to, _):
            pointer[count] = to.rawValue
            count += 1
            count += Varint.write(UInt64(first), to: pointer + count)
        case .callbackBegin, .callbackEnd:
            count += Varint.write(UInt64(first), to: pointer + count)
            count += Varint.write(UInt64(second), to: pointer + count)
        case .runloopWake, .runloopSleep:
            break
        case .signpostBegin(_, let id), .signpostEnd(_, let id):
            count += Varint.write(UInt64(first), to: pointer + count)
            if let id {
                pointer[count] = 1
                count += 1
                count += Varint.write(Varint.zigzag(id), to: pointer + count)
            } else {
                pointer[count] = 0
                count += 1
            }
        case .mark:
            count += Varint.write(UInt64(first), to: pointer + count)
        case .frame(let isFirst):
            pointer[count] = isFirst.map { $0 ? 2 : 1 } ?? 0
            count += 1
        case .bgtaskBegin(let id, _), .bgtaskEnd(let id, _), .bgtaskExpire(let id, _):
            count += Varint.write(Varint.zigzag(id), to: pointer + count)
            count += Varint.write(UInt64(first), to: pointer + count)
        case .exit(let code, let signal):
            var flags: UInt8 = 0
            if code != nil { flags |= EventRecord.exitCode }
            if signal != nil { flags |= EventRecord.exitSignal }
            pointer[count] = flags
            count += 1
            if let code { count += Varint.write(Varint.zigzag(Int64(code)), to: pointer + count) }
            if let signal { count += Varint.write(Varint.zigzag(Int64(signal)), to: pointer + count) }
        case .dropped(let dropped):
            count += Varint.write(Varint.zigzag(dropped), to: pointer + count)
        }
        return count
    }
}

extension EventPayload {
    /// The payload's strings in record order (the name or reason first, then the scene or none).
    @inline(__always)
    var symbols: (Symbol, Symbol) {
        switch self {
        case .launch(let reason, _, _, _): (reason, .none)
        case .state(_, let scene): (scene, .none)
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene): (name, scene)
        case .signpostBegin(let name, _), .signpostEnd(let name, _), .mark(let name): (name, .none)
        case .bgtaskBegin(_, let name), .bgtaskEnd(_, let name), .bgtaskExpire(_, let name): (name, .none)
        case .runloopWake, .runloopSleep, .frame, .exit, .dropped: (.none, .none)
        }
    }
}
