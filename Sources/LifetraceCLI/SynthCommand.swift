import ArgumentParser
import Foundation
import LifetraceFormat
import LifetraceOutput
import LifetraceSynthesis
import LifetraceZstd

/// `lifetrace synth`: writes the reference workload.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Write a synthetic, realistic trace (the reference workload).",
        discussion: """
            The trace is a deterministic function of --events and --seed: launches, a 60 Hz main \
            run loop, signposts, background/foreground cycles, suspensions and scenes, with the \
            timing jitter of a real run. See docs/PERFORMANCE.md, "Reference workload". Without \
            -o (or with -o -) the trace goes to standard output, which must not be a terminal for \
            a binary trace. Exit status: 0 written, 2 bad usage, 7 the output could not be \
            written (docs/CLI.md).
            """)

    /// Output forms.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case binary, jsonl
    }

    @Option(name: .long, help: "Number of events (at least \(TraceSynthesizer.minimumEventCount)).")
    var events: Int

    @Option(name: .long, help: "Seed of the pseudo-random generator.")
    var seed: UInt64 = 1

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output).")
    var output = "-"

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "format"))
    var format: Format = .binary

    func validate() throws {
        guard events >= TraceSynthesizer.minimumEventCount else {
            throw ValidationError("--events must be at least \(TraceSynthesizer.minimumEventCount)")
        }
        if format == .binary { try BinaryTraceOutput.refuseTerminal(output, otherwise: "use --format jsonl") }
    }

    func run() throws {
        var synthesizer = TraceSynthesizer(eventCount: events, seed: seed)
        let symbols = synthesizer.symbols
        switch format {
        case .binary:
            // Written under a temporary name and renamed, as `import` does.
            do throws(TraceError) {
                let staged = try StagedOutputFile(path: output)
                let writer = try TraceWriter(fileDescriptor: staged.descriptor, name: output, metadata: synthesizer.metadata)
                while let event = synthesizer.next() { try writer.append(event, symbols: symbols) }
                try writer.close()
                try staged.commit()
            } catch {
                throw failure(error, writing: [output])
            }
        case .jsonl:
            do throws(TraceError) {
                let writer = try JSONLTraceWriter(path: output, metadata: synthesizer.metadata)
                while let event = synthesizer.next() { try writer.append(event, symbols: symbols) }
                try writer.close()
            } catch {
                throw failure(error, writing: [output])
            }
        }
    }
}
