import Foundation
import LifetraceRunner
import Testing
@testable import LifetraceFormat
import LifetraceSynthesis
import LifetraceZstd

/// The reader that decodes on a second thread returns what the binary reader returns: the same
/// events in the same order, the same symbols, issues and summary, for whole, cut and corrupt
/// traces; and it stops its thread when dropped early.
struct PrefetchingTraceReaderTests {
    typealias Fixture = BinaryTraceFixture

    /// Everything a reader yields, read one way or the other.
    struct Reading: Equatable {
        var events: [TraceEvent]
        var strings: [String]
        var issues: [TraceError]
        var summary: BinaryTraceSummary
    }

    static func direct(_ bytes: [UInt8]) throws -> Reading {
        let (events, reader) = try Fixture.read(bytes)
        return Reading(events: events, strings: (0..<reader.symbols.count).map { reader.symbols[Symbol(rawValue: UInt32($0))] }, issues: reader.issues, summary: reader.summary)
    }

    static func prefetched(_ bytes: [UInt8], batches: Bool) throws -> Reading {
        var reader = PrefetchingTraceReader(try BinaryTraceReader(bytes: bytes, name: "test.ltrace"))
        var events: [TraceEvent] = []
        if batches {
            var symbolsCoverEvents = true
            while try reader.nextBatch({ batch, symbols in
                events.append(contentsOf: batch)
                // Every symbol of a batch resolves in the table that comes with it.
                for event in batch where Self.highestSymbol(event) >= symbols.count { symbolsCoverEvents = false }
            }) {}
            #expect(symbolsCoverEvents)
        } else {
            while let event = try reader.next() { events.append(event) }
        }
        return Reading(events: events, strings: (0..<reader.symbols.count).map { reader.symbols[Symbol(rawValue: UInt32($0))] }, issues: reader.issues, summary: reader.summary)
    }

    static func highestSymbol(_ event: TraceEvent) -> Int {
        let symbols: [Symbol] = switch event.payload {
        case .launch(let reason, _, _, _): [reason]
        case .state(_, let scene): [scene]
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene): [name, scene]
        case .signpostBegin(let name, _), .signpostEnd(let name, _), .mark(let name): [name]
        case .bgtaskBegin(_, let name), .bgtaskEnd(_, let name), .bgtaskExpire(_, let name): [name]
        case .runloopWake, .runloopSleep, .frame, .exit, .dropped: []
        }
        return symbols.map { Int($0.rawValue) }.max() ?? 0
    }

    /// A synthesized recording large enough for many blocks, in several flush groups.
    static func recording(events count: Int) throws -> [UInt8] {
        var synthesizer = TraceSynthesizer(eventCount: count, seed: 5)
        var events: [TraceEvent] = []
        while let event = synthesizer.next() { events.append(event) }
        return try Fixture.write(events, symbols: synthesizer.symbols, options: .init(chunkSize: 16 << 10))
    }

    @Test("a recording of many blocks reads the same, event by event and a batch at a time")
    func sameAsTheReader() throws {
        let bytes = try Self.recording(events: 50_000)
        let expected = try Self.direct(bytes)
        #expect(expected.events.count == 50_000)
        #expect(expected.summary.flushGroupCount > 4)
        #expect(try Self.prefetched(bytes, batches: true) == expected)
        #expect(try Self.prefetched(bytes, batches: false) == expected)
    }

    @Test("random traces, cut and corrupt, give the same events, issues and summary")
    func damagedTraces() throws {
        for seed in 1...6 as ClosedRange<UInt64> {
            let trace = RandomTrace(seed: seed, count: 3_000)
            let bytes = try Fixture.write(trace.events, symbols: trace.symbols, flushEvery: 700)
            var random = SeededGenerator(seed: seed)
            var variants = [bytes, Array(bytes[0..<(bytes.count * 2 / 3)])]
            var corrupt = bytes
            corrupt[Int.random(in: bytes.count / 3..<bytes.count, using: &random)] ^= 0x24
            variants.append(corrupt)
            for (index, variant) in variants.enumerated() {
                let expected = try Self.direct(variant)
                let got = try Self.prefetched(variant, batches: index % 2 == 0)
                #expect(got == expected, "seed \(seed), variant \(index)")
            }
            let cut = try Self.direct(variants[1])
            #expect(cut.issues.contains { $0.kind == .truncated })
        }
    }

    @Test("an empty trace ends at once")
    func emptyTrace() throws {
        let bytes = try Fixture.write([], symbols: SymbolTable())
        let got = try Self.prefetched(bytes, batches: true)
        #expect(got.events.isEmpty)
        #expect(got == (try Self.direct(bytes)))
    }

    @Test("dropping the reader before the end stops its thread, and reading again works")
    func droppedEarly() throws {
        let bytes = try Self.recording(events: 200_000)
        var channels: [BlockChannel] = []
        for _ in 0..<10 {
            var reader = PrefetchingTraceReader(try BinaryTraceReader(bytes: bytes, name: "test.ltrace"))
            // One block, while the thread fills the others and then waits for a free one.
            _ = try reader.nextBatch { _, _ in }
            channels.append(reader.channel)
        }
        // The readers are gone: every thread must end (it was waiting for a block that will
        // not come back). Polled, since the threads end on their own schedule.
        var waited = 0
        while channels.contains(where: { !$0.decoderHasEnded }) && waited < 500 {
            usleep(10_000)
            waited += 1
        }
        let allEnded = channels.allSatisfy { $0.decoderHasEnded }
        #expect(allEnded)
        let expected = try Self.direct(bytes)
        #expect(try Self.prefetched(bytes, batches: true) == expected)
    }
}
