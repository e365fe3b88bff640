import ArgumentParser
import Foundation
import LifetraceFormat

/// `lifetrace synth`: writes the reference workload.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write a synthetic, realistic trace (the reference workload).",
        discussion: """
            The trace is a deterministic function of --events and --seed: launches, a 60 Hz main \
            run loop, signposts, background/foreground cycles, suspensions and scenes, with the \
            timing jitter of a real run. See docs/PERFORMANCE.md, "Reference workload".
            """)

    /// Output forms.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case jsonl
    }

    @Option(name: .long, help: "Number of events (at least \(TraceSynthesizer.minimumEventCount)).")
    var events: Int

    @Option(name: .long, help: "Seed of the pseudo-random generator.")
    var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output).")
    var output: String

    @Option(name: .long, help: "Output format.")
    var format: Format = .jsonl

    func validate() throws {
        guard events >= TraceSynthesizer.minimumEventCount else {
            throw ValidationError("--events must be at least \(TraceSynthesizer.minimumEventCount)")
        }
    }

    func run() throws {
        var synthesizer = TraceSynthesizer(eventCount: events, seed: seed)
        do throws(TraceError) {
            let writer = try JSONLTraceWriter(path: output, metadata: synthesizer.metadata)
            let symbols = synthesizer.symbols
            while let event = synthesizer.next() { try writer.append(event, symbols: symbols) }
            try writer.close()
        } catch {
            FileHandle.standardError.write(Data("lifetrace: \(error.description)\n".utf8))
            throw ExitCode(2)
        }
    }
}
