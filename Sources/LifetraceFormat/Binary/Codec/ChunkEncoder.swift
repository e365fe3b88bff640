/// Collects one stream's events for the chunk being built and encodes them into raw records.
///
/// Events are kept until the chunk is written, so that the chunk's timestamp unit (the greatest
/// common divisor of its timestamp deltas) is known before any delta is encoded: traces from
/// clocks with microsecond resolution then store deltas in microseconds. Strings are interned
/// per chunk as events arrive: the first use of a symbol gives it the next chunk-local index
/// (from 1) and a string definition record; all definitions are written at the start of the
/// chunk's records, before the events that use them.
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
    private var events: [TraceEvent] = []
    private var definitions: [UInt8] = []
    // Chunk-local index of each global symbol (by raw value), 0 when not yet defined here.
    private var localIndex: [UInt32] = []
    private var definedSymbols: [UInt32] = []
    // Records given as bytes (tests of readers), each inserted before the event at `position`.
    private var rawRecords: [(position: Int, bytes: [UInt8], delta: [UInt8], timestamp: Int64)] = []
    private var deltaBytes: [UInt8] = []

    /// Creates an encoder for `stream` with chunks of at most `capacity` raw bytes.
    init(stream: TraceStream, capacity: Int) {
        self.stream = stream
        self.capacity = capacity
    }

    /// Whether the chunk being built has no events.
    var isEmpty: Bool { events.isEmpty && rawRecords.isEmpty }

    /// The number of event records in the chunk being built.
    var eventCount: Int { events.count + rawRecords.count }

    /// Starts the next chunk of the stream.
    mutating func reset() {
        for symbol in definedSymbols { localIndex[Int(symbol)] = 0 }
        definedSymbols.removeAll(keepingCapacity: true)
        definitions.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        rawRecords.removeAll()
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
        var needed = EventRecord.maxEventLength
        if !first.isNone && localIndexOf(first) == 0 { needed += definitionLength(first, symbols) }
        if !second.isNone && localIndexOf(second) == 0 && second != first { needed += definitionLength(second, symbols) }
        if estimatedSize + needed > capacity {
            return isEmpty ? .tooLarge : .full
        }
        let firstIndex = define(first, symbols)
        let secondIndex = define(second, symbols)
        if isEmpty {
            firstTimestamp = event.timestamp
            lastTimestamp = event.timestamp
        }
        let delta = event.timestamp &- lastTimestamp
        lastTimestamp = event.timestamp
        estimatedSize += ChunkEncoder.recordLength(event, magnitude: delta.magnitude, first: firstIndex, second: secondIndex)
        events.append(event)
        return .added
    }

    /// Appends a record as given (its structure bytes and its delta-section bytes), for tests of
    /// readers against records this writer never makes; `timestamp` is the time the record's
    /// delta leads to, in a chunk whose unit is 1.
    mutating func appendRawRecord(_ record: [UInt8], delta: [UInt8], timestamp: Int64) {
        if isEmpty { firstTimestamp = timestamp }
        lastTimestamp = timestamp
        rawRecords.append((events.count, record, delta, timestamp))
        estimatedSize += record.count + delta.count
    }

    /// The timestamps of the chunk's event records, in order.
    var timestamps: [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(eventCount)
        var nextRaw = 0
        for (position, event) in events.enumerated() {
            while nextRaw < rawRecords.count && rawRecords[nextRaw].position == position {
                result.append(rawRecords[nextRaw].timestamp)
                nextRaw += 1
            }
            result.append(event.timestamp)
        }
        result += rawRecords[nextRaw...].map(\.timestamp)
        return result
    }

    /// The timestamp unit of the chunk: the greatest common divisor of its deltas, at least 1.
    func timestampUnit() -> UInt64 {
        if !rawRecords.isEmpty { return 1 }
        var unit: UInt64 = 0
        var divisor = ExactDivisor(1)
        var previous = firstTimestamp
        for event in events {
            let magnitude = (event.timestamp &- previous).magnitude
            previous = event.timestamp
            if magnitude == 0 || (unit != 0 && divisor.divides(magnitude)) { continue }
            unit = greatestCommonDivisor(unit, magnitude)
            if unit == 1 { return 1 }
            divisor = ExactDivisor(unit)
        }
        return Swift.max(unit, 1)
    }

    /// Encodes the chunk's records with timestamp deltas in `unit`s into `bytes`, replacing its
    /// content: the structure section, then the delta section. Returns both sizes.
    mutating func encode(unit: UInt64, into bytes: inout [UInt8]) -> (raw: Int, structure: Int) {
        let rawBound = rawRecords.reduce(0) { $0 + $1.bytes.count + $1.delta.count }
        let bound = definitions.count + events.count * EventRecord.maxEventLength + rawBound
        if bytes.count < bound { bytes.append(contentsOf: repeatElement(0, count: bound - bytes.count)) }
        let deltaBound = events.count * Varint.maxLength + rawBound
        var scratch = deltaBytes
        deltaBytes = []
        defer { deltaBytes = scratch }
        if scratch.count < deltaBound { scratch.append(contentsOf: repeatElement(0, count: deltaBound - scratch.count)) }
        var deltaCount = 0
        let divisor = ExactDivisor(unit)
        let structure = bytes.withUnsafeMutableBufferPointer { buffer in
            scratch.withUnsafeMutableBufferPointer { deltaBuffer in
                let base = buffer.baseAddress!
                let deltaBase = deltaBuffer.baseAddress!
                var count = 0
                definitions.withUnsafeBufferPointer { source in
                    if let start = source.baseAddress { base.update(from: start, count: source.count) }
                }
                count += definitions.count
                var previous = firstTimestamp
                var nextRaw = 0
                func appendRaw(_ record: (position: Int, bytes: [UInt8], delta: [UInt8], timestamp: Int64)) {
                    for byte in record.bytes {
                        base[count] = byte
                        count += 1
                    }
                    for byte in record.delta {
                        deltaBase[deltaCount] = byte
                        deltaCount += 1
                    }
                    previous = record.timestamp
                }
                events.withUnsafeBufferPointer { events in
                    for position in events.indices {
                        while nextRaw < rawRecords.count && rawRecords[nextRaw].position == position {
                            appendRaw(rawRecords[nextRaw])
                            nextRaw += 1
                        }
                        let event = events[position]
                        let delta = event.timestamp &- previous
                        previous = event.timestamp
                        let (first, second) = event.payload.symbols
                        count += ChunkEncoder.encode(
                            event, negative: delta < 0, first: localIndexOf(first), second: localIndexOf(second),
                            at: base + count)
                        deltaCount += Varint.write(divisor.quotient(delta.magnitude), to: deltaBase + deltaCount)
                    }
                }
                while nextRaw < rawRecords.count {
                    appendRaw(rawRecords[nextRaw])
                    nextRaw += 1
                }
                (base + count).update(from: deltaBase, count: deltaCount)
                return count
            }
        }
        return (structure + deltaCount, structure)
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
