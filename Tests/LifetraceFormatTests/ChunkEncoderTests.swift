import Testing
@testable import LifetraceFormat
import LifetraceZstd

/// The records and chunk limits of ``ChunkEncoder``, checked against `docs/FORMAT.md`.
struct ChunkEncoderTests {
    /// The chunk's raw content (structure section, then delta section) and its timestamp unit.
    private func encoded(_ encoder: ChunkEncoder) -> (bytes: [UInt8], structure: Int, unit: UInt64) {
        var bytes: [UInt8] = []
        let (raw, structure) = encoder.encode(into: &bytes)
        return (Array(bytes[0..<raw]), structure, encoder.timestampUnit())
    }

    @Test func recordsFollowTheSpecifiedLayout() {
        var symbols = SymbolTable()
        let name = symbols.intern("didFinishLaunching")
        let scene = symbols.intern("main")
        var encoder = ChunkEncoder(stream: .app, capacity: 4096)
        let events = [
            TraceEvent(timestamp: 1_000, payload: .callbackBegin(name: name, scene: scene), thread: .numbered(3)),
            TraceEvent(timestamp: 3_000, payload: .runloopWake),
            TraceEvent(timestamp: 2_000, payload: .signpostBegin(name: scene, id: -2)),
            TraceEvent(timestamp: 2_000, payload: .exit(code: 1, signal: nil)),
            TraceEvent(timestamp: 2_000, payload: .frame(first: true)),
        ]
        for event in events { #expect(encoder.append(event, symbols: symbols) == .added) }
        let (bytes, structure, unit) = encoded(encoder)
        #expect(unit == 1_000)
        let definitions: [UInt8] = [0x00, 18] + Array("didFinishLaunching".utf8) + [0x00, 4] + Array("main".utf8)
        let records: [UInt8] = [
            0x20 | 0x03, 4, 1, 2,  // callback.begin on thread 3 (varint 4), name 1, scene 2
            0x05,  // runloop.wake
            0x80 | 0x07, 2, 1, 3,  // signpost.begin, negative delta, name 2, id present, zigzag(-2)
            0x0E, 0x01, 2,  // exit with a code, zigzag(1)
            0x0A, 2,  // frame, first
        ]
        #expect(structure == definitions.count + records.count)
        #expect(Array(bytes[0..<structure]) == definitions + records)
        #expect(Array(bytes[structure...]) == [0, 2, 1, 0, 0])
    }

    @Test func aStringIsDefinedOncePerChunkAndAgainInTheNext() {
        var symbols = SymbolTable()
        let name = symbols.intern("tick")
        var encoder = ChunkEncoder(stream: .app, capacity: 4096)
        let event = TraceEvent(timestamp: 1, payload: .callbackBegin(name: name, scene: name))
        #expect(encoder.append(event, symbols: symbols) == .added)
        #expect(encoder.append(event, symbols: symbols) == .added)
        let first = encoded(encoder)
        #expect(Array(first.bytes[0..<first.structure]) == [0x00, 4] + Array("tick".utf8) + [0x03, 1, 1, 0x03, 1, 1])
        encoder.reset()
        #expect(encoder.localIndex(of: name) == ChunkEncoder.undefined)
        #expect(encoder.append(event, symbols: symbols) == .added)
        let second = encoded(encoder)
        #expect(Array(second.bytes[0..<second.structure]) == [0x00, 4] + Array("tick".utf8) + [0x03, 1, 1])
    }

    @Test func stringsAddedToTheTableAfterTheFirstAppendAreDefined() {
        var symbols = SymbolTable()
        var encoder = ChunkEncoder(stream: .app, capacity: 4096)
        #expect(encoder.append(TraceEvent(timestamp: 1, payload: .mark(name: symbols.intern("a"))), symbols: symbols) == .added)
        for index in 0..<300 { _ = symbols.intern("name \(index)") }
        let late = symbols.intern("late")
        #expect(encoder.localIndex(of: late) == ChunkEncoder.undefined)
        #expect(encoder.append(TraceEvent(timestamp: 2, payload: .mark(name: late)), symbols: symbols) == .added)
        #expect(encoder.localIndex(of: late) == 2)
        #expect(encoder.localIndex(of: .none) == 0)
    }

    @Test func definitionsThatDoNotFitEndTheChunkWithoutChangingIt() {
        var symbols = SymbolTable()
        let short = symbols.intern("short")
        let long = symbols.intern(String(repeating: "x", count: 3000))
        var encoder = ChunkEncoder(stream: .app, capacity: 4096)
        for timestamp in 0..<400 {
            #expect(encoder.append(TraceEvent(timestamp: Int64(timestamp), payload: .mark(name: short)), symbols: symbols) == .added)
        }
        let before = encoded(encoder).bytes
        let event = TraceEvent(timestamp: 500, payload: .callbackBegin(name: short, scene: long))
        #expect(encoder.append(event, symbols: symbols) == .full)
        #expect(encoder.eventCount == 400)
        #expect(encoder.localIndex(of: long) == ChunkEncoder.undefined)
        #expect(encoded(encoder).bytes == before)
        encoder.reset()
        #expect(encoder.append(event, symbols: symbols) == .added)
    }

    /// An encoder with `count` run loop wakes one millisecond apart.
    private func millisecondWakes(_ count: Int) -> ChunkEncoder {
        var encoder = ChunkEncoder(stream: .app, capacity: 4096)
        for index in 0..<count {
            #expect(encoder.append(TraceEvent(timestamp: Int64(index) * 1_000_000, payload: .runloopWake), symbols: SymbolTable()) == .added)
        }
        #expect(encoder.timestampUnit() == 1_000_000)
        return encoder
    }

    /// Appends a run loop wake one nanosecond after the last of `millisecondWakes(count)`.
    private func appendNanosecondLater(after count: Int, to encoder: inout ChunkEncoder) -> ChunkEncoder.Fit {
        encoder.append(TraceEvent(timestamp: Int64(count - 1) * 1_000_000 + 1, payload: .runloopWake), symbols: SymbolTable())
    }

    @Test func aSmallerUnitWritesTheDeltasSoFarAgain() {
        var encoder = millisecondWakes(100)
        #expect(appendNanosecondLater(after: 100, to: &encoder) == .added)
        #expect(encoder.timestampUnit() == 1)
        let (bytes, structure, _) = encoded(encoder)
        let millisecond: [UInt8] = [0xC0, 0x84, 0x3D]
        let deltas: [[UInt8]] = [[0]] + Array(repeating: millisecond, count: 99) + [[1]]
        #expect(Array(bytes[structure...]) == Array(deltas.joined()))
        #expect(encoder.rawSize == bytes.count)
    }

    @Test func aSmallerUnitWhoseDeltasDoNotFitEndsTheChunkWithoutChangingIt() {
        // 1750 events of 2 bytes: one more event fits, but not the deltas in nanoseconds.
        let before = encoded(millisecondWakes(1750)).bytes
        var encoder = millisecondWakes(1750)
        #expect(appendNanosecondLater(after: 1750, to: &encoder) == .full)
        #expect(encoder.timestampUnit() == 1_000_000)
        #expect(encoder.eventCount == 1750)
        #expect(encoder.rawSize == before.count)
        #expect(encoded(encoder).bytes == before)
    }

    @Test func anEventLargerThanAnEmptyChunkIsTooLarge() throws {
        var symbols = SymbolTable()
        let huge = symbols.intern(String(repeating: "y", count: 5000))
        var encoder = ChunkEncoder(stream: .app, capacity: 4096)
        #expect(encoder.append(TraceEvent(timestamp: 1, payload: .mark(name: huge)), symbols: symbols) == .tooLarge)
        #expect(encoder.isEmpty)
        let writer = try TraceWriter(path: "/dev/null", metadata: TraceMetadata([]), options: .init(chunkSize: 4096))
        #expect(throws: TraceError.self) { try writer.append(TraceEvent(timestamp: 1, payload: .mark(name: huge)), symbols: symbols) }
    }

    @Test func recordsGivenAsBytesLeaveRoomForTheEventsAppendedAfterThem() {
        var symbols = SymbolTable()
        let name = symbols.intern("work")
        var encoder = ChunkEncoder(stream: .app, capacity: 4096)
        // One byte per record and no delta: more records than the buffer was first made for.
        for index in 0..<2000 { encoder.appendRawRecord([0x05], delta: [], timestamp: 8 * Int64(index)) }
        var appended = 0
        // Deltas of 1000 ns, which do not divide the records' deltas of 8 ns: the chunk's unit is 1.
        while encoder.append(TraceEvent(timestamp: 8 * 1999 + 1000 * Int64(appended + 1), payload: .signpostBegin(name: name, id: nil)), symbols: symbols) == .added {
            appended += 1
            #expect(encoder.eventCount <= encoder.buffer.timestampCapacity)
            #expect(encoder.structureCount + EventRecord.maxEventLength <= encoder.buffer.byteCapacity)
            #expect(encoder.deltaCount + Varint.maxLength <= encoder.buffer.deltaCapacity)
        }
        #expect(appended > 100)
        #expect(encoder.rawSize <= 4096)
        let recordTimestamps: [Int64] = (0..<2000).map { 8 * Int64($0) }
        let eventTimestamps: [Int64] = (1...appended).map { 8 * 1999 + 1000 * Int64($0) }
        #expect(Array(encoder.timestamps) == recordTimestamps + eventTimestamps)
        #expect(encoder.timestampUnit() == 1)
        let (bytes, structure, _) = encoded(encoder)
        // The records' deltas are empty; each event's is 1000 in a unit of 1.
        let deltas: [[UInt8]] = Array(repeating: [0xE8, 0x07], count: appended)
        #expect(Array(bytes[structure...]) == Array(deltas.joined()))
    }
}
