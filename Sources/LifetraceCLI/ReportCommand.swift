import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRunner

/// `lifetrace report`: the full analysis of one trace, or a summary over many runs.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the full analysis of a trace, or a summary over many traces.",
        discussion: """
            With one trace file: launch, stalls, violations, states and ending of each lifetime \
            (html: a self-contained page with a timeline). With a directory or several files: \
            launch time distribution by kind, stalls, violations by rule and endings over all runs. \
            ndjson: one row per lifetime and one closing row per trace, for any number of traces \
            (docs/JSON.md). A trace that cannot be read is named on standard error and the rest \
            is reported. Exit status: 0 reported (violations do not change it; 'check' is the \
            gate), 2 bad input (the rest still reported), bad usage, or the output could not be \
            written.
            """)

    /// The output formats.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, markdown, html, ndjson
    }

    @Argument(help: "Trace files or directories of traces (binary or JSONL; '-' for standard input).")
    var paths: [String]

    @Option(name: .long, help: "Output format: text, json, markdown, html or ndjson.")
    var format: Format = .text

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
    var output: String?

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let options = try analysis.options()
        let single = paths.count == 1 && !isDirectory(paths[0])
        if format == .ndjson || (format == .json && single) {
            try stream(single: single, options: options)
            return
        }
        let document: String
        var unreadable = 0
        do throws(TraceError) {
            if let output { try StagedOutputFile.refuseOverwriting(paths, with: output) }
            if single {
                let progress = ReadingProgress(path: paths[0])
                defer { progress?.finish() }
                document = try singleReport(paths[0], options: options)
            } else {
                let runs = try summary(options: options)
                document = runs.document
                unreadable = runs.unreadable
            }
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        try write(document)
        if unreadable > 0 { throw ExitCode(2) }
    }

    /// The formats written while the traces are read: rows (ndjson), or one trace's JSON
    /// document.
    private func stream(single: Bool, options: AnalysisOptions) throws {
        var unreadable = 0
        do throws(TraceError) {
            if let output { try StagedOutputFile.refuseOverwriting(paths, with: output) }
            let file = try StagedOutputFile(path: output ?? "-")
            if format == .ndjson {
                unreadable = try TraceRows.write(try TraceInputs.expand(paths), options: options, to: file) {
                    printError($0.description)
                }
            } else {
                unreadable = try CheckJSONDocument.stream([paths[0]], options: options, strict: false, to: file) {
                    printError($0.description)
                }.unreadableTraces
            }
            try file.commit()
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        if unreadable > 0 { throw ExitCode(2) }
    }

    private func singleReport(_ path: String, options: AnalysisOptions) throws(TraceError) -> String {
        if format == .html { return try TraceHTMLReport.make(path: path, options: options).html }
        let result = try TraceInputs.analyze(path: path, options: options)
        let textFormat: TraceReport.Format = format == .json ? .json : (format == .markdown ? .markdown : .text)
        return TraceReport(analysis: result, options: options).rendered(textFormat)
    }

    private func summary(options: AnalysisOptions) throws(TraceError) -> (document: String, unreadable: Int) {
        let files = try TraceInputs.expand(paths)
        let progress = ProgressLine(total: files.count)
        let (facts, failures) = try RunFacts.collectRows(files, options: options, progress: progress.update)
        progress.finish()
        for failure in failures { printError(failure.error.description) }
        let runs = RunSummary(runs: facts, unreadable: failures.map { ($0.path, $0.error.description) })
        switch format {
        case .text: return (runs.text, failures.count)
        case .markdown: return (runs.markdown, failures.count)
        case .json, .ndjson: return (runs.json, failures.count)
        case .html: return (runs.html, failures.count)
        }
    }

    private func write(_ document: String) throws {
        guard let output, output != "-" else {
            try StandardOutput.print(document)
            return
        }
        do throws(TraceError) {
            let file = try StagedOutputFile(path: output)
            try file.write(document)
            try file.commit()
        } catch {
            printError("cannot write the report: \(error.description)")
            throw ExitCode(2)
        }
    }
}

/// Whether `path` names a directory.
func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
}
