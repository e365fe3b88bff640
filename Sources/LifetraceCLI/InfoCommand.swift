import ArgumentParser
import Foundation
import LifetraceFormat
import LifetraceZstd

/// `lifetrace info`: what a trace holds and whether it is intact.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a trace's metadata, streams, chunks, events, time span, size and integrity.",
        discussion: """
            Reads the whole trace (binary or JSONL), checking every chunk. Integrity problems \
            (a truncated or unclosed file, corrupt chunks) are listed; they do not change the \
            exit status. Exit status: 0 shown, 2 bad input or usage.
            """)

    @Argument(help: "The trace ('-' for standard input).")
    var input: String

    @Flag(name: .long, help: "List every chunk of a binary trace.")
    var chunks = false

    func run() throws {
        let report: String
        do throws(TraceError) {
            var summary = TraceInfo()
            // Opened once: a FIFO or a pipe cannot be read twice.
            let source = try TraceFile.open(path: input, binaryOptions: .init(collectsChunkStatistics: true))
            if var reader = source.binary {
                while try reader.nextBatch({ events, _ in for event in events { summary.add(event) } }) {}
                report = summary.report(name: input, metadata: reader.metadata, issues: reader.issues, binary: reader.summary, chunks: chunks ? reader.chunks : nil)
            } else {
                let issues = try copyEvents(of: source) { (event, _) throws(TraceError) in summary.add(event) }
                let size = input == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int64) ?? nil
                report = summary.report(name: input, metadata: source.metadata, issues: issues, binary: source.binary?.summary, chunks: nil, fileSize: size)
            }
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        try StandardOutput.print(report)
    }
}
