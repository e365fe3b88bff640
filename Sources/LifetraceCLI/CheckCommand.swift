import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRunner

/// `lifetrace check`: the CI gate.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check traces against the lifecycle rules and the launch budget.",
        discussion: """
            Replays each trace through the lifecycle model (docs/LIFECYCLE.md) and reports every \
            broken rule. Exit status: 0 when no trace has an error-severity violation, 1 when one \
            has (or a warning, with --strict), 2 for bad input or usage, or when a trace was not \
            read whole: data skipped inside it, nothing readable, or (with --strict) a truncated \
            or unclosed end.
            """)

    @Argument(help: "Trace files, or directories searched for .ltrace and .jsonl files.")
    var paths: [String]

    @Option(name: .long, help: "Output format: text, json, junit or github.")
    var format: CheckOutput.Format = .text

    @OptionGroup var analysis: AnalysisArguments

    @Flag(name: .long, help: "Fail on warnings too, and on a truncated or unclosed trace.")
    var strict = false

    func run() throws {
        var options = try analysis.options()
        // The JSON document lists lifetimes as they end; the other formats count them, and
        // keeping their reports would make memory grow with the trace's length.
        options.keepsLifetimes = false
        if format == .json {
            try streamJSON(options: options)
            return
        }
        var analyses: [TraceAnalysis] = []
        var unreadable: [TraceError] = []
        do throws(TraceError) {
            // Analysed on every core; errors are reported in the order of the paths.
            let inputs = try TraceInputs.expand(paths)
            let progress = inputs.count == 1 ? ReadingProgress(path: inputs[0]) : nil
            defer { progress?.finish() }
            for result in TraceInputs.analyze(paths: inputs, options: options) {
                switch result {
                case .success(let analysis):
                    analyses.append(analysis)
                case .failure(let error):
                    printError(error.description)
                    unreadable.append(error)
                }
            }
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        let output = CheckOutput(
            analyses: analyses, rules: options.rules, userRules: options.userRules, strict: strict, unreadable: unreadable)
        try StandardOutput.print(output.rendered(format))
        // A trace that could not be read, or not read whole, is bad input: never a pass.
        if !unreadable.isEmpty || output.incomplete > 0 { throw ExitCode(2) }
        if !output.passed { throw ExitCode(1) }
    }

    /// The JSON document, written while the traces are read.
    private func streamJSON(options: AnalysisOptions) throws {
        let document: CheckJSONDocument
        do throws(TraceError) {
            let output = StagedOutputFile(fileDescriptor: 1, name: "standard output")
            document = try CheckJSONDocument.stream(try TraceInputs.expand(paths), options: options, strict: strict, to: output) {
                printError($0.description)
            }
            try output.flush()
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        // A trace that could not be read, or not read whole, is bad input: never a pass.
        if document.unreadableTraces > 0 || document.incompleteTraces > 0 { throw ExitCode(2) }
        if document.failedTraces > 0 { throw ExitCode(1) }
    }
}
