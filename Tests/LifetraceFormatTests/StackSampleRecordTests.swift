import Foundation
import Testing
@testable import LifetraceFormat

/// The `image`, `stack` and `sample` records (docs/FORMAT.md, "Stack samples").
struct StackSampleRecordTests {
    typealias Fixture = BinaryTraceFixture

    static let outer: [UInt64] = [0x5555_0000_1000, 0x5555_0000_2040, 0x7F00_0000_0100]

    /// A trace with events of both streams, two images and samples of two stacks between them.
    static func traceWithSamples() throws -> (bytes: [UInt8], events: [TraceEvent], symbols: SymbolTable) {
        var symbols = SymbolTable()
        let name = symbols.intern("didFinishLaunching")
        let events = [
            TraceEvent(timestamp: 1_000, payload: .launch(reason: .none, background: false, prewarm: false, pid: 7)),
            TraceEvent(timestamp: 2_000, payload: .runloopWake),
            TraceEvent(timestamp: 2_500, payload: .callbackBegin(name: name, scene: .none)),
            TraceEvent(timestamp: 90_000_000, payload: .callbackEnd(name: name, scene: .none)),
            TraceEvent(timestamp: 90_000_500, payload: .runloopSleep),
        ]
        let bytes = try Fixture.write(Array(events[0..<3]), symbols: symbols, extra: { writer in
            try writer.appendImage(LoadedImage(timestamp: 2_600, path: "/app/Sample", buildID: "0a1b2c", base: 0x5555_0000_0000, size: 0x10_0000))
            try writer.appendImage(LoadedImage(timestamp: 2_600, path: "/lib/libc.so.6", buildID: "", base: 0x7F00_0000_0000, size: 0x1000))
            for index in 0..<10 {
                let frames = index < 7 ? Self.outer : Array(Self.outer.dropLast()) + [0x5555_0000_3000]
                try writer.appendSample(timestamp: 50_000_000 + Int64(index) * 10_000_000, thread: .main, frames: frames)
            }
            try writer.appendSample(timestamp: 60_000_001, thread: .numbered(2), frames: [0x1234])
            for event in events[3...] { try writer.append(event, symbols: symbols) }
        })
        return (bytes, events, symbols)
    }

    @Test func samplesAndImagesReadBackBesideTheEvents() throws {
        let (bytes, written, symbols) = try Self.traceWithSamples()
        let (events, reader) = try Fixture.read(bytes)
        #expect(reader.issues.isEmpty)
        #expect(events.map { Fixture.remap($0, from: reader.symbols, to: symbols) } == written)
        let stacks = reader.sampledStacks
        #expect(stacks.images.map(\.path) == ["/app/Sample", "/lib/libc.so.6"])
        #expect(stacks.images.first?.buildID == "0a1b2c")
        #expect(stacks.images.first?.timestamp == 2_600)
        #expect(stacks.samples.count == 11)
        let main = stacks.samples.filter { $0.thread == .main }
        #expect(main.map(\.timestamp) == (0..<10).map { 50_000_000 + Int64($0) * 10_000_000 })
        #expect(stacks.frames(of: main[0].stack) == Self.outer)
        #expect(stacks.frames(of: main[9].stack) == Array(Self.outer.dropLast()) + [0x5555_0000_3000])
        #expect(Set(main.map(\.stack)).count == 2)
        let other = stacks.samples.filter { $0.thread != .main }
        #expect(other.map(\.thread) == [.numbered(2)])
        #expect(stacks.frames(of: other[0].stack) == [0x1234])
        // The two stacks share their two outer frames: five nodes, not six.
        #expect(stacks.nodes.count == 5)
    }

    @Test func aReaderThatDoesNotKnowTheRecordsSkipsThem() throws {
        let (bytes, written, symbols) = try Self.traceWithSamples()
        // Without collecting, the records take the path of any unknown length-delimited type.
        var options = BinaryTraceReader.Options()
        options.collectsStackSamples = false
        let (events, reader) = try Fixture.read(bytes, options: options)
        #expect(reader.issues.isEmpty)
        #expect(events.map { Fixture.remap($0, from: reader.symbols, to: symbols) } == written)
        #expect(reader.sampledStacks.isEmpty)
    }

    @Test func aRepeatedStackCostsAFewBytes() throws {
        let symbols = SymbolTable()
        func size(samples: Int) throws -> Int {
            try Fixture.write([], symbols: symbols, extra: { writer in
                for index in 0..<samples {
                    try writer.appendSample(timestamp: 1_000_000 + Int64(index) * 10_000_000, thread: .main, frames: Self.outer)
                }
            }).count
        }
        let one = try size(samples: 1)
        let hundred = try size(samples: 101)
        #expect((hundred - one) / 100 <= 6)
    }

    /// A trace whose app chunk holds `records` (tag, length, body) with deltas of 1 ns.
    static func rawTrace(_ records: [[UInt8]]) throws -> [UInt8] {
        try Fixture.write([], symbols: SymbolTable(), extra: { writer in
            for (index, record) in records.enumerated() {
                writer.appendRawRecord(record, delta: [0x01], timestamp: Int64(index + 1), stream: .app)
            }
        })
    }

    static func delimited(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        var record: [UInt8] = [0x40 | type]
        Varint.append(UInt64(body.count), to: &record)
        return record + body
    }

    static let hostile: [(records: [[UInt8]], reason: String)] = [
        // A stack whose parent is itself (local stack 1, being defined): a cycle.
        ([delimited(0x11, [0x01, 0x01, 0x05])], "cycle"),
        // A parent defined after the stack.
        ([delimited(0x11, [0x00, 0x01, 0x05]), delimited(0x11, [0x03, 0x01, 0x05])], "cycle"),
        // A stack that claims a million frames.
        ([delimited(0x11, [0x00, 0xC0, 0x84, 0x3D, 0x05])], "more than 1024"),
        // A sample of a stack the chunk does not define.
        ([delimited(0x12, [0x01])], "not a stack defined"),
        // An image path of 5000 bytes.
        ([delimited(0x10, [0x88, 0x27] + [UInt8](repeating: 0x61, count: 5000) + [0, 0, 0])], "4096"),
    ]

    @Test(arguments: 0..<5)
    func hostileRecordsAreCorruptWithAClearReason(case index: Int) throws {
        let (records, reason) = Self.hostile[index]
        let (events, reader) = try Fixture.read(try Self.rawTrace(records))
        #expect(events.isEmpty)
        #expect(reader.issues.map(\.kind) == [.corruptChunk])
        #expect(reader.issues.first?.message.contains(reason) == true, "\(reader.issues)")
    }

    @Test func aChainOfStacksDeeperThanTheLimitIsCorrupt() throws {
        // Each stack extends the one before by 600 frames: the second is 1200 deep.
        func chained(_ parent: UInt8) -> [UInt8] {
            var body: [UInt8] = [parent]
            Varint.append(600, to: &body)
            body.append(0x10)
            body.append(contentsOf: repeatElement(0x02, count: 599))
            return Self.delimited(0x11, body)
        }
        let (_, reader) = try Fixture.read(try Self.rawTrace([chained(0), chained(1), Self.delimited(0x12, [0x02])]))
        #expect(reader.issues.first?.message.contains("deeper than 1024") == true)
        #expect(reader.sampledStacks.samples.isEmpty)
    }

    @Test func aMillionDistinctStacksStayWithinTheLimits() {
        var stacks = SampledStacks()
        for index in 0..<(SampledStacks.maxNodes + 1_000) {
            let node = stacks.intern([UInt64(index)])
            stacks.addSample(timestamp: Int64(index), thread: .main, stack: node)
        }
        #expect(stacks.nodes.count == SampledStacks.maxNodes)
        #expect(stacks.samples.count == SampledStacks.maxSamples)
        #expect(stacks.lostSamples == 1_000)
        #expect(stacks.lossNote == "1000 stack samples (a reader keeps 262144 samples and 262144 distinct frames of a trace) "
            + "were past the reader's limits and not kept; the stalls' stack samples count what was kept")
    }

    @Test func anAddressInNoImageIsShownBare() {
        var stacks = SampledStacks()
        stacks.addImage(LoadedImage(timestamp: 0, path: "/app/Sample", buildID: "", base: 0x1000, size: 0x100))
        #expect(stacks.describe(0x1010) == "Sample+0x10")
        #expect(stacks.describe(0x1100) == "0x1100")
        #expect(stacks.image(containing: 0x0FFF) == nil)
    }
}
