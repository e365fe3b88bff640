import Testing

@testable import LifetraceFormat

/// Each event knows the line of the text trace it was read from, at no memory cost, and reading
/// refuses what no output could write (invalid UTF-8, half a surrogate pair).
@Suite struct TraceEventLineTests {
    private func events(_ text: String) throws -> [TraceEvent] {
        var reader = try JSONLTraceReader(bytes: Array(text.utf8), name: "t.jsonl")
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        return events
    }

    @Test func theEventKeepsItsLineWithoutGrowing() {
        // The line sits in the padding after the stream: the event is no larger than without it.
        #expect(MemoryLayout<TraceEvent>.size == 40)
        #expect(MemoryLayout<TraceEvent>.stride == 40)
    }

    @Test func textEventsCarryTheirLinesBlankLinesCounted() throws {
        let text = """
            {"type":"meta","app":"a"}
            {"ts":1,"type":"launch"}

            {"ts":2,"type":"callback","name":"didFinishLaunching","dur":10}
            {"ts":5,"type":"mark","name":"m"}
               
            {"ts":20,"type":"frame"}
            """
        let read = try events(text)
        #expect(read.map(\.type) == [.launch, .callbackBegin, .mark, .callbackEnd, .frame])
        // The shorthand's end has the shorthand's line, though it comes after line 5's mark.
        #expect(read.map(\.line) == [2, 4, 5, 4, 7])
    }

    @Test func madeEventsHaveNoPlace() {
        var symbols = SymbolTable()
        let made = TraceEvent(timestamp: 5, payload: .mark(name: symbols.intern("m")))
        #expect(made.line == nil && made.chunkNumber == nil)
    }

    @Test func binaryEventsCarryTheChunkTheyWereDecodedFromNotALine() throws {
        var symbols = SymbolTable()
        let names = ["a", "b", "c"].map { symbols.intern($0) }
        // Small chunks in many flush groups, both streams: events of one group merged across chunks.
        var made: [TraceEvent] = []
        for step in 0..<3_000 {
            let stream: TraceStream = step % 5 == 0 ? .system : .app
            made.append(TraceEvent(timestamp: Int64(step) * 10, payload: .mark(name: names[step % 3]), stream: stream))
        }
        let bytes = try BinaryTraceFixture.write(made, symbols: symbols, options: .init(chunkSize: 4096), flushEvery: 700)
        let (read, reader) = try BinaryTraceFixture.read(bytes, options: .init(collectsChunkStatistics: true))
        let positions = try #require(reader.chunkPositions)
        #expect(read.count == made.count && reader.chunks.count > 8)
        #expect(read.allSatisfy { $0.line == nil && $0.chunkNumber != nil })
        #expect(Set(read.compactMap(\.chunkNumber)) == Set(1...reader.chunks.count))
        for event in read {
            // The number names the chunk, in file order, whose frame holds the event.
            let number = try #require(event.chunkNumber)
            let chunk = reader.chunks[number - 1]
            let position = try #require(positions.position(of: event))
            #expect(position == ChunkPosition(byteOffset: chunk.offset, byteLength: Int64(chunk.storedSize)))
            #expect(chunk.stream == event.stream && (chunk.firstTimestamp...chunk.lastTimestamp).contains(event.timestamp))
            #expect(bytes[Int(position.byteOffset)..<Int(position.byteOffset) + 4].elementsEqual([0x5B, 0x2A, 0x4D, 0x18]))
        }
    }

    @Test func aChunkNumberIsNotALineAndNotPartOfTheValue() {
        var event = TraceEvent(timestamp: 1, payload: .runloopWake)
        let plain = event
        event.chunkNumber = 7
        #expect(event.chunkNumber == 7 && event.line == nil && event == plain && event.hashValue == plain.hashValue)
        event.line = 3
        #expect(event.line == 3 && event.chunkNumber == nil)
        event.chunkNumber = 0
        #expect(event.chunkNumber == nil && event.line == nil)
    }

    @Test func theChunksPlacedAreBounded() {
        let positions = ChunkPositions()
        let misnumbered = (0..<ChunkPositions.limit).count { positions.add(offset: Int64($0) * 100, length: 90) != UInt32($0 + 1) }
        #expect(misnumbered == 0)
        // Past the limit a chunk has no number, and its events no place.
        #expect(positions.add(offset: 1 << 40, length: 90) == 0)
        #expect(positions.position(of: ChunkPositions.limit) == ChunkPosition(byteOffset: Int64(ChunkPositions.limit - 1) * 100, byteLength: 90))
        #expect(positions.position(of: ChunkPositions.limit + 1) == nil && positions.position(of: 0) == nil)
    }

    @Test func theLineIsNotPartOfTheEventsValue() throws {
        let text = try events(#"{"ts":1,"type":"launch"}"#)[0]
        var elsewhere = text
        elsewhere.line = 99
        #expect(text.line == 1 && elsewhere.line == 99)
        #expect(text == elsewhere)
        #expect(text.hashValue == elsewhere.hashValue)
        #expect(Set([text, elsewhere]).count == 1)
        elsewhere.line = 0
        #expect(elsewhere.line == nil)
        elsewhere.line = Int(UInt32.max) + 1
        #expect(elsewhere.line == nil)
    }

    @Test func readersRefuseWhatNoOutputCouldWrite() {
        // A lone surrogate escape, and raw bytes that are not UTF-8: refused, naming the line.
        let surrogate = #"{"ts":1,"type":"mark","name":"a\ud800b"}"#
        #expect(throws: TraceError.self) { try events(surrogate) }
        var bytes = Array(#"{"ts":1,"type":"mark","name":"a"#.utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array(#"b"}"#.utf8)
        #expect(throws: TraceError.self) {
            var reader = try JSONLTraceReader(bytes: bytes, name: "t.jsonl")
            while try reader.next() != nil {}
        }
        // Controls written as JSON escapes are read: the outputs' escapers decide what to do.
        #expect((try? events(#"{"ts":1,"type":"mark","name":"a\u0001\u007f\u0085\u2028b"}"#))?.count == 1)
    }
}
