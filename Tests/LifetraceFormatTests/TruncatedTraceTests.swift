import Foundation
import Testing
@testable import LifetraceFormat

/// A binary trace cut short: the reader returns whole flush groups only, so that no stream goes
/// on past the point where another's data was lost (docs/FORMAT.md, "Truncation").
struct TruncatedTraceTests {
    typealias Fixture = BinaryTraceFixture

    /// The number of leading flush groups whose chunks all end at or before `cut`.
    static func wholeGroups(_ chunks: [ChunkStatistics], before cut: Int64) -> Int {
        let groups = Dictionary(grouping: chunks, by: \.flushGroup)
        var count = 0
        while let group = groups[UInt64(count)], group.allSatisfy({ $0.offset + Int64($0.storedSize) <= cut }) { count += 1 }
        return count
    }

    /// How many leading whole flush groups `eventCount` events make, or nil when they do not end
    /// at a group's end (part of a group was returned).
    static func groupsReturned(_ eventCount: Int, chunks: [ChunkStatistics]) -> Int? {
        var total = 0
        var group = 0
        while total < eventCount {
            let members = chunks.filter { $0.flushGroup == UInt64(group) }
            guard !members.isEmpty else { return nil }
            total += members.reduce(0) { $0 + Int($1.eventCount) }
            group += 1
        }
        return total == eventCount ? group : nil
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

    @Test("a cut inside one stream's chunk leaves out the chunks of the other streams read in its group")
    func cutMidChunkWhileAnotherStreamGoesOn() throws {
        let (bytes, chunks) = try Self.twoStreamTrace()
        #expect(chunks.map(\.stream) == [.system, .app, .system, .app, .system, .app])
        #expect(chunks.map(\.flushGroup) == [0, 0, 1, 1, 2, 2])
        // Inside group 1's app chunk, past its header: group 1's system chunk is whole.
        let appChunk = chunks[3]
        let cut = Int(appChunk.offset) + Int(appChunk.storedSize) / 2 + 36
        #expect(cut > Int(appChunk.offset) + 72 && cut < Int(appChunk.offset) + Int(appChunk.storedSize))
        let (events, reader) = try Fixture.read(Array(bytes[0..<cut]))
        #expect(events.count == 40, "only group 0: \(events.count) events")
        #expect(events.allSatisfy { $0.timestamp <= chunks[1].lastTimestamp && $0.timestamp <= chunks[0].lastTimestamp })
        #expect(reader.issues.count == 1)
        let issue = try #require(reader.issues.first)
        #expect(issue.kind == .truncated)
        #expect(!issue.isNotClosed)
        #expect(issue.location == .byte(appChunk.offset, chunk: .init(stream: 1, sequence: 1)))
        #expect(issue.description == "test.ltrace: byte \(appChunk.offset) (chunk 1 of stream app): truncated at byte \(cut): "
            + "the file ends inside this frame; the 20 records of stream system already read in its flush group 1 are left out: "
            + "the cut data belongs among them")
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

    @Test("cut at every byte: whole groups only, one truncation issue, unclosed only at a frame boundary")
    func cutAtEveryByte() throws {
        let (bytes, chunks) = try Self.twoStreamTrace()
        let headerEnd = Int(chunks[0].offset)
        let boundaries = Set(chunks.map { Int($0.offset) } + chunks.map { Int($0.offset) + Int($0.storedSize) })
        for cut in headerEnd..<bytes.count {
            let (events, reader) = try Fixture.read(Array(bytes[0..<cut]))
            let whole = Self.wholeGroups(chunks, before: Int64(cut))
            let returned = Self.groupsReturned(events.count, chunks: chunks)
            #expect(returned == whole || returned == whole - 1, "cut at \(cut): \(String(describing: returned)) of \(whole)")
            #expect(reader.issues.count == 1, "cut at \(cut)")
            #expect(reader.issues.first?.kind == .truncated, "cut at \(cut)")
            // Only a cut at a frame boundary is an unclosed end; a cut inside a frame lost data.
            #expect(reader.issues.first?.isNotClosed == boundaries.contains(cut), "cut at \(cut)")
        }
    }
}
