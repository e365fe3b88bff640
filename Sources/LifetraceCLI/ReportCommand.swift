import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports

/// `lifetrace report`: the full analysis of one trace, or a summary over many runs.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the full analysis of a trace, or a summary over many traces.",
        discussion: """
            With one trace file: launch, stalls, violations, states and ending of each lifetime \
            (html: a self-contained page with a timeline). With a directory or several files: \
            launch time distribution by kind, stalls, violations by rule and endings over all runs. \
            Exit status: 0 reported (violations do not change it; 'check' is the gate), 2 bad input, \
            bad usage, or the output could not be written.
            """)

    /// The output formats.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, markdown, html
    }

    @Argument(help: "Trace files or directories of traces (binary or JSONL; '-' for standard input).")
    var paths: [String]

    @Option(name: .long, help: "Output format: text, json, markdown or html.")
    var format: Format = .text

    @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
    var output: String?

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let options = try analysis.options()
        let document: String
        do throws(TraceError) {
            if let output { try StagedOutputFile.refuseOverwriting(paths, with: output) }
            let single = paths.count == 1 && !isDirectory(paths[0])
            let progress = single ? ReadingProgress(path: paths[0]) : nil
            defer { progress?.finish() }
            document = single ? try singleReport(paths[0], options: options) : try summary(options: options)
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        try write(document)
    }

    private func singleReport(_ path: String, options: AnalysisOptions) throws(TraceError) -> String {
        if format == .html { return try TraceHTMLReport.make(path: path, options: options).html }
        let result = try TraceInputs.analyze(path: path, options: options)
        let textFormat: TraceReport.Format = format == .json ? .json : (format == .markdown ? .markdown : .text)
        return TraceReport(analysis: result, options: options).rendered(textFormat)
    }

    private func summary(options: AnalysisOptions) throws(TraceError) -> String {
        let files = try TraceInputs.expand(paths)
        let progress = ProgressLine(total: files.count)
        let runs = RunSummary(runs: try RunFacts.collect(files, options: options, progress: progress.update))
        progress.finish()
        switch format {
        case .text: return runs.text
        case .markdown: return runs.markdown
        case .json: return runs.json
        case .html: return runs.html
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
