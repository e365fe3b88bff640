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

    @Test func binaryAndMadeEventsHaveNoLine() throws {
        var symbols = SymbolTable()
        let made = TraceEvent(timestamp: 5, payload: .mark(name: symbols.intern("m")))
        #expect(made.line == nil)
        let (read, _) = try BinaryTraceFixture.read(try BinaryTraceFixture.write([made], symbols: symbols, metadata: TraceMetadata()))
        #expect(read.map { $0.line } == [nil])
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
