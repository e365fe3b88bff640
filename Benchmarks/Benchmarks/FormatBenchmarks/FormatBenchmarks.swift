import Benchmark
import LifetraceFormat
import LifetraceRunner
import LifetraceSynthesis
import LifetraceZstd

#if canImport(Glibc)
import Glibc
#endif

/// Encoding and decoding throughput of the binary format, in events per second.
///
/// One iteration handles the whole workload of one million events; with the `.mega` scaling
/// factor the reported throughput is in millions of events per second.
let benchmarks: @Sendable () -> Void = {
    let eventCount = 1_000_000
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(20),
        maxIterations: 20
    )

    let workload = Workload(count: eventCount)

    let encoded = encode(workload)

    Benchmark("Encode (1M events, level 3)") { _ in
        do {
            let writer = try TraceWriter(path: "/dev/null", metadata: TraceMetadata([("app", "bench")]))
            for event in workload.events { try writer.append(event, symbols: workload.symbols) }
            try writer.close()
        }
    }

    Benchmark("Decode and iterate (1M events)") { _ in
        do {
            var reader = try BinaryTraceReader(bytes: encoded, name: "bench.ltrace")
            var checksum: Int64 = 0
            while let event = try reader.next() { checksum &+= event.timestamp }
            blackHole(checksum)
        }
    }
}

/// The reference workload (`lifetrace synth --seed 1`, docs/PERFORMANCE.md), held in memory.
struct Workload {
    var symbols = SymbolTable()
    var events: [TraceEvent] = []

    init(count: Int) {
        var synthesizer = TraceSynthesizer(eventCount: count, seed: 1)
        events.reserveCapacity(count)
        while let event = synthesizer.next() { events.append(event) }
        symbols = synthesizer.symbols
    }
}

/// The workload as a binary trace in memory.
func encode(_ workload: Workload) -> [UInt8] {
    let path = "/tmp/lifetrace-bench-\(getpid()).ltrace"
    defer { unlink(path) }
    do {
        let writer = try TraceWriter(path: path, metadata: TraceMetadata([("app", "bench")]))
        for event in workload.events { try writer.append(event, symbols: workload.symbols) }
        try writer.close()
    } catch {
        fatalError("cannot write the benchmark trace: \(error)")
    }
    guard let file = fopen(path, "rb") else { fatalError("cannot read \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = fread(&block, 1, block.count, file)
        if count == 0 { break }
        bytes.append(contentsOf: block[0..<count])
    }
    return bytes
}
