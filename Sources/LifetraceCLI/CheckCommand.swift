import Foundation
import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceHistory
import LifetraceReports
import LifetraceRules
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
            written (docs/CLI.md). With --history the traces are added to the history store as one \
            build (as `history add` adds them; the same build's runs again add nothing), and the \
            check also fails (1) when the build starts a change: a metric whose median rose \
            \(Int(EDivisive().minimumMagnitude * 100)) % or more, at p <= \(EDivisive().significance), against the \
            builds of its branch before it (--baseline to choose them; docs/HISTORY.md); the store's \
            errors are 2, or 7 when it stayed locked or the disk is full.
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

    @Option(name: .customLong("history"), help: ArgumentHelp("Add the traces to this history store as one build, and fail when the build starts a change.", valueName: "path"))
    var historyPath: String?

    @Option(help: ArgumentHelp("How long to wait for another process's write to the history store (seconds).", valueName: "seconds"))
    var wait: Double = 30

    @Option(name: .long, help: ArgumentHelp(
        "With --history: the builds the new build is compared with, the last N of BRANCH (default: its own branch's last \(HistoryBaseline.defaultBuilds)).",
        valueName: "history:branch[:n]"), transform: { text in try HistoryBaseline(parsing: text) })
    var baseline: HistoryBaseline?

    @OptionGroup var build: BuildArguments

    @Flag(name: .customLong("list-rules"), help: "List the rules (built-in, and those of the rule files given): id, severity, when each is violated, and what it rests on; then exit.")
    var listRules = false

    func validate() throws {
        if paths.isEmpty && !listRules { throw ValidationError("give the traces to check: files, or directories of traces") }
        guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
        if historyPath == nil, let option = build.given.first ?? (baseline != nil ? "--baseline" : nil) {
            throw ValidationError("\(option) names what --history adds; give --history PATH too")
        }
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
        // With a history, the lifetimes are kept (up to the summary's cap) to be stored.
        options.keepsLifetimes = historyPath != nil
        if format == .json && historyPath == nil {
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
        var output = CheckOutput(
            analyses: analyses, rules: options.rules, userRules: options.userRules, strict: strict, unreadable: unreadable,
            configuration: applied)
        if let historyPath { output.history = try addToHistory(historyPath, output) }
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

    /// Adds the analyses to the history store at `path` as one build (nothing when a trace could
    /// not be read whole: a build with a run missing would be a step in every series) and
    /// returns the history's verdict on it; a store error ends the command (exit 2, or 7).
    private func addToHistory(_ path: String, _ output: CheckOutput) throws -> CheckHistoryVerdict? {
        guard output.unreadable.isEmpty && output.incomplete == 0 else {
            let lost = output.unreadable.count + output.incomplete
            printError("\(path): nothing was added: \(lost) of the build's traces could not be read whole")
            return nil
        }
        let runs = output.analyses.map { HistoryRun($0) }
        let record = BuildIdentity(options: build.fields, environment: ProcessInfo.processInfo.environment).record(runs: runs)
        do throws(HistoryStoreError) {
            let store = try HistoryStore(path: path, access: .write, busyTimeout: wait)
            let added = try store.addOnce(record, runs: runs)
            return try HistoryGate(baseline: baseline).verdict(store: store, buildID: record.buildID, added: added)
        } catch {
            throw failure(error)
        }
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
