@testable import LifetraceAnalysis
import LifetraceFormat
import LifetraceSynthesis
import LifetraceTestSupport
import Testing

/// The analyzer's short path for common events (the main run loop, frames, main-thread
/// signposts) must find exactly what the full path finds: every trace here is replayed both
/// ways, and the violations, lifetimes and counts compared.
struct CommonPathTests {
    /// Replays `events` through the full path only.
    static func analyzeInFull(_ events: [TraceEvent], symbols: SymbolTable) -> (violations: [Violation], lifetimes: [LifetimeReport], count: Int) {
        var analyzer = LifecycleAnalyzer()
        for event in events { analyzer.replayInFull(event, symbols: symbols) }
        let (violations, lifetimes) = analyzer.finish(symbols: symbols)
        return (violations, lifetimes, analyzer.eventCount)
    }

    /// Replays `events` the way `check` does (the short path where it applies).
    static func analyzeAsUsual(_ events: [TraceEvent], symbols: SymbolTable) -> (violations: [Violation], lifetimes: [LifetimeReport], count: Int) {
        var analyzer = LifecycleAnalyzer()
        for event in events { analyzer.consume(event, symbols: symbols) }
        let (violations, lifetimes) = analyzer.finish(symbols: symbols)
        return (violations, lifetimes, analyzer.eventCount)
    }

    static func expectSameResult(_ events: [TraceEvent], symbols: SymbolTable, _ name: String) {
        let full = analyzeInFull(events, symbols: symbols)
        let usual = analyzeAsUsual(events, symbols: symbols)
        #expect(usual.count == full.count, "\(name)")
        // Compared as booleans so that a failure names the first difference, not both results.
        let sameViolations = usual.violations == full.violations
        let firstViolation = Array(zip(usual.violations, full.violations)).firstIndex { $0 != $1 }
        #expect(sameViolations, "\(name): violations differ (\(usual.violations.count) against \(full.violations.count), first at \(firstViolation.map(String.init) ?? "the end"))")
        let sameLifetimes = usual.lifetimes == full.lifetimes
        let firstLifetime = Array(zip(usual.lifetimes, full.lifetimes)).firstIndex { $0 != $1 }
        #expect(sameLifetimes, "\(name): lifetimes differ (\(usual.lifetimes.count) against \(full.lifetimes.count), first at \(firstLifetime.map(String.init) ?? "the end"))")
    }

    @Test("every sample trace, passing and failing, gives the same result both ways")
    func samples() throws {
        let names = SampleTraces.files(suffix: ".jsonl")
        #expect(names.count >= 32)
        for name in names {
            let (events, symbols) = try SampleTraces.load(name)
            Self.expectSameResult(events, symbols: symbols, name)
        }
    }

    @Test("synthesized recordings, as they are and disturbed, give the same result both ways", arguments: [1, 2, 3] as [UInt64])
    func synthesized(seed: UInt64) {
        var synthesizer = TraceSynthesizer(eventCount: 60_000, seed: seed)
        var events: [TraceEvent] = []
        while let event = synthesizer.next() { events.append(event) }
        let symbols = synthesizer.symbols
        let clean = Self.analyzeAsUsual(events, symbols: symbols)
        // The workload breaks no rule but has main-thread stalls while Active: hangs.
        #expect(clean.violations.contains { $0.rule == .hang })
        #expect(clean.violations.allSatisfy { $0.rule == .hang }, "\(clean.violations.map(\.message))")
        #expect(clean.lifetimes.count > 1)
        Self.expectSameResult(events, symbols: symbols, "seed \(seed)")

        // Disturb about one event in a hundred, so that the short path's conditions (stream,
        // main thread, order, matching ends, silence) change often.
        var random = SeededRandom(seed: seed &* 104_729)
        var disturbed: [TraceEvent] = []
        disturbed.reserveCapacity(events.count)
        for event in events {
            guard Int.random(in: 0..<100, using: &random) == 0 else {
                disturbed.append(event)
                continue
            }
            var changed = event
            switch Int.random(in: 0..<6, using: &random) {
            case 0: continue
            case 1: disturbed.append(event)
            case 2: changed.timestamp -= Int64.random(in: 1...50_000_000, using: &random)
            case 3: changed.thread = .numbered(UInt64.random(in: 1...4, using: &random))
            case 4: changed.stream = changed.stream == .app ? .system : .app
            default: changed.payload = .signpostEnd(name: symbols.lookup("db.query") ?? .none, id: nil)
            }
            disturbed.append(changed)
        }
        let result = Self.analyzeAsUsual(disturbed, symbols: symbols)
        #expect(!result.violations.isEmpty)
        Self.expectSameResult(disturbed, symbols: symbols, "seed \(seed), disturbed")
    }

    @Test("random walks, clean and mutated, give the same result both ways")
    func walks() {
        for seed in LifecyclePropertyTests.seeds {
            var walk = LifecycleWalk.make(seed: seed)
            let clean = walk.build()
            Self.expectSameResult(clean.events, symbols: clean.symbols, "walk \(seed)")
            var random = SeededRandom(seed: seed &* 7919)
            let mutation = LifecyclePropertyTests.Mutation.allCases[Int(seed) % LifecyclePropertyTests.Mutation.allCases.count]
            guard LifecyclePropertyTests.mutate(&walk.items, mutation, using: &random) != nil else { continue }
            let mutated = walk.build()
            Self.expectSameResult(mutated.events, symbols: mutated.symbols, "walk \(seed), \(mutation)")
        }
    }
}
