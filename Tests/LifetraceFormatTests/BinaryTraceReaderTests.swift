import LifetraceOutput
import Testing
@testable import LifetraceFormat

/// Round trips through ``TraceWriter`` and ``BinaryTraceReader``.
struct BinaryTraceReaderTests {
    typealias Fixture = BinaryTraceFixture

    @Test(arguments: [1, 2, 3, 99] as [UInt64])
    func randomEventsRoundTripInAppendOrder(seed: UInt64) throws {
        let trace = RandomTrace(seed: seed, count: 3000)
        let bytes = try Fixture.write(trace.events, symbols: trace.symbols, flushEvery: 97)
        let (events, reader) = try Fixture.read(bytes)
        #expect(reader.issues.isEmpty)
        #expect(reader.summary.isClosed)
        let remapped = events.map { Fixture.remap($0, from: reader.symbols, to: trace.symbols) }
        #expect(remapped.count == trace.events.count)
        #expect(remapped == trace.events)
    }

    @Test func groupOrderFrameOnlyWhenTheMergeWouldReorder() throws {
        var symbols = SymbolTable()
        let scene = symbols.intern("scene")
        let sorted = [
            TraceEvent(timestamp: 10, payload: .runloopWake),
            TraceEvent(timestamp: 20, payload: .state(to: .active, scene: scene)),
            TraceEvent(timestamp: 20, payload: .runloopSleep),
        ]
        // The same timestamps, but the app event first at the tie: only an order frame keeps it.
        let tie = [sorted[0], sorted[2], sorted[1]]
        let orderMagic: [UInt8] = [0x5D, 0x2A, 0x4D, 0x18]
        for (events, needsOrder) in [(sorted, false), (tie, true)] {
            let bytes = try Fixture.write(events, symbols: symbols)
            let hasOrderFrame = (0..<(bytes.count - 3)).contains { Array(bytes[$0..<($0 + 4)]) == orderMagic }
            #expect(hasOrderFrame == needsOrder)
            let (read, reader) = try Fixture.read(bytes)
            #expect(read.map { Fixture.remap($0, from: reader.symbols, to: symbols) } == events)
        }
    }

    @Test(arguments: [5, 6] as [UInt64])
    func manySmallChunksKeepEveryStreamInOrder(seed: UInt64) throws {
        let trace = RandomTrace(seed: seed, count: 20_000)
        let bytes = try Fixture.write(trace.events, symbols: trace.symbols, options: .init(chunkSize: 4096))
        let (events, reader) = try Fixture.read(bytes, options: .init(collectsChunkStatistics: true))
        #expect(reader.issues.isEmpty)
        #expect(reader.chunks.count > 20)
        #expect(reader.summary.eventCount == trace.events.count)
        let remapped = events.map { Fixture.remap($0, from: reader.symbols, to: trace.symbols) }
        for stream in TraceStream.allCases {
            #expect(remapped.filter { $0.stream == stream } == trace.events.filter { $0.stream == stream })
        }
        let sequences = reader.chunks.filter { $0.stream == .app }.map(\.sequence)
        #expect(sequences == Array(0..<UInt64(sequences.count)))
    }

    @Test func metadataAndStringsSurvive() throws {
        var symbols = SymbolTable()
        let metadata = TraceMetadata([("app", "com.example.Größe"), ("os", "iOS 18.0 😀"), ("empty", "")])
        let events = [
            TraceEvent(timestamp: 5, payload: .mark(name: symbols.intern("日本語"))),
            TraceEvent(timestamp: 3, payload: .mark(name: symbols.intern(""))),
        ]
        let bytes = try Fixture.write(events, symbols: symbols, metadata: metadata)
        let (read, reader) = try Fixture.read(bytes)
        #expect(reader.metadata == metadata)
        #expect(read.map { reader.symbols[$0.payload.symbols.0] } == ["日本語", ""])
        #expect(read.map(\.timestamp) == [5, 3])
    }

    @Test func emptyTraceHasNoEventsAndNoIssues() throws {
        let bytes = try Fixture.write([], symbols: SymbolTable())
        let (events, reader) = try Fixture.read(bytes)
        #expect(events.isEmpty)
        #expect(reader.issues.isEmpty)
        #expect(reader.summary.isClosed)
        #expect(BinaryTraceFormat.isBinaryTrace(prefix: bytes))
        #expect(!BinaryTraceFormat.isBinaryTrace(prefix: Array("{\"ts\":1}".utf8)))
    }

    @Test func unclosedTraceReportsNotClosed() throws {
        let trace = RandomTrace(seed: 7, count: 100)
        let bytes = try Fixture.write(trace.events, symbols: trace.symbols, close: false)
        let (events, reader) = try Fixture.read(bytes)
        #expect(events.count == 100)
        #expect(reader.issues.map(\.kind) == [.truncated])
        #expect(reader.issues.first?.message.contains("not closed") == true)
    }

    @Test func unknownLengthDelimitedRecordIsSkipped() throws {
        var symbols = SymbolTable()
        let mark = symbols.intern("m")
        let bytes = try Fixture.write(
            [TraceEvent(timestamp: 100, payload: .mark(name: mark))], symbols: symbols,
            extra: { writer in
                // Type 0x13 on thread 1 with three bytes a v1 reader does not know, 7 ns later.
                writer.appendRawRecord([0x40 | 0x20 | 0x13, 4, 0x02, 0xAA, 0xBB, 0xCC], delta: [0x07], timestamp: 107, stream: .app)
                try writer.append(TraceEvent(timestamp: 110, payload: .runloopWake), symbols: symbols)
            })
        let (events, reader) = try Fixture.read(bytes)
        #expect(reader.issues.isEmpty)
        #expect(events.map(\.timestamp) == [100, 110])
        #expect(events.last?.thread == .main)
        #expect(events.map(\.type) == [.mark, .runloopWake])
    }

    @Test func eventsBeforeAnUndecodableRecordAreReturned() throws {
        var symbols = SymbolTable()
        let mark = symbols.intern("m")
        let bytes = try Fixture.write(
            [TraceEvent(timestamp: 100, payload: .mark(name: mark)), TraceEvent(timestamp: 105, payload: .runloopWake)],
            symbols: symbols,
            extra: { writer in
                // An unknown type without a length: nothing after it can be decoded.
                writer.appendRawRecord([0x1D], delta: [0x01], timestamp: 106, stream: .app)
                try writer.append(TraceEvent(timestamp: 110, payload: .runloopSleep), symbols: symbols)
            })
        let (events, reader) = try Fixture.read(bytes)
        #expect(events.map(\.timestamp) == [100, 105])
        #expect(reader.issues.map(\.kind) == [.corruptChunk])
        #expect(reader.issues.first?.message.hasSuffix("the rest of the chunk is skipped") == true)
    }

    @Test func aNegativeDroppedCountIsCorruptAsInTheTextForm() throws {
        let symbols = SymbolTable()
        let bytes = try Fixture.write([TraceEvent(timestamp: 100, payload: .dropped(count: 3))], symbols: symbols, extra: { writer in
            // dropped, count -1 (zigzag 1).
            writer.appendRawRecord([0x0F, 0x01], delta: [0x01], timestamp: 101, stream: .app)
        })
        let (events, reader) = try Fixture.read(bytes)
        #expect(events.map(\.payload) == [.dropped(count: 3)])
        #expect(reader.issues.first?.message.contains("negative dropped count") == true)
    }

    @Test func negativeIdsAndPidsReadInBothForms() throws {
        var symbols = SymbolTable()
        let name = symbols.intern("op")
        let events = [
            TraceEvent(timestamp: 1, payload: .launch(reason: .none, background: false, prewarm: false, pid: -7), stream: .system),
            TraceEvent(timestamp: 2, payload: .signpostBegin(name: name, id: Int64.min)),
            TraceEvent(timestamp: 3, payload: .bgtaskBegin(id: -1, name: .none)),
        ]
        let (binary, reader) = try Fixture.read(try Fixture.write(events, symbols: symbols))
        #expect(reader.issues.isEmpty)
        #expect(binary.map(\.payload) == events.map(\.payload))
        var text: [UInt8] = []
        for event in events { JSONLTraceWriter.encode(event, symbols: symbols, into: &text) }
        var jsonl = try JSONLTraceReader(bytes: text, name: "negative.jsonl")
        var read: [TraceEvent] = []
        while let event = try jsonl.next() { read.append(event) }
        #expect(jsonl.issues.isEmpty)
        #expect(read.map(\.timestamp) == [1, 2, 3])
        #expect(read.count == 3)
    }

    @Test func aRequiredNameAtIndexZeroIsTheEmptyNameInBothForms() throws {
        let symbols = SymbolTable()
        let events = [TraceEvent(timestamp: 5, payload: .mark(name: .none)), TraceEvent(timestamp: 6, payload: .callbackBegin(name: .none, scene: .none))]
        let (binary, reader) = try Fixture.read(try Fixture.write(events, symbols: symbols))
        #expect(reader.issues.isEmpty)
        #expect(binary.map(\.payload) == events.map(\.payload))
        var text: [UInt8] = []
        for event in binary { JSONLTraceWriter.encode(event, symbols: reader.symbols, into: &text) }
        #expect(String(decoding: text, as: UTF8.self) == """
            {"ts":5,"type":"mark","name":""}
            {"ts":6,"type":"callback.begin","name":""}

            """)
        var jsonl = try JSONLTraceReader(bytes: text, name: "empty-names.jsonl")
        var names: [String] = []
        while let event = try jsonl.next() {
            if case .mark(let name) = event.payload { names.append(jsonl.symbols[name]) }
            if case .callbackBegin(let name, _) = event.payload { names.append(jsonl.symbols[name]) }
        }
        #expect(names == ["", ""])
    }

    @Test func knownRecordWithLengthIgnoresAppendedFields() throws {
        let symbols = SymbolTable()
        let bytes = try Fixture.write([], symbols: symbols, extra: { writer in
            // A length-delimited frame record (first = true) with one extra byte.
            writer.appendRawRecord([0x40 | 0x0A, 2, 0x02, 0x77], delta: [0x00], timestamp: 42, stream: .app)
        })
        let (events, reader) = try Fixture.read(bytes)
        #expect(reader.issues.isEmpty)
        #expect(events == [TraceEvent(timestamp: 42, payload: .frame(first: true), stream: .app)])
    }

    @Test func zstdSeesTheFileAsOneStreamOfRecords() throws {
        let trace = RandomTrace(seed: 11, count: 500)
        let bytes = try Fixture.write(trace.events, symbols: trace.symbols, flushEvery: 50)
        let (_, reader) = try Fixture.read(bytes)
        #expect(reader.summary.bytesRead == Int64(bytes.count))
        #expect(reader.summary.declaredTotals?.events == 500)
        #expect(reader.summary.chunkCount == Int(reader.summary.declaredTotals?.chunks ?? 0))
    }
}
