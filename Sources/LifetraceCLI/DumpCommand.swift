import ArgumentParser
import LifetraceFormat
import LifetraceZstd

/// `lifetrace dump`: prints a trace's events as canonical JSONL or as aligned text.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print a trace (binary or JSONL) as canonical JSONL or as text.",
        discussion: """
            jsonl is the canonical text form (what 'lifetrace import' reads back exactly); text \
            is for reading: time in ms since the first event, stream, thread, type, fields. \
            Problems the reader recovered from are printed as warnings on standard error. Exit \
            status: 0 printed, 2 bad input or usage, 7 the output could not be written \
            (docs/CLI.md).
            """)

    @Argument(help: "The trace ('-' for standard input).")
    var input: String

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "format"))
    var format: TraceTextForm = .jsonl

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output).")
    var output = "-"

    func run() throws {
        try refuseOverwriting([input], with: output)
        do throws(TraceError) {
            let source = try TraceFile.open(path: input)
            let issues = try format.write(source, to: output)
            for issue in issues { printError("warning: \(issue.description)") }
        } catch {
            throw failure(error, writing: [output])
        }
    }
}

extension TraceTextForm: ExpressibleByArgument {}
