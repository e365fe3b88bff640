import Foundation
import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRunner

/// `lifetrace check`: the CI gate.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check traces against the lifecycle rules and the rules of rule files.",
        discussion: """
            Replays each trace through the lifecycle model (docs/LIFECYCLE.md) and reports every \
            broken rule. Exit status: 0 when no trace has an error-severity violation, 1 when one \
            has (or a warning, with --strict), 2 for bad input or usage, or when a trace was not \
            read whole: data skipped inside it, a binary trace cut inside a frame (judged only up \
            to the data lost) or going on after its end record, nothing readable, or (with \
            --strict) an unclosed end (without it, judged with a note in every format); 7 when the \
            output (-o, standard output, or with --format github the job summary) could not be \
            written (docs/CLI.md).
            """)

    @Argument(help: "Trace files, or directories searched for .ltrace and .jsonl files.")
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "format"))
    var format: CheckOutput.Format = .text

    @Option(name: .shortAndLong, help: "Write the result to this file instead of standard output ('-').")
    var output: String?

    @OptionGroup var analysis: AnalysisArguments

    @Flag(name: .long, inversion: .prefixedNo, help: "Fail on warnings too, and on an unclosed trace. (default: off)")
    var strict: Bool?

    @Flag(name: .customLong("list-rules"), help: "List the rules (built-in, and those of the rule files given): id, severity, when each is violated, and what it rests on; then exit.")
    var listRules = false

    func validate() throws {
        if paths.isEmpty && !listRules { throw ValidationError("give the traces to check: files, or directories of traces") }
    }

    func run() throws {
        let configuration = try analysis.configuration()
        if listRules {
            let rules = Rule.allCases + (try analysis.fileRules(configuration: configuration)).map(\.rule)
            try writeDocument(RuleCatalog(rules: rules).text, to: output)
            return
        }
        if let output { try refuseOverwriting(paths, with: output) }
        if format == .github, let summary = jobSummaryPath { try refuseAppending(to: summary) }
        var options = try analysis.options(configuration: configuration)
        let strict = strict ?? configuration?.strict ?? false
        var applied = try analysis.applied(configuration)
        if self.strict == nil, let fileStrict = configuration?.strict, fileStrict {
            applied?.changes.append("strict: warnings fail, and an unclosed trace")
        }
        // The JSON document lists lifetimes as they end; the other formats count them, and
        // keeping their reports would make memory grow with the trace's length.
        options.keepsLifetimes = false
        if format == .json {
            try streamJSON(options: options, strict: strict, configuration: applied)
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
            throw failure(error, writing: [])
        }
        let output = CheckOutput(
            analyses: analyses, rules: options.rules, userRules: options.userRules, strict: strict, unreadable: unreadable,
            configuration: applied)
        if format == .github {
            let summary = jobSummaryPath
            var annotations = GitHubAnnotations(output)
            annotations.writesJobSummary = summary != nil
            try writeDocument(annotations.document, to: self.output)
            if let summary { try writeJobSummary(output, to: summary) }
        } else {
            try writeDocument(output.rendered(format), to: self.output)
        }
        // A trace that could not be read, or not read whole, is bad input: never a pass.
        if !unreadable.isEmpty || output.incomplete > 0 { throw ExitStatus.badInput.exit }
        if !output.passed { throw ExitStatus.checkFailed.exit }
    }

    /// The job summary's file under GitHub Actions (`$GITHUB_STEP_SUMMARY`), or nil.
    private var jobSummaryPath: String? {
        ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Refuses a job summary that is one of the traces checked (the same file), before anything
    /// is read: the summary would be appended into the trace. A usage error, exit status 2.
    private func refuseAppending(to summary: String) throws {
        let inputs = (try? TraceInputs.expand(paths)) ?? paths
        do throws(TraceError) {
            try StagedOutputFile.refuseOverwriting(inputs, with: summary)
        } catch {
            let input = inputs.first { input in
                (try? StagedOutputFile.refuseOverwriting([input], with: summary)) == nil
            } ?? summary
            printError("\(summary): the job summary ($GITHUB_STEP_SUMMARY) is a trace this check reads (\(input)); "
                + "the summary would be appended into it: give the job summary its own file")
            throw ExitStatus.badInput.exit
        }
    }

    /// With `--format github` inside GitHub Actions, appends the Markdown summary of every finding
    /// to the file `$GITHUB_STEP_SUMMARY` names: the annotations hold only the most severe.
    private func writeJobSummary(_ output: CheckOutput, to path: String) throws {
        // GitHub creates the file; anywhere else a missing one is created. Never through a link,
        // and never waiting: a FIFO or a device is refused, not opened for a reader to come.
        let file = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard file >= 0 else {
            let reason = errno == ELOOP ? "a symbolic link; give the file itself" : String(cString: strerror(errno))
            printError("\(path): cannot open the job summary ($GITHUB_STEP_SUMMARY) for writing: \(reason)")
            throw ExitStatus.outputFailed.exit
        }
        let handle = FileHandle(fileDescriptor: file, closeOnDealloc: true)
        guard FileFacts.isRegularFile(file) else {
            printError("\(path): the job summary ($GITHUB_STEP_SUMMARY) is not a regular file")
            throw ExitStatus.outputFailed.exit
        }
        do {
            try handle.write(contentsOf: Data(output.rendered(.markdown).utf8))
        } catch {
            printError("\(path): cannot write the job summary ($GITHUB_STEP_SUMMARY): \(error.localizedDescription)")
            throw ExitStatus.outputFailed.exit
        }
    }

    /// The JSON document, written while the traces are read.
    private func streamJSON(options: AnalysisOptions, strict: Bool, configuration: CheckConfiguration?) throws {
        let document: CheckJSONDocument
        let destination = output ?? "-"
        do throws(TraceError) {
            let file = try StagedOutputFile(path: destination)
            document = try CheckJSONDocument.stream(try TraceInputs.expand(paths), options: options, strict: strict, configuration: configuration, to: file) {
                printError($0.description)
            }
            try file.commit()
        } catch {
            throw failure(error, writing: [destination])
        }
        // A trace that could not be read, or not read whole, is bad input: never a pass.
        if document.unreadableTraces > 0 || document.incompleteTraces > 0 { throw ExitStatus.badInput.exit }
        if document.failedTraces > 0 { throw ExitStatus.checkFailed.exit }
    }
}

extension CheckOutput.Format: ExpressibleByArgument {}
