import ArgumentParser
import Foundation
import LifetraceExport
import LifetraceFormat

/// `lifetrace export`: converts a trace and its analysis for other tools' viewers.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Convert a trace, with its analysis, to Perfetto, the Trace Event Format (JSON) or CTF.",
        discussion: """
            perfetto: a native Perfetto trace for ui.perfetto.dev. chrome-json: the Trace Event \
            Format for chrome://tracing and other viewers. ctf: a CTF 1.8 directory (metadata and \
            stream_0) for babeltrace2 and Trace Compass. See docs/EXPORT.md. Exit codes: 0 written, \
            2 bad input or usage, 3 the output could not be written.
            """)

    @Argument(help: "The trace (binary or JSONL; '-' for standard input).")
    var path: String

    @Option(name: .customLong("to"), help: "Output format: perfetto, chrome-json or ctf.")
    var format: ExportFormat

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output), or directory for ctf.")
    var output: String

    @OptionGroup var analysis: AnalysisArguments

    func validate() throws {
        if format.writesDirectory && output == "-" {
            throw ValidationError("--to ctf writes a directory: give one with -o")
        }
    }

    func run() throws {
        let options = try analysis.options()
        do throws(TraceError) {
            try StagedOutputFile.refuseOverwriting([path], with: output)
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        do throws(ExportError) {
            let summary = try TraceExporter.export(path: path, to: format, output: output, options: options)
            if output != "-" {
                writeToStandardError(
                    "lifetrace: \(output): \(summary.eventCount) events, \(summary.recordCount) records, \(summary.violationCount) violations, \(summary.byteCount) bytes\n")
            }
        } catch {
            printError(error.description)
            throw ExitCode(error.kind == .input ? 2 : 3)
        }
    }
}

extension ExportFormat: ExpressibleByArgument {}
