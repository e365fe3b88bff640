import LifetraceRunner
import Testing
@testable import LifetraceFormat
import LifetraceZstd

/// The committed v1 file `Samples/golden/v1-golden.ltrace` must keep reading to exactly the
/// events of `v1-golden.jsonl`, which it was imported from (`lifetrace import`), whatever later
/// versions change.
struct GoldenTraceTests {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Samples/golden/"
    }()

    @Test func goldenFileReadsToTheEventsItWasMadeFrom() throws {
        var binary = try BinaryTraceReader(path: Self.directory + "v1-golden.ltrace")
        var text = try JSONLTraceReader(path: Self.directory + "v1-golden.jsonl")
        var read: [TraceEvent] = []
        while let event = try binary.next() { read.append(event) }
        var expected: [TraceEvent] = []
        while let event = try text.next() { expected.append(event) }
        #expect(binary.issues.isEmpty)
        #expect(binary.summary.isClosed)
        #expect(binary.summary.majorVersion == 1 && binary.summary.minorVersion == 0)
        #expect(binary.metadata == text.metadata)
        #expect(binary.metadata["note"] == "Größe 😀")
        #expect(read.count == 31)
        #expect(read.map { BinaryTraceFixture.remap($0, from: binary.symbols, to: text.symbols) } == expected)
    }

    @Test func goldenFileCoversEveryTypeBothStreamsAndABackwardsTimestamp() throws {
        var reader = try BinaryTraceReader(path: Self.directory + "v1-golden.ltrace", options: .init(collectsChunkStatistics: true))
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        #expect(Set(events.map(\.type)) == Set(EventType.allCases))
        #expect(Set(events.map(\.stream)) == Set(TraceStream.allCases))
        #expect(Set(reader.chunks.map(\.stream)) == Set(TraceStream.allCases))
        #expect(events.contains { $0.thread == .numbered(3) })
        #expect(zip(events, events.dropFirst()).contains { $1.stream == $0.stream && $1.timestamp < $0.timestamp })
        let mark = try #require(events.first { $0.type == .mark })
        #expect(reader.symbols[mark.payload.symbols.0] == "first-interaction ✓")
    }
}
