import Testing

import LifetraceFormat
@testable import LifetraceSynthesis

/// Every event of a synthesized trace.
private func synthesize(_ count: Int, seed: UInt64) -> [TraceEvent] {
    var synthesizer = TraceSynthesizer(eventCount: count, seed: seed)
    var events: [TraceEvent] = []
    while let event = synthesizer.next() { events.append(event) }
    return events
}

@Suite struct TraceSynthesizerTests {
    @Test func theSameSeedGivesTheSameTrace() {
        #expect(synthesize(30_000, seed: 7) == synthesize(30_000, seed: 7))
    }

    @Test func differentSeedsGiveDifferentTraces() {
        let one = synthesize(5_000, seed: 1)
        let two = synthesize(5_000, seed: 2)
        #expect(one != two)
        #expect(one.map(\.timestamp) != two.map(\.timestamp))
    }

    /// Pins the generator: a change to these numbers changes the reference workload, which needs a
    /// new entry in docs/PERFORMANCE.md.
    @Test func theReferenceWorkloadIsPinned() {
        let events = synthesize(1_000, seed: 1)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for event in events {
            hash = (hash ^ UInt64(bitPattern: event.timestamp)) &* 0x100_0000_01b3
            hash = (hash ^ UInt64(event.type.rawValue)) &* 0x100_0000_01b3
        }
        #expect(events.first?.type == .launch)
        #expect(events.last?.type == .exit)
        #expect(hash == Self.pinnedHash)
    }

    static let pinnedHash: UInt64 = 10_887_717_376_254_335_501

    @Test(arguments: [16, 17, 97, 98, 1_000, 12_345])
    func itWritesExactlyTheEventsAskedFor(_ count: Int) {
        let events = synthesize(count, seed: UInt64(count))
        #expect(events.count == count)
        #expect(events.first?.type == .launch)
        #expect(events.last?.type == .exit)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theLifeCycleIsValid(seed: UInt64) {
        var synthesizer = TraceSynthesizer(eventCount: 150_000, seed: seed)
        var check = LifeCycleCheck(symbols: synthesizer.symbols)
        while let event = synthesizer.next() { check.observe(event) }
        check.finish()
        #expect(check.problems == [])
        #expect(check.lifetimes > 10)
        #expect(check.launchKinds.count == 3, "cold, prewarmed and background launches")
        #expect(check.suspensions > 5)
        #expect(check.framesOnMainThread > 10_000)
        #expect(check.workerThreadEvents > 100)
        #expect(check.scenesSeen)
    }

    @Test func everyEventsStringIsInTheSymbolTable() {
        var synthesizer = TraceSynthesizer(eventCount: 20_000, seed: 4)
        let count = synthesizer.symbols.count
        while let event = synthesizer.next() {
            switch event.payload {
            case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
                #expect(Int(name.rawValue) < count && Int(scene.rawValue) < count)
            case .signpostBegin(let name, _), .signpostEnd(let name, _), .mark(let name):
                #expect(!name.isNone && Int(name.rawValue) < count)
            default:
                break
            }
        }
        #expect(synthesizer.symbols.count == count)
    }
}
