import ArgumentParser
import Foundation
import LifetraceExport
import LifetraceFormat

/// `lifetrace export`: converts a trace and its analysis for other tools' viewers.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Convert a trace, with its analysis, to Perfetto, the Trace Event Format (JSON) or CTF, or its stack samples to folded stacks.",
        discussion: """
            perfetto: a native Perfetto trace for ui.perfetto.dev. chrome-json: the Trace Event \
            Format for chrome://tracing and other viewers. ctf: a CTF 1.8 directory (metadata and \
            stream_0) for babeltrace2 and Trace Compass. folded: the stack samples, one line per \
            distinct stack (frame;frame;frame count), for flamegraph.pl and speedscope. See docs/EXPORT.md. A damaged \
            trace is exported up to the loss, each problem named on standard error. Exit status: 0 written, \
            2 bad input or usage, or a trace that lost data (cut inside a frame, data skipped; \
            written all the same), 7 the output could not be written (docs/CLI.md).
            """)

    @Argument(help: "The trace (binary or JSONL; '-' for standard input).")
    var path: String

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "format"))
    var format: ExportFormat?

    /// The spelling of `--format` before it was the same in every command; kept for scripts.
    @Option(name: .customLong("to"), help: .hidden)
    var formatAlias: ExportFormat?

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output), or directory for ctf.")
    var output: String

    @OptionGroup var analysis: AnalysisArguments

    /// The format given, as `--format` or `--to`.
    private var chosenFormat: ExportFormat? { format ?? formatAlias }

    func validate() throws {
        if format != nil && formatAlias != nil { throw ValidationError("give the format once, with --format") }
        guard let format = chosenFormat else {
            throw ValidationError("give the output format with --format: \(choices(ExportFormat.self))")
        }
        if format.writesDirectory && output == "-" {
            throw ValidationError("--format \(format.rawValue) writes a directory: give one with -o")
        }
    }

    func run() throws {
        let options = try analysis.options()
        guard let format = chosenFormat else { throw ExitStatus.badInput.exit }
        try refuseOverwriting([path], with: output)
        var problems: [TraceError] = []
        do throws(ExportError) {
            let summary = try TraceExporter.export(path: path, to: format, output: output, options: options)
            if output != "-" {
                writeToStandardError(
                    "lifetrace: \(output): \(summary.eventCount) events, \(summary.recordCount) records, \(summary.violationCount) violations, \(summary.byteCount) bytes\n")
            }
            // Written from every event read before the loss; a trace that lost data is still bad input.
            problems = summary.issues
        } catch {
            var error = error
            if error.kind == .output { error.path = StandardOutput.named(error.path) }
            // A reader that stopped early: the status says so, without a line (docs/CLI.md).
            if !(error.kind == .output && error.path == StandardOutput.name && StandardOutput.readerHasGone) { printError(error.description) }
            throw (error.kind == .input ? ExitStatus.badInput : .outputFailed).exit
        }
        try ReadProblems.finish(problems)
    }
}

extension ExportFormat: ExpressibleByArgument {}
