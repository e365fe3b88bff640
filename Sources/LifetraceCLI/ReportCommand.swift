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
            is reported; a damaged trace is reported up to the loss, each problem named on \
            standard error. Exit status: 0 reported (violations do not change it; 'check' is the \
            gate), 2 bad input or usage, or a trace that could not be read or lost data (the rest \
            still reported), 7 the output could not be written (docs/CLI.md).
            """)

    @Argument(help: "Trace files or directories of traces (binary or JSONL; '-' for standard input).")
    var paths: [String]

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "format"))
    var format: ReportFormat = .text

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output ('-').")
    var output: String?

    @Flag(
        name: .customLong("run-pages"), inversion: .prefixedNo,
        help: "With several traces, --format html and -o: write the page of each run the summary links to, in a folder beside it (docs/REPORTS.md).")
    var runPages = true

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let options = try analysis.options()
        let single = paths.count == 1 && !isDirectory(paths[0])
        if let output { try refuseOverwriting(paths, with: output) }
        if format.isStreamed(singleTrace: single) {
            try stream(options: options)
            return
        }
        var document = ""
        var unreadable = 0
        var summarised: RunSummary?
        var issues: [[TraceError]] = []
        var problems = ReadProblems()
        do throws(TraceError) {
            if single {
                let progress = ReadingProgress(path: paths[0])
                defer { progress?.finish() }
                let report = try format.report(path: paths[0], options: options)
                document = report.document
                issues = [report.issues]
            } else {
                let runs = try summary(options: options)
                summarised = runs
                unreadable = runs.unreadable.count
                issues = runs.runs.map(\.issues)
            }
        } catch {
            throw failure(error, writing: [])
        }
        for trace in issues { problems.report(trace) }
        if let summarised { document = try summaryDocument(summarised, options: options) }
        try writeDocument(document, to: output)
        // What was read is reported; a trace that could not be read, or lost data, is bad input.
        if unreadable > 0 { throw ExitStatus.badInput.exit }
        try problems.finish()
    }

    /// The formats written while the traces are read: rows, or one trace's JSON document.
    private func stream(options: AnalysisOptions) throws {
        var unreadable = 0
        var problems = ReadProblems()
        let destination = output ?? "-"
        do throws(TraceError) {
            let file = try StagedOutputFile(path: destination)
            unreadable = try format.stream(
                paths, options: options, to: file, failed: { printError($0.description) }, recovered: { problems.report($0) })
            try file.commit()
        } catch {
            throw failure(error, writing: [destination])
        }
        if unreadable > 0 { throw ExitStatus.badInput.exit }
        try problems.finish()
    }

    /// The summary over the runs, each unreadable trace named on standard error.
    private func summary(options: AnalysisOptions) throws(TraceError) -> RunSummary {
        let files = try TraceInputs.expand(paths)
        let progress = ProgressLine(total: files.count)
        let (facts, failures) = try RunFacts.collectRows(files, options: options, progress: progress.update)
        progress.finish()
        for failure in failures { printError(failure.error.description) }
        return RunSummary(runs: facts, unreadable: failures.map { ($0.path, $0.error.description) })
    }
}

/// Whether `path` names a directory.
func isDirectory(_ path: String) -> Bool {
    var directory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
}

extension ReportFormat: ExpressibleByArgument {}
