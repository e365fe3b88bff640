import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceHistory
import LifetraceReports
import LifetraceRunner

/// `lifetrace history`: the store of every build's runs, its series and change points (docs/HISTORY.md).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Keep every build's runs in one SQLite store, and show how each metric moved and where it changed.",
        discussion: "The store is --history PATH, or `history:` in the configuration file (docs/HISTORY.md).",
        subcommands: [HistoryAddCommand.self, HistoryShowCommand.self]
    )
}

/// Which store: `--history`, else the configuration file's `history:`.
struct HistoryStoreArguments: ParsableArguments {
    @Option(name: .customLong("history"), help: ArgumentHelp("The history store (an SQLite file).", valueName: "path"))
    var path: String?

    @Option(help: ArgumentHelp("How long to wait for another process's write to the store (seconds).", valueName: "seconds"))
    var wait: Double = 30

    func validate() throws {
        guard wait >= 0, wait.isFinite else { throw ValidationError("--wait must be 0 or more seconds") }
    }

    /// The store's path; a usage error when neither the option nor the configuration names one.
    func resolve(configuration: ProjectConfiguration?) throws -> String {
        guard let path = path ?? configuration?.history else {
            throw ValidationError("no history store: give --history PATH, or `history:` in \(ProjectConfiguration.fileName)")
        }
        return path
    }
}

/// Ends the command on a store error: one line, exit 7 when the store could not be written
/// (locked, full disk), 2 when it cannot be used (missing, foreign, newer, damaged).
func failure(_ error: HistoryStoreError) -> ExitCode {
    printError(error.description)
    switch error.kind {
    case .locked, .full: return ExitStatus.outputFailed.exit
    default: return ExitStatus.badInput.exit
    }
}

/// `lifetrace history add`: analyses traces and reads rows, and stores their runs under one build.
struct HistoryAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Analyse traces (files, directories) and add their runs to the history under one build.",
        discussion: """
            The build's fields come from the options, then the CI's environment (GITHUB_RUN_NUMBER, GITHUB_SHA, \
            GITHUB_REF_NAME, CI_PIPELINE_IID, CI_COMMIT_SHA, CI_COMMIT_BRANCH, BUILD_NUMBER, GIT_COMMIT, GIT_BRANCH), \
            then the traces' metadata. The whole build is added in one transaction, or nothing is.
            """
    )

    @Argument(help: ArgumentHelp("Trace files, MetricKit payloads (JSON, told by content), or directories of them.", valueName: "trace"))
    var paths: [String] = []

    @Option(name: .customLong("rows"), help: ArgumentHelp(
        "Rows of `report --format ndjson` or of the Spark job, as JSON lines: a file or a directory of .json/.ndjson files.",
        valueName: "path"))
    var rows: [String] = []

    @OptionGroup var build: BuildArguments
    @OptionGroup var store: HistoryStoreArguments
    @OptionGroup var analysis: AnalysisArguments

    func validate() throws {
        if paths.isEmpty && rows.isEmpty { throw ValidationError("give traces or MetricKit payloads to add, or --rows") }
    }

    func run() throws {
        let configuration = try analysis.configuration()
        let storePath = try store.resolve(configuration: configuration)
        let options = try analysis.options(configuration: configuration)
        var runs: [HistoryRun] = []
        var unreadable: [(path: String, error: String)] = []
        var problems = ReadProblems()
        let payloads = try metricKitPayloads(symbolication: options.symbolication)
        do throws(TraceError) {
            if !payloads.traces.isEmpty {
                let files = try TraceInputs.expand(payloads.traces)
                let progress = ProgressLine(total: files.count)
                var done = 0
                try RunFacts.analyzeRows(files, options: options) { path, result in
                    switch result {
                    case .success(let analysed):
                        runs.append(HistoryRun(trace: analysed.trace, lifetimes: analysed.lifetimes))
                        problems.report(analysed.issues)
                    case .failure(let error): unreadable.append((path, error.description))
                    }
                    done += 1
                    progress.update(done)
                }
                progress.finish()
            }
        } catch {
            throw failure(error, writing: [])
        }
        do throws(RowsFile.Malformed) {
            let read = try RowsFile.read(rows)
            runs += read.runs
            unreadable += read.unreadable
        } catch {
            printError(error.description)
            throw ExitStatus.badInput.exit
        }
        // A build with a run missing would be a step in every series: nothing is added then.
        if !unreadable.isEmpty {
            for trace in unreadable { printError(trace.error) }
            printError("\(storePath): nothing was added: \(unreadable.count) of the build's traces could not be read")
            throw ExitStatus.badInput.exit
        }
        let build = BuildIdentity(options: build.fields, environment: ProcessInfo.processInfo.environment)
            .record(runs: runs, payloads: payloads.read)
        do throws(HistoryStoreError) {
            let history = try HistoryStore(path: storePath, access: .write, busyTimeout: store.wait)
            try history.add(build, runs: runs, payloads: payloads.read)
        } catch {
            throw failure(error)
        }
        let field = payloads.read.isEmpty ? "" : " and \(payloads.read.count) MetricKit payload\(payloads.read.count == 1 ? "" : "s")"
        try StandardOutput.print("added \(runs.count) run\(runs.count == 1 ? "" : "s")\(field) to \(build.label) in \(storePath)\n")
        try problems.finish()
    }
}

extension HistoryAddCommand {
    /// The MetricKit payloads among the paths (told by content), their frames symbolicated the
    /// way traces' stack samples are, and the paths left for traces. A malformed payload is one
    /// line and exit 2; the notes (fields kept that Apple does not document, binaries no symbol
    /// file matched) are printed.
    func metricKitPayloads(symbolication: StackSymbolication?) throws -> (read: [MetricKitPayload], traces: [String]) {
        var sorted: (payloads: [MetricKitPayload], traces: [String])
        do throws(MetricKitReader.Malformed) {
            sorted = try MetricKitFiles.sort(paths)
        } catch {
            printError(error.description)
            throw ExitStatus.badInput.exit
        }
        for index in sorted.payloads.indices {
            let path = sorted.payloads[index].path
            do {
                for note in try sorted.payloads[index].symbolicate(with: symbolication?.resolver) { printError("note: \(path): \(note)") }
            } catch {
                printError("note: \(path): the call stacks were not symbolicated: \(error)")
            }
            for note in sorted.payloads[index].notes { printError("note: " + note) }
        }
        return (sorted.payloads, sorted.traces)
    }
}

/// `lifetrace history show`: the series by build or by version, with their change points.
struct HistoryShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show each metric's series by build or by version, and the builds where they changed."
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, html
    }

    @Option(help: ArgumentHelp("Output format.", valueName: "format")) var format: Format = .text
    @Option(name: .customLong("by"), help: ArgumentHelp("One point per build (CI order) or per app version (version order).", valueName: "order"))
    var order: HistorySeries.Order = .build
    @Option(help: ArgumentHelp("Text: the figures of the last N points (the change points are found on all).", valueName: "n"))
    var last = 10
    @Option(name: .shortAndLong, help: ArgumentHelp("Output file ('-' for standard output).", valueName: "file")) var output = "-"

    @OptionGroup var store: HistoryStoreArguments
    @OptionGroup var configurationFile: ConfigurationArguments

    func validate() throws {
        guard last > 0 else { throw ValidationError("--last must be at least 1") }
    }

    func run() throws {
        let storePath = try store.resolve(configuration: configurationFile.load())
        let series: HistorySeries
        do throws(HistoryStoreError) {
            series = try HistorySeries(store: HistoryStore(path: storePath, access: .read, busyTimeout: store.wait), order: order)
        } catch {
            throw failure(error)
        }
        let document = switch format {
        case .text: series.text(last: last)
        case .json: series.json
        case .html: series.html
        }
        try writeDocument(document, to: output)
    }
}

extension HistorySeries.Order: ExpressibleByArgument {}
