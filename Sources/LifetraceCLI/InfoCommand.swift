import ArgumentParser
import LifetraceFormat
import LifetraceReports
import LifetraceZstd

/// `lifetrace info`: what a trace holds and whether it is intact.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a trace's metadata, streams, chunks, events, time span, size and integrity.",
        discussion: """
            Reads the whole trace (binary or JSONL), checking every chunk. Integrity problems \
            (a truncated or unclosed file, corrupt chunks) are listed; they do not change the \
            exit status. Exit status: 0 shown, 2 bad input or usage, 7 the output could not be \
            written (docs/CLI.md).
            """)

    @Argument(help: "The trace ('-' for standard input).")
    var input: String

    @Flag(name: .long, help: "List every chunk of a binary trace.")
    var chunks = false

    func run() throws {
        let report: String
        do throws(TraceError) {
            report = try TraceInfo.report(path: input, listsChunks: chunks)
        } catch {
            printError(error.description)
            throw ExitStatus.badInput.exit
        }
        try StandardOutput.print(report)
    }
}
