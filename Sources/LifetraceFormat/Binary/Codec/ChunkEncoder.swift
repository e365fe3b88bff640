/// Collects one stream's events for the chunk being built and encodes them into raw records.
///
/// Each event's record structure (everything but its timestamp delta) is written as the event
/// arrives. Its delta is written too, in the chunk's timestamp unit so far (the greatest common
/// divisor of the chunk's deltas, so that traces from clocks with microsecond resolution store
/// deltas in microseconds); when a later delta makes the unit smaller, which happens a few times
/// near the start of a chunk, the deltas so far are written again from the kept timestamps.
/// Writing the chunk then only copies the sections. Strings are interned per chunk as events
/// arrive: the first use of a symbol gives it the next chunk-local index (from 1) and a string
/// definition record; all definitions are written at the start of the chunk's records, before
/// the events that use them.
struct ChunkEncoder {
    /// The stream this encoder's chunks belong to.
    let stream: TraceStream
    /// The raw-size limit of a chunk.
    let capacity: Int
    /// The raw-size limit for events: ``capacity``, or 0 once the chunk holds image, stack or
    /// sample records, which share a chunk with no event (``appendSideRecord(_:timestamp:)``).
    private(set) var eventLimit: Int
    /// Whether the chunk holds image, stack or sample records.
    var holdsSideRecords: Bool { eventLimit == 0 }
    /// The sequence number of the chunk being built.
    private(set) var sequence: UInt64 = 0
    /// The timestamp of the chunk's first event.
    private(set) var firstTimestamp: Int64 = 0
    /// The timestamp of the chunk's last event.
    private(set) var lastTimestamp: Int64 = 0
    /// The size of the chunk's raw content (both sections) if it were written now.
    private(set) var rawSize = 0
    /// The chunk's structure bytes, timestamps and deltas; shared by copies of the encoder, which
    /// only the writer's own encoder ever appends to.
    private(set) var buffer: ChunkBuffer {
        didSet { (structureBase, timestampBase, deltaBase) = (buffer.bytes, buffer.timestamps, buffer.deltas) }
    }
    /// `buffer`'s storage, kept here so that an append reaches it with one dependent load less.
    private(set) var structureBase: UnsafeMutablePointer<UInt8>
    private var timestampBase: UnsafeMutablePointer<Int64>
    private var deltaBase: UnsafeMutablePointer<UInt8>
    private var timestampCount = 0
    /// The length of the appended events' deltas in `buffer`, in the unit so far.
    private(set) var deltaCount = 0
    // The greatest common divisor of the deltas so far (0: none yet); `unitDivisor` tests a delta
    // against it and divides by it (``ExactDivisor/onlyZero`` while there is none: every delta
    // so far is 0, and its quotient 0 is right for any unit).
    private var unit: UInt64 = 0
    private var unitDivisor = ExactDivisor.onlyZero
    /// The length of the event records' structure bytes in `buffer`.
    private(set) var structureCount = 0
    private var definitions: [UInt8] = []
    /// The chunk-local index of each global symbol (by raw value): ``undefined`` when the chunk
    /// has no definition of it yet, 0 for ``Symbol/none``. Symbols past the end are undefined.
    private(set) var localIndexes: [UInt32] = [0]
    private var definedSymbols: [UInt32] = []
    // Delta-section bytes of records given as bytes (tests of readers), by record position.
    private var rawDeltas: [(position: Int, delta: [UInt8])] = []

    /// The ``localIndexes`` entry of a symbol without a definition in the chunk. The bit is never
    /// set in a real index (a chunk holds far fewer strings), so that one test of the indexes of
    /// an event's strings OR-ed together finds any of them undefined.
    static let undefined: UInt32 = 0x8000_0000

    /// Creates an encoder for `stream` with chunks of at most `capacity` raw bytes.
    init(stream: TraceStream, capacity: Int) {
        self.stream = stream
        self.capacity = capacity
        eventLimit = capacity
        // An event record adds at least 2 bytes (tag, delta) to `rawSize` and is only added while
        // `maxEventLength` more bytes fit, so these bounds hold for appended events and `append`
        // need not check them (`appendRawRecord` keeps them too).
        buffer = ChunkBuffer(
            byteCapacity: capacity + EventRecord.maxEventLength, timestampCapacity: capacity / 2 + 2,
            deltaCapacity: capacity + Varint.maxLength)
        (structureBase, timestampBase, deltaBase) = (buffer.bytes, buffer.timestamps, buffer.deltas)
    }

    /// Whether the chunk being built has no events.
    var isEmpty: Bool { timestampCount == 0 }

    /// The number of event records in the chunk being built.
    var eventCount: Int { timestampCount }

    /// The timestamps of the chunk's event records, in order; valid while this encoder is
    /// neither changed nor destroyed.
    var timestamps: UnsafeBufferPointer<Int64> {
        UnsafeBufferPointer(start: timestampBase, count: timestampCount)
    }

    /// Starts the next chunk of the stream.
    mutating func reset() {
        for symbol in definedSymbols { localIndexes[Int(symbol)] = ChunkEncoder.undefined }
        definedSymbols.removeAll(keepingCapacity: true)
        definitions.removeAll(keepingCapacity: true)
        timestampCount = 0
        structureCount = 0
        deltaCount = 0
        unit = 0
        unitDivisor = .onlyZero
        rawDeltas.removeAll()
        sequence += 1
        rawSize = 0
        eventLimit = capacity
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
    ///
    /// The record is written in one pass over the payload, looking up its strings' local indexes
    /// on the way. Two rarer cases change more than the event's own bytes and take a slower path
    /// that checks the room first: a string without a definition in the chunk yet (at most once
    /// per string and chunk), and a delta that the chunk's unit does not divide.
    @inline(__always)
    mutating func append(_ event: TraceEvent, symbols: SymbolTable) -> Fit {
        if rawSize &+ EventRecord.maxEventLength > eventLimit {
            return isEmpty ? .tooLarge : .full
        }
        let delta = event.timestamp &- (isEmpty ? event.timestamp : lastTimestamp)
        let magnitude = delta.magnitude
        if !unitDivisor.divides(magnitude) { return appendSlowly(event, symbols: symbols, delta: delta) }
        let length = writeRecord(event, negative: delta < 0)
        if length == 0 { return appendSlowly(event, symbols: symbols, delta: delta) }
        commit(event.timestamp, magnitude: magnitude, length: length)
        return .added
    }

    // Counts the record just written at the end of the structure bytes, writes its delta in the
    // chunk's unit and keeps its timestamp.
    @inline(__always)
    private mutating func commit(_ timestamp: Int64, magnitude: UInt64, length: Int) {
        if isEmpty { firstTimestamp = timestamp }
        lastTimestamp = timestamp
        // Wrapping arithmetic: these stay below `capacity` (see `init`).
        let deltaLength = Varint.write(unitDivisor.quotient(magnitude), to: deltaBase + deltaCount)
        deltaCount &+= deltaLength
        structureCount &+= length
        rawSize &+= length &+ deltaLength
        timestampBase[timestampCount] = timestamp
        timestampCount &+= 1
    }

    // `append` for an event that names a string the chunk has not defined yet, or whose delta
    // the chunk's unit does not divide (the deltas so far are then written again in a smaller
    // unit, and take more room).
    @inline(never)
    private mutating func appendSlowly(_ event: TraceEvent, symbols: SymbolTable, delta: Int64) -> Fit {
        let (first, second) = event.payload.symbols
        let definesFirst = localIndex(of: first) == ChunkEncoder.undefined
        let definesSecond = localIndex(of: second) == ChunkEncoder.undefined && second != first
        var needed = EventRecord.maxEventLength
        if definesFirst { needed += definitionLength(first, symbols) }
        if definesSecond { needed += definitionLength(second, symbols) }
        let magnitude = delta.magnitude
        var newUnit: ExactDivisor?
        if !unitDivisor.divides(magnitude) {
            let divisor = ExactDivisor(greatestCommonDivisor(unit, magnitude))
            needed += deltaLength(in: divisor) - deltaCount
            newUnit = divisor
        }
        if rawSize + needed > capacity {
            return isEmpty ? .tooLarge : .full
        }
        if definesFirst { define(first, symbols) }
        if definesSecond { define(second, symbols) }
        if let newUnit { setUnit(newUnit) }
        let length = writeRecord(event, negative: delta < 0)
        commit(event.timestamp, magnitude: magnitude, length: length)
        return .added
    }

    /// Adds an image, stack or sample record (`record`: its tag, length and body) at `timestamp`.
    /// From then on the chunk takes no event (``holdsSideRecords``), so that the group-order
    /// frame never has to count records a reader skips: the writer flushes it first.
    mutating func appendSideRecord(_ record: [UInt8], timestamp: Int64) -> Fit {
        let delta = timestamp &- (isEmpty ? timestamp : lastTimestamp)
        let magnitude = delta.magnitude
        var needed = record.count + Varint.maxLength
        var newUnit: ExactDivisor?
        if !unitDivisor.divides(magnitude) {
            let divisor = ExactDivisor(greatestCommonDivisor(unit, magnitude))
            needed += deltaLength(in: divisor) - deltaCount
            newUnit = divisor
        }
        if rawSize + needed > capacity { return isEmpty ? .tooLarge : .full }
        if let newUnit { setUnit(newUnit) }
        let pointer = structureBase + structureCount
        for (offset, byte) in record.enumerated() { pointer[offset] = byte }
        if delta < 0 { pointer[0] |= EventRecord.negativeDeltaFlag }
        commit(timestamp, magnitude: magnitude, length: record.count)
        eventLimit = 0
        return .added
    }

    /// Appends a record as given (its structure bytes and its delta-section bytes), for tests of
    /// readers against records this writer never makes; `timestamp` is the time the record's
    /// delta leads to, in a chunk whose unit is 1.
    mutating func appendRawRecord(_ record: [UInt8], delta: [UInt8], timestamp: Int64) {
        if rawDeltas.isEmpty {
            // The chunk's unit becomes 1: the deltas so far take their size in that unit, and
            // those of events appended later are counted in it.
            let unitOne = ExactDivisor(1)
            let length = deltaLength(in: unitOne)
            grow(bytes: 0, timestamps: 0, deltas: length + Varint.maxLength)
            setUnit(unitOne)
        }
        if isEmpty { firstTimestamp = timestamp }
        lastTimestamp = timestamp
        // Room for this record and for the events `append` may still add: `append` relies on it.
        grow(bytes: record.count + EventRecord.maxEventLength, timestamps: 1 + capacity / 2 + 2, deltas: 0)
        record.withUnsafeBufferPointer { source in
            if let start = source.baseAddress { (structureBase + structureCount).update(from: start, count: source.count) }
        }
        structureCount += record.count
        rawDeltas.append((timestampCount, delta))
        timestampBase[timestampCount] = timestamp
        timestampCount += 1
        rawSize += record.count + delta.count
    }

    // Makes room for `bytes` more structure bytes, `timestamps` more timestamps and `deltas`
    // delta bytes in all.
    private mutating func grow(bytes: Int, timestamps: Int, deltas: Int) {
        if timestampCount + timestamps <= buffer.timestampCapacity && structureCount + bytes <= buffer.byteCapacity
            && deltas <= buffer.deltaCapacity {
            return
        }
        buffer = buffer.grown(
            bytes: structureCount, timestamps: timestampCount, deltas: deltaCount,
            minimumBytes: 2 * (structureCount + bytes), minimumTimestamps: 2 * (timestampCount + timestamps),
            minimumDeltas: deltas)
    }

    /// The timestamp unit of the chunk: the greatest common divisor of its deltas, at least 1.
    func timestampUnit() -> UInt64 {
        rawDeltas.isEmpty ? Swift.max(unit, 1) : 1
    }

    // Makes `divisor` the chunk's unit and writes the deltas so far in it; `buffer` has room.
    private mutating func setUnit(_ divisor: ExactDivisor) {
        unit = divisor.divisor
        unitDivisor = divisor
        let length = encodeDeltas(unit: divisor, to: deltaBase)
        rawSize += length - deltaCount
        deltaCount = length
    }

    // The size of the deltas so far in `unit`, which divides them.
    private func deltaLength(in unit: ExactDivisor) -> Int {
        var length = 0
        var previous = firstTimestamp
        for timestamp in timestamps {
            length += Varint.length(unit.quotient((timestamp &- previous).magnitude))
            previous = timestamp
        }
        return length
    }

    /// The chunk-local index of `symbol`: 0 for ``Symbol/none``, ``undefined`` when the chunk has
    /// not defined it.
    @inline(__always)
    func localIndex(of symbol: Symbol) -> UInt32 {
        let raw = Int(symbol.rawValue)
        return localIndexes.withUnsafeBufferPointer { raw < $0.count ? $0[raw] : ChunkEncoder.undefined }
    }

    private func definitionLength(_ symbol: Symbol, _ symbols: SymbolTable) -> Int {
        let length = symbols[symbol].utf8.count
        return 1 + Varint.length(UInt64(length)) + length
    }

    // Gives `symbol` the next chunk-local index and adds its definition record.
    private mutating func define(_ symbol: Symbol, _ symbols: SymbolTable) {
        let raw = Int(symbol.rawValue)
        if raw >= localIndexes.count {
            localIndexes.append(
                contentsOf: repeatElement(ChunkEncoder.undefined, count: Swift.max(raw + 1, symbols.count) - localIndexes.count))
        }
        localIndexes[raw] = UInt32(definedSymbols.count + 1)
        definedSymbols.append(symbol.rawValue)
        let utf8 = Array(symbols[symbol].utf8)
        let start = definitions.count
        definitions.append(EventRecord.stringDefinition)
        Varint.append(UInt64(utf8.count), to: &definitions)
        definitions.append(contentsOf: utf8)
        rawSize += definitions.count - start
    }

    /// Encodes the chunk's records with timestamp deltas in ``timestampUnit()``s into `bytes`,
    /// replacing its content: the structure section, then the delta section. Returns both sizes.
    func encode(into bytes: inout [UInt8]) -> (raw: Int, structure: Int) {
        let rawDeltaBound = rawDeltas.reduce(0) { $0 + $1.delta.count }
        let bound = definitions.count + structureCount + deltaCount + timestampCount * Varint.maxLength + rawDeltaBound
        if bytes.count < bound { bytes.append(contentsOf: repeatElement(0, count: bound - bytes.count)) }
        let structureSize = definitions.count + structureCount
        let deltaSize = bytes.withUnsafeMutableBufferPointer { output in
            let base = output.baseAddress!
            definitions.withUnsafeBufferPointer { source in
                if let start = source.baseAddress { base.update(from: start, count: source.count) }
            }
            (base + definitions.count).update(from: structureBase, count: structureCount)
            if rawDeltas.isEmpty {
                (base + structureSize).update(from: deltaBase, count: deltaCount)
                return deltaCount
            }
            return encodeDeltasWithRawRecords(to: base + structureSize)
        }
        return (structureSize + deltaSize, structureSize)
    }

    // The deltas of the events so far in `unit`, at `output`; returns their size.
    private func encodeDeltas(unit: ExactDivisor, to output: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        var previous = firstTimestamp
        for timestamp in timestamps {
            count += Varint.write(unit.quotient((timestamp &- previous).magnitude), to: output + count)
            previous = timestamp
        }
        return count
    }

    // The delta section of a chunk with records given as bytes (whose unit is 1), at `output`.
    private func encodeDeltasWithRawRecords(to output: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        var previous = firstTimestamp
        var nextRaw = 0
        for (position, timestamp) in timestamps.enumerated() {
            if nextRaw < rawDeltas.count && rawDeltas[nextRaw].position == position {
                for byte in rawDeltas[nextRaw].delta {
                    output[count] = byte
                    count += 1
                }
                nextRaw += 1
            } else {
                count += Varint.write((timestamp &- previous).magnitude, to: output + count)
            }
            previous = timestamp
        }
        return count
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
