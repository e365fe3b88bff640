import ArgumentParser
import LifetraceFormat
import LifetraceOutput
import LifetraceRunner

/// `lifetrace dump`: prints a trace's events as canonical JSONL or as aligned text.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a trace (binary or JSONL) as canonical JSONL or as text.",
        discussion: """
            jsonl is the canonical text form (what 'lifetrace import' reads back exactly); text \
            is for reading: time in ms since the first event, stream, thread, type, fields. \
            Problems the reader recovered from are named on standard error; a trace that lost \
            data (cut inside a frame, data skipped) is printed up to the loss. Exit status: 0 \
            printed (an unclosed trace, with a warning), 2 bad input or usage, or a trace that \
            lost data, 7 the output could not be written (docs/CLI.md).
            """)

    @Argument(help: "The trace ('-' for standard input).")
    var input: String

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "format"))
    var format: TraceTextForm = .jsonl

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output).")
    var output = "-"

    func run() throws {
        try refuseOverwriting([input], with: output)
        var problems: [TraceError] = []
        do throws(TraceError) {
            let source = try TraceInputs.open(path: input)
            problems = try format.write(source, to: output)
        } catch {
            throw failure(error, writing: [output])
        }
        try ReadProblems.finish(problems)
    }
}

extension TraceTextForm: ExpressibleByArgument {}
