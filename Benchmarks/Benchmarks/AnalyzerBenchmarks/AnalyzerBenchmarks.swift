import Benchmark
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRules
import LifetraceRunner
import LifetraceSynthesis
import LifetraceZstd

/// The reference workload (`lifetrace synth --seed 1`), one million events, as a binary trace in
/// memory and as decoded events.
enum Workload {
    static let eventCount = 1_000_000

    static let events: (events: [TraceEvent], symbols: SymbolTable) = {
        var synthesizer = TraceSynthesizer(eventCount: eventCount, seed: 1)
        var events: [TraceEvent] = []
        events.reserveCapacity(eventCount)
        while let event = synthesizer.next() { events.append(event) }
        return (events, synthesizer.symbols)
    }()

    static let binary: [UInt8] = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("analyzer-bench-\(getpid()).ltrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var synthesizer = TraceSynthesizer(eventCount: eventCount, seed: 1)
        do {
            let writer = try TraceWriter(path: path, metadata: synthesizer.metadata)
            while let event = synthesizer.next() { try writer.append(event, symbols: synthesizer.symbols) }
            try writer.close()
        } catch {
            fatalError("cannot write the workload: \(error)")
        }
        return Array(FileManager.default.contents(atPath: path)!)
    }()

    /// The team's sample rule file.
    static let teamRules: UserRules = {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/rules/team.yml").path
        do {
            return UserRules(try RuleFileParser.load(paths: [path]))
        } catch {
            fatalError("\(error)")
        }
    }()
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .peakMemoryResident],
        scalingFactor: .mega,
        maxDuration: .seconds(10),
        maxIterations: 10)

    Benchmark("Analyzer: replay decoded events (1M)") { benchmark in
        let (events, symbols) = Workload.events
        benchmark.startMeasurement()
        var analyzer = LifecycleAnalyzer()
        for event in events { analyzer.consume(event, symbols: symbols) }
        blackHole(analyzer.finish(symbols: symbols))
    }

    // The pair compared for rule files takes more samples: the machine's slow and fast periods
    // blur a 10 % difference over ten.
    let comparedPair = Benchmark.Configuration(maxDuration: .seconds(30), maxIterations: 60)

    Benchmark("Analyzer: read and check a binary trace (1M)", configuration: comparedPair) { benchmark in
        let bytes = Workload.binary
        benchmark.startMeasurement()
        do {
            var reader = try BinaryTraceReader(bytes: bytes, name: "workload.ltrace")
            blackHole(try LifecycleAnalyzer.analyze(&reader, path: "workload.ltrace"))
        } catch {
            fatalError("\(error)")
        }
    }

    Benchmark("Analyzer: read and check a binary trace, decoding on a second thread (1M)") { benchmark in
        let bytes = Workload.binary
        benchmark.startMeasurement()
        do {
            var reader = PrefetchingTraceReader(try BinaryTraceReader(bytes: bytes, name: "workload.ltrace"))
            blackHole(try LifecycleAnalyzer.analyze(&reader, path: "workload.ltrace"))
        } catch {
            fatalError("\(error)")
        }
    }

    // Side by side with the one before: the team's rule file (Samples/rules/team.yml) may cost at
    // most 1.2x the check without it (docs/PERFORMANCE.md, "Rule files").
    Benchmark("Analyzer: read and check a binary trace with Samples/rules/team.yml (1M)", configuration: comparedPair) { benchmark in
        let bytes = Workload.binary
        var options = AnalysisOptions()
        options.userRules = Workload.teamRules
        benchmark.startMeasurement()
        do {
            var reader = try BinaryTraceReader(bytes: bytes, name: "workload.ltrace")
            blackHole(try LifecycleAnalyzer.analyze(&reader, path: "workload.ltrace", options: options))
        } catch {
            fatalError("\(error)")
        }
    }

    Benchmark("Reader alone: iterate a binary trace (1M)") { benchmark in
        let bytes = Workload.binary
        benchmark.startMeasurement()
        do {
            var reader = try BinaryTraceReader(bytes: bytes, name: "workload.ltrace")
            var count = 0
            while let event = try reader.next() { count &+= Int(event.timestamp & 1) }
            blackHole(count)
        } catch {
            fatalError("\(error)")
        }
    }
}
