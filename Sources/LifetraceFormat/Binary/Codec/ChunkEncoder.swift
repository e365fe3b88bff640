/// Collects one stream's events for the chunk being built and encodes them into raw records.
///
/// Each event's record structure (everything but its timestamp delta) is written as the event
/// arrives, since it does not depend on the chunk's timestamp unit; only the timestamps are kept
/// until the chunk is written, so that the unit (the greatest common divisor of the chunk's
/// timestamp deltas) is known before any delta is encoded: traces from clocks with microsecond
/// resolution then store deltas in microseconds. Strings are interned per chunk as events
/// arrive: the first use of a symbol gives it the next chunk-local index (from 1) and a string
/// definition record; all definitions are written at the start of the chunk's records, before
/// the events that use them.
struct ChunkEncoder {
    /// The stream this encoder's chunks belong to.
    let stream: TraceStream
    /// The raw-size limit of a chunk.
    let capacity: Int
    /// The sequence number of the chunk being built.
    private(set) var sequence: UInt64 = 0
    /// The timestamp of the chunk's first event.
    private(set) var firstTimestamp: Int64 = 0
    /// The timestamp of the chunk's last event.
    private(set) var lastTimestamp: Int64 = 0
    /// An upper bound of the encoded size: records encoded with a timestamp unit of 1.
    private(set) var estimatedSize = 0
    // The chunk's structure bytes and timestamps; `buffer` is shared by copies of the encoder,
    // which only the writer's own (uniquely held) encoder ever appends to.
    private var buffer: ChunkBuffer
    private var timestampCount = 0
    // The greatest common divisor of the deltas so far (0: none yet), kept as events arrive so
    // that writing the chunk needs no pass of its own to find the timestamp unit.
    private var unit: UInt64 = 0
    private var unitDivisor = ExactDivisor(1)
    // The length of the event records' structure bytes in `buffer`.
    private var structureCount = 0
    private var definitions: [UInt8] = []
    // Chunk-local index of each global symbol (by raw value), 0 when not yet defined here.
    private var localIndex: [UInt32] = []
    private var definedSymbols: [UInt32] = []
    // Delta-section bytes of records given as bytes (tests of readers), by record position.
    private var rawDeltas: [(position: Int, delta: [UInt8])] = []

    /// Creates an encoder for `stream` with chunks of at most `capacity` raw bytes.
    init(stream: TraceStream, capacity: Int) {
        self.stream = stream
        self.capacity = capacity
        // An event record adds at least 2 bytes (tag, delta) to `estimatedSize` and is only added
        // while `maxEventLength` more bytes fit, so these bounds hold for appended events.
        buffer = ChunkBuffer(byteCapacity: capacity + EventRecord.maxEventLength, timestampCapacity: capacity / 2 + 2)
    }

    /// Whether the chunk being built has no events.
    var isEmpty: Bool { timestampCount == 0 }

    /// The number of event records in the chunk being built.
    var eventCount: Int { timestampCount }

    /// The timestamps of the chunk's event records, in order; valid while this encoder is
    /// neither changed nor destroyed.
    var timestamps: UnsafeBufferPointer<Int64> {
        UnsafeBufferPointer(start: buffer.timestamps, count: timestampCount)
    }

    /// Starts the next chunk of the stream.
    mutating func reset() {
        for symbol in definedSymbols { localIndex[Int(symbol)] = 0 }
        definedSymbols.removeAll(keepingCapacity: true)
        definitions.removeAll(keepingCapacity: true)
        timestampCount = 0
        structureCount = 0
        unit = 0
        unitDivisor = ExactDivisor(1)
        rawDeltas.removeAll()
        sequence += 1
        estimatedSize = 0
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
        var firstIndex = localIndexOf(first)
        var secondIndex = localIndexOf(second)
        if (firstIndex == 0 && !first.isNone) || (secondIndex == 0 && !second.isNone) {
            var needed = EventRecord.maxEventLength
            if !first.isNone && firstIndex == 0 { needed += definitionLength(first, symbols) }
            if !second.isNone && secondIndex == 0 && second != first { needed += definitionLength(second, symbols) }
            if estimatedSize + needed > capacity {
                return isEmpty ? .tooLarge : .full
            }
            if firstIndex == 0 && !first.isNone { firstIndex = defineNew(first, symbols) }
            if !second.isNone { secondIndex = localIndexOf(second) }
            if secondIndex == 0 && !second.isNone { secondIndex = defineNew(second, symbols) }
        } else if estimatedSize + EventRecord.maxEventLength > capacity {
            return isEmpty ? .tooLarge : .full
        }
        if isEmpty {
            firstTimestamp = event.timestamp
            lastTimestamp = event.timestamp
        }
        let delta = event.timestamp &- lastTimestamp
        lastTimestamp = event.timestamp
        let magnitude = delta.magnitude
        if unit != 1 && magnitude != 0 && (unit == 0 || !unitDivisor.divides(magnitude)) {
            addToUnit(magnitude)
        }
        if timestampCount == buffer.timestampCapacity || structureCount + EventRecord.maxEventLength > buffer.byteCapacity {
            grow(bytes: EventRecord.maxEventLength)
        }
        let length = ChunkEncoder.encode(
            event, negative: delta < 0, first: firstIndex, second: secondIndex, at: buffer.bytes + structureCount)
        structureCount += length
        estimatedSize += length + Varint.length(magnitude)
        buffer.timestamps[timestampCount] = event.timestamp
        timestampCount += 1
        return .added
    }

    /// Appends a record as given (its structure bytes and its delta-section bytes), for tests of
    /// readers against records this writer never makes; `timestamp` is the time the record's
    /// delta leads to, in a chunk whose unit is 1.
    mutating func appendRawRecord(_ record: [UInt8], delta: [UInt8], timestamp: Int64) {
        if isEmpty { firstTimestamp = timestamp }
        lastTimestamp = timestamp
        grow(bytes: record.count)
        record.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { (buffer.bytes + structureCount).update(from: start, count: source.count) }
        }
        structureCount += record.count
        rawDeltas.append((timestampCount, delta))
        buffer.timestamps[timestampCount] = timestamp
        timestampCount += 1
        estimatedSize += record.count + delta.count
    }

    // Makes room for `bytes` more structure bytes and one more timestamp.
    @inline(never)
    private mutating func grow(bytes: Int) {
        if timestampCount < buffer.timestampCapacity && structureCount + bytes <= buffer.byteCapacity { return }
        buffer = buffer.grown(
            bytes: structureCount, timestamps: timestampCount,
            minimumBytes: 2 * (structureCount + bytes), minimumTimestamps: 2 * (timestampCount + 1))
    }

    /// The timestamp unit of the chunk: the greatest common divisor of its deltas, at least 1.
    func timestampUnit() -> UInt64 {
        rawDeltas.isEmpty ? Swift.max(unit, 1) : 1
    }

    @inline(never)
    private mutating func addToUnit(_ magnitude: UInt64) {
        unit = greatestCommonDivisor(unit, magnitude)
        unitDivisor = ExactDivisor(unit)
    }

    /// Encodes the chunk's records with timestamp deltas in `unit`s into `bytes`, replacing its
    /// content: the structure section, then the delta section. Returns both sizes.
    mutating func encode(unit: UInt64, into bytes: inout [UInt8]) -> (raw: Int, structure: Int) {
        let rawDeltaBound = rawDeltas.reduce(0) { $0 + $1.delta.count }
        let bound = definitions.count + structureCount + timestampCount * Varint.maxLength + rawDeltaBound
        if bytes.count < bound { bytes.append(contentsOf: repeatElement(0, count: bound - bytes.count)) }
        let structureSize = definitions.count + structureCount
        let divisor = ExactDivisor(unit)
        let deltaCount = bytes.withUnsafeMutableBufferPointer { output in
            let base = output.baseAddress!
            definitions.withUnsafeBufferPointer { source in
                if let start = source.baseAddress { base.update(from: start, count: source.count) }
            }
            (base + definitions.count).update(from: self.buffer.bytes, count: structureCount)
            let deltaBase = base + structureSize
            var count = 0
            var previous = firstTimestamp
            var nextRaw = 0
            do {
                let timestamps = self.timestamps
                for position in timestamps.indices {
                    let timestamp = timestamps[position]
                    if nextRaw < rawDeltas.count && rawDeltas[nextRaw].position == position {
                        for byte in rawDeltas[nextRaw].delta {
                            deltaBase[count] = byte
                            count += 1
                        }
                        nextRaw += 1
                    } else {
                        count += Varint.write(divisor.quotient((timestamp &- previous).magnitude), to: deltaBase + count)
                    }
                    previous = timestamp
                }
            }
            return count
        }
        return (structureSize + deltaCount, structureSize)
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

    // The chunk-local index of `symbol`, adding its definition record if needed.
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
            localIndex.append(contentsOf: repeatElement(0, count: Swift.max(raw + 1, symbols.count) - localIndex.count))
        }
        let index = UInt32(definedSymbols.count + 1)
        localIndex[raw] = index
        definedSymbols.append(symbol.rawValue)
        let utf8 = Array(symbols[symbol].utf8)
        let start = definitions.count
        definitions.append(EventRecord.stringDefinition)
        Varint.append(UInt64(utf8.count), to: &definitions)
        definitions.append(contentsOf: utf8)
        estimatedSize += definitions.count - start
        return index
    }
}

/// The greatest common divisor of `a` and `b` (binary GCD); `gcd(0, b) == b`.
func greatestCommonDivisor(_ a: UInt64, _ b: UInt64) -> UInt64 {
    if a == 0 { return b }
    if b == 0 { return a }
    var a = a
    var b = b
    let shift = (a | b).trailingZeroBitCount
    a >>= a.trailingZeroBitCount
    repeat {
        b >>= b.trailingZeroBitCount
        if a > b { swap(&a, &b) }
        b -= a
    } while b != 0
    return a << shift
}
