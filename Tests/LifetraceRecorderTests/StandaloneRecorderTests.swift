import Foundation
import LifetraceFormat
import LifetraceZstd
import Testing

@testable import LifetraceRecorder

@Suite struct StandaloneRecorderTests {
    @Test func writerThreadFlushesWithinTheIntervalAndClosesOnStop() throws {
        let sink = TraceEventCollection()
        let recorder = try Recorder(
            layout: RegionLayout(ringCount: 2, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(20))
        recorder.mark("First")
        // Within a few flush intervals the event is in the sink and flushed, without stop().
        let deadline = Date().addingTimeInterval(2)
        while sink.flushed == 0 && Date() < deadline { usleep(5000) }
        #expect(sink.flushed == 1)
        #expect(!sink.isClosed)
        recorder.mark("Last")
        try recorder.stop()
        #expect(sink.isClosed)
        let (events, symbols) = sink.snapshot
        #expect(events.map { event -> String in
            if case .mark(let name) = event.payload { return symbols[name] }
            return event.type.name
        } == ["First", "Last"])
    }

    @Test("a file output is a readable binary trace, in raw blocks (no libzstd) or compressed", arguments: [false, true])
    func fileOutputIsAReadableBinaryTrace(compressed: Bool) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("standalone-\(UUID().uuidString).ltrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Raw blocks are read back without libzstd, as the recorder itself does when it recovers.
        let codec: any TraceCodec = compressed ? ZstdCodec() : RawBlockCodec()
        let sink = try RecorderOutput.file(path).makeSink(metadata: TraceMetadata([("app", "test")]), codec: codec)
        let recorder = try Recorder(sink: sink, flushInterval: .milliseconds(10))
        for id in 1...100 { recorder.signpostBegin(recorder.name("Step"), id: Int64(id)) }
        try recorder.stop()
        var reader = try BinaryTraceReader(path: path, codec: codec)
        var ids: [Int64] = []
        while let event = try reader.next() {
            if case .signpostBegin(_, let id?) = event.payload { ids.append(id) }
        }
        #expect(ids == Array(1...100))
        #expect(reader.issues.isEmpty)
        #expect(reader.metadata["app"] == "test")
    }

    @Test func orderedSinkMergesStreamsUpToTheWatermark() throws {
        let target = TraceEventCollection()
        let ordered = OrderedTraceSink(target: target)
        let symbols = SymbolTable()
        try ordered.append(TraceEvent(timestamp: 30, payload: .state(to: .suspended, scene: .none)), symbols: symbols)
        try ordered.append(TraceEvent(timestamp: 10, payload: .runloopWake), symbols: symbols)
        try ordered.append(TraceEvent(timestamp: 20, payload: .runloopSleep), symbols: symbols)
        try ordered.release(through: 25)
        #expect(target.snapshot.events.map(\.timestamp) == [10, 20])
        #expect(ordered.pendingCount == 1)
        try ordered.append(TraceEvent(timestamp: 28, payload: .runloopWake), symbols: symbols)
        try ordered.close()
        #expect(target.snapshot.events.map(\.timestamp) == [10, 20, 28, 30])
        #expect(target.isClosed)
    }
}
