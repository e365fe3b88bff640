import Foundation
import Testing
@testable import LifetraceFormat

/// A binary trace cut short: the reader returns nothing of the group the cut falls in from the
/// cut chunk's first timestamp on, so that no stream goes on past the point where another's data
/// was lost (docs/FORMAT.md, "Truncation").
struct TruncatedTraceTests {
    typealias Fixture = BinaryTraceFixture

    /// The number of leading flush groups whose chunks all end at or before `cut`.
    static func wholeGroups(_ chunks: [ChunkStatistics], before cut: Int64) -> Int {
        let groups = Dictionary(grouping: chunks, by: \.flushGroup)
        var count = 0
        while let group = groups[UInt64(count)], group.allSatisfy({ $0.offset + Int64($0.storedSize) <= cut }) { count += 1 }
        return count
    }

    /// The number of events of the first `count` flush groups.
    static func events(ofGroups count: Int, _ chunks: [ChunkStatistics]) -> Int {
        chunks.filter { $0.flushGroup < UInt64(max(0, count)) }.reduce(0) { $0 + Int($1.eventCount) }
    }

    /// Two streams, three flush groups of a system chunk then an app chunk each; the app's
    /// launch callbacks of group 1 end the launch that the system's events of group 1 go on past.
    static func twoStreamTrace(close: Bool = true) throws -> (bytes: [UInt8], chunks: [ChunkStatistics]) {
        var symbols = SymbolTable()
        let name = symbols.intern("didFinishLaunching")
        var events: [TraceEvent] = []
        var time: Int64 = 1_000_000
        for group in 0..<3 {
            for index in 0..<20 {
                time += 1_000_000
                let payload: EventPayload = index % 2 == 0 ? .callbackBegin(name: name, scene: .none) : .callbackEnd(name: name, scene: .none)
                events.append(TraceEvent(timestamp: time, payload: payload))
                time += 500_000
                events.append(TraceEvent(timestamp: time, payload: .state(to: group % 2 == 0 ? .active : .inactive, scene: .none)))
            }
        }
        let bytes = try Fixture.write(events, symbols: symbols, flushEvery: 40, close: close)
        let (_, reader) = try Fixture.read(bytes, options: .init(collectsChunkStatistics: true))
        return (bytes, reader.chunks)
    }

    @Test("a cut inside one stream's chunk returns the group's other chunks only up to the cut chunk's first event")
    func cutMidChunkWhileAnotherStreamGoesOn() throws {
        let (bytes, chunks) = try Self.twoStreamTrace()
        #expect(chunks.map(\.stream) == [.system, .app, .system, .app, .system, .app])
        #expect(chunks.map(\.flushGroup) == [0, 0, 1, 1, 2, 2])
        // Inside group 1's app chunk, past its header: group 1's system chunk is whole, and all
        // its events come after the app chunk's first (each state follows a callback).
        let appChunk = chunks[3]
        let cut = Int(appChunk.offset) + Int(appChunk.storedSize) / 2 + 36
        #expect(cut > Int(appChunk.offset) + 72 && cut < Int(appChunk.offset) + Int(appChunk.storedSize))
        let (events, reader) = try Fixture.read(Array(bytes[0..<cut]))
        #expect(events.count == 40, "only group 0: \(events.count) events")
        #expect(events.allSatisfy { $0.timestamp < appChunk.firstTimestamp })
        #expect(reader.issues.count == 1)
        let issue = try #require(reader.issues.first)
        #expect(issue.kind == .truncated)
        #expect(!issue.isNotClosed)
        #expect(issue.location == .byte(appChunk.offset, chunk: .init(stream: 1, sequence: 1)))
        #expect(issue.description == "test.ltrace: byte \(appChunk.offset) (chunk 1 of stream app): truncated at byte \(cut): "
            + "the file ends inside this frame; the events of its flush group 1 from \(appChunk.firstTimestamp) ns on (the cut "
            + "chunk's first timestamp, from its unchecked header) are left out: the cut data belongs among them")
    }

    @Test("the events of the cut group before the cut chunk's first timestamp are kept")
    func eventsBeforeTheCutChunkAreKept() throws {
        // One group: 10 system states, then callbacks of the app from after the fifth state on.
        var symbols = SymbolTable()
        let name = symbols.intern("didFinishLaunching")
        var events: [TraceEvent] = (0..<10).map { TraceEvent(timestamp: Int64($0) * 1_000, payload: .state(to: .active, scene: .none)) }
        events += (0..<40).map { TraceEvent(timestamp: 4_500 + Int64($0) * 10, payload: .callbackBegin(name: name, scene: .none)) }
        events.sort { $0.timestamp < $1.timestamp }
        let bytes = try Fixture.write(events, symbols: symbols)
        let (_, whole) = try Fixture.read(bytes, options: .init(collectsChunkStatistics: true))
        let app = try #require(whole.chunks.last)
        #expect(app.stream == .app && app.flushGroup == 0)
        let cut = Int(app.offset) + 72 + (Int(app.storedSize) - 72) / 2
        #expect(cut > Int(app.offset) + 72)
        let (read, reader) = try Fixture.read(Array(bytes[0..<cut]))
        #expect(read.map(\.timestamp) == [0, 1_000, 2_000, 3_000, 4_000])
        #expect(reader.issues.first?.message.contains("from 4500 ns on") == true)
    }

    @Test("a cut at a frame boundary between two chunks of a group leaves the group out; after its last stream, keeps it")
    func unclosedBetweenChunksOfAGroup() throws {
        let (bytes, chunks) = try Self.twoStreamTrace(close: false)
        // After group 1's system chunk: its app chunk may be missing.
        let afterSystem = Int(chunks[2].offset) + Int(chunks[2].storedSize)
        let (early, earlyReader) = try Fixture.read(Array(bytes[0..<afterSystem]))
        #expect(early.count == 40)
        #expect(earlyReader.issues.count == 1)
        #expect(earlyReader.issues.first?.isNotClosed == true)
        #expect(earlyReader.issues.first?.message.contains("20 records of stream system already read in its flush group 1 are left out") == true)
        // After group 1's app chunk (the last stream): the group is whole.
        let afterApp = Int(chunks[3].offset) + Int(chunks[3].storedSize)
        let (late, lateReader) = try Fixture.read(Array(bytes[0..<afterApp]))
        #expect(late.count == 80)
        #expect(lateReader.issues.map(\.message) == ["not closed: no end-of-trace record (truncated at byte \(afterApp))"])
    }

    @Test("cut at every byte: a prefix of the trace, nothing at or after a lost chunk's first timestamp, unclosed only at a frame boundary")
    func cutAtEveryByte() throws {
        let (bytes, chunks) = try Self.twoStreamTrace()
        let (all, _) = try Fixture.read(bytes)
        let headerEnd = Int(chunks[0].offset)
        let boundaries = Set(chunks.map { Int($0.offset) } + chunks.map { Int($0.offset) + Int($0.storedSize) })
        for cut in headerEnd..<bytes.count {
            let (events, reader) = try Fixture.read(Array(bytes[0..<cut]))
            let whole = Self.wholeGroups(chunks, before: Int64(cut))
            #expect(events.count >= Self.events(ofGroups: whole - 1, chunks), "cut at \(cut)")
            #expect(events == Array(all.prefix(events.count)), "cut at \(cut)")
            // The timestamps rise through the trace: nothing returned is as late as the first
            // event of a chunk the cut reached.
            let lost = chunks.filter { $0.offset + Int64($0.storedSize) > Int64(cut) }.map(\.firstTimestamp).min() ?? .max
            #expect(events.allSatisfy { $0.timestamp < lost }, "cut at \(cut)")
            #expect(reader.issues.count == 1, "cut at \(cut)")
            #expect(reader.issues.first?.kind == .truncated, "cut at \(cut)")
            // Only a cut at a frame boundary is an unclosed end; a cut inside a frame lost data.
            #expect(reader.issues.first?.isNotClosed == boundaries.contains(cut), "cut at \(cut)")
        }
    }
}
