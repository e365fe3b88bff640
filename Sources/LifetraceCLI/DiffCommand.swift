import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceHistory
import LifetraceReports
import LifetraceRunner

/// `lifetrace diff`: compares two sets of runs and checks budgets.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare baseline runs with candidate runs, metric by metric, and check budgets.",
        usage: """
            lifetrace diff [<options>] <baseline> ... -- <candidate> ...
              lifetrace diff [<options>] --baseline history:<branch>[:<n>] <candidate> ...
            """,
        discussion: """
            Each side is trace files or directories of traces; or the baseline is the runs of the \
            last N builds of a branch in the history store (--baseline history:BRANCH[:N], N \
            \(HistoryBaseline.defaultBuilds) when not given; the store is --history, or `history:` in the \
            configuration file; docs/HISTORY.md). Every metric (launch duration and \
            main-thread busy time by launch kind, stalls per lifetime, stall duration, violations \
            per trace) is compared with a two-sided Mann-Whitney U test and a Hodges-Lehmann shift \
            with its confidence interval; each warning's count per run with the conditional Poisson \
            test; every p-value Holm-adjusted for the number of tests. Exit status: 1 when the \
            candidates break an error-severity rule more often per run than the baseline, or a \
            warning significantly more often (unless --allow-more-violations), when a candidate \
            statistic is over an absolute budget, or when a median rose by more than \
            --max-regression in a statistically significant regression; 0 otherwise; 2 for bad \
            input or usage, or a run that lost data (cut inside a frame, data skipped: compared \
            up to the loss, each problem named on standard error); 7 when the output could not \
            be written (docs/CLI.md). Budgets and \
            --max-regression need at least two runs per side; they, --alpha and \
            --allow-more-violations can also come from the configuration file. See docs/REPORTS.md.
            """)

    @Argument(help: "Baseline traces, then '--', then candidate traces.")
    var paths: [String] = []

    @Option(name: .long, help: ArgumentHelp("Output format.", valueName: "format"))
    var format: RunComparison.Format = .text

    @Option(name: .shortAndLong, help: "Write the comparison to this file instead of standard output ('-').")
    var output: String?

    // A value may start with '-' (`-5%`), so that it is refused for what it is rather than taken
    // for an option.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Largest allowed rise of a metric's median, a percentage with '%' (10% or '10 %'; a plain number is refused).", valueName: "percent"))
    var maxRegression: String?

    @Option(name: .long, help: ArgumentHelp("Absolute budget on the candidates, e.g. launch.cold.p50=400ms (repeatable).", valueName: "metric.stat=limit"))
    var budget: [String] = []

    @Option(name: .long, help: ArgumentHelp("A JSON budget file (see docs/REPORTS.md).", valueName: "file"))
    var budgets: String?

    @Option(name: .long, parsing: .unconditional, help: "Significance level for a regression to count, between 0 and 1. (default: \(ComparisonGate().alpha))", transform: SignificanceLevel.argument)
    var alpha: Double?

    @Flag(name: .long, inversion: .prefixedNo, help: "Do not fail on more errors per run, or significantly more warnings, than the baseline. (default: off)")
    var allowMoreViolations: Bool?

    @Option(name: .long, help: ArgumentHelp(
        "The baseline from the history store instead of traces: the runs of the last N builds of BRANCH (N \(HistoryBaseline.defaultBuilds) when not given).",
        valueName: "history:branch[:n]"), transform: { text in try HistoryBaseline(parsing: text) })
    var baseline: HistoryBaseline?

    @OptionGroup var store: HistoryStoreArguments

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let configuration = try analysis.configuration()
        let options = try analysis.options(configuration: configuration)
        let (baselinePaths, candidatePaths) = try sides()
        if let output { try refuseOverwriting(baselinePaths + candidatePaths, with: output) }
        let gate = try gate(configuration: configuration)
        // The history's runs are read first: a store or a branch that cannot serve is named
        // before any trace is analysed.
        let stored = try baseline.map { try historyRuns($0, configuration: configuration) }
        let comparison: RunComparison
        do throws(TraceError) {
            let baseline = try TraceInputs.expand(baselinePaths)
            let candidate = try TraceInputs.expand(candidatePaths)
            let progress = ProgressLine(total: baseline.count + candidate.count)
            var runs = try RunFacts.collect(baseline + candidate, options: options, progress: progress.update)
            progress.finish()
            if let stored {
                // Compared as the store keeps runs (the built-in rules' violations), both sides alike.
                runs = runs.map { run in
                    var facts = run
                    facts.violations = run.violations.filter { $0.rule.builtIn != nil }
                    return facts
                }
                runs.insert(contentsOf: stored, at: 0)
            }
            let baselineCount = stored?.count ?? baseline.count
            comparison = RunComparison(
                baseline: Array(runs.prefix(baselineCount)), candidate: Array(runs.dropFirst(baselineCount)), gate: gate)
        } catch {
            throw failure(error, writing: [])
        }
        if !gate.isEmpty && comparison.tooFewRunsToGate {
            printError("cannot gate on \(comparison.baseline.count) baseline and \(comparison.candidate.count) candidate "
                + "runs: repeated launches are noisy, give at least \(RunComparison.minimumRunsToGate) runs per side")
            throw ExitStatus.badInput.exit
        }
        // Every problem a reader recovered from is named; a run that lost data is bad input, and
        // a gate never passes it (compared all the same, up to its loss).
        var problems = ReadProblems()
        for run in comparison.baseline + comparison.candidate { problems.report(run.issues) }
        try writeDocument(comparison.rendered(format), to: output)
        try problems.finish()
        if comparison.failed { throw ExitStatus.checkFailed.exit }
    }

    /// The runs of `baseline` in the history store; one line and exit 2 when the store, the branch
    /// or its runs cannot serve (7 when the store stayed locked).
    private func historyRuns(_ baseline: HistoryBaseline, configuration: ProjectConfiguration?) throws -> [RunFacts] {
        let path = try store.resolve(configuration: configuration)
        do throws(HistoryBaselineError) {
            let history: HistoryStore
            do throws(HistoryStoreError) {
                history = try HistoryStore(path: path, access: .read, busyTimeout: store.wait)
            } catch {
                throw HistoryBaselineError(path: path, .store(error))
            }
            let found = try baseline.runs(in: history)
            printError("baseline: " + baseline.describe(found.builds, runs: found.runs.count) + " in \(path)")
            return found.runs
        } catch {
            if case .store(let error) = error.kind { throw failure(error) }
            printError(error.description)
            throw ExitStatus.badInput.exit
        }
    }

    /// The gate: each part from the command line, else the configuration file, else the default.
    /// A budget file's alpha and maximum regression give way to both.
    private func gate(configuration: ProjectConfiguration?) throws -> ComparisonGate {
        var gate = ComparisonGate()
        gate.failsOnMoreViolations = !(allowMoreViolations ?? configuration?.allowMoreViolations ?? false)
        do throws(BudgetError) {
            if let file = budgets ?? configuration?.budgetFile { try gate.read(file: file) }
            if let maxRegression {
                gate.maxRegression = try Budget.percentage(maxRegression)
            } else if let maxRegression = configuration?.maxRegression {
                gate.maxRegression = maxRegression
            }
            if budget.isEmpty {
                gate.budgets += configuration?.budgets ?? []
            } else {
                for text in budget { gate.budgets.append(try Budget(parsing: text)) }
            }
        } catch {
            printError(error.description)
            throw ExitStatus.badInput.exit
        }
        if let alpha {
            gate.alpha = alpha
        } else if let alpha = configuration?.alpha {
            gate.alpha = alpha
        }
        return gate
    }

    /// The names of diff's options and flags, as the parser knows them.
    static var optionNames: Set<String> {
        var names: Set<String> = ["-h", "--help"]
        for line in helpMessage(columns: 1000).split(separator: "\n") {
            for word in line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" }) where word.hasPrefix("-") {
                names.insert(String(word.prefix { $0 != "<" && $0 != "=" }))
            }
        }
        return names
    }

    /// The baseline and candidate paths: everything after `--` on the command line is a candidate
    /// (the parser hands every argument after `--` on as a positional, in order).
    private func sides() throws -> ([String], [String]) {
        let arguments = CommandLine.arguments
        if baseline != nil {
            // The baseline is the history: every path is a candidate, after '--' or not.
            if let separator = arguments.firstIndex(of: "--"), separator + 1 + paths.count != arguments.count {
                throw ValidationError("with --baseline history:..., give only candidate traces (after '--', nothing before it)")
            }
            guard !paths.isEmpty else { throw ValidationError("give the candidate traces to compare with the history") }
            return ([], paths)
        }
        if store.path != nil { throw ValidationError("--history is the store of --baseline history:BRANCH[:N]; give that too") }
        guard let separator = arguments.firstIndex(of: "--") else {
            throw ValidationError("separate the baseline from the candidate runs with '--': lifetrace diff BASELINE... -- CANDIDATE...")
        }
        let candidates = Array(arguments[(separator + 1)...])
        // After '--' the parser takes everything for a path: a word that looks like an option is
        // named as one, never read as a trace that does not exist.
        if let word = candidates.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            let name = String(word.prefix { $0 != "=" })
            let hint = "a trace path starting with '-' can be given as ./\(word)"
            if Self.optionNames.contains(name) {
                throw ValidationError("\(name) comes after '--', where only candidate traces go; put options before the baseline (\(hint))")
            }
            throw ValidationError("\(name): diff has no such option; \(hint)")
        }
        guard candidates.count <= paths.count else { throw ValidationError("cannot tell the two sides apart") }
        let baseline = Array(paths.dropLast(candidates.count))
        guard !baseline.isEmpty, !candidates.isEmpty else {
            throw ValidationError("give at least one baseline and one candidate trace: lifetrace diff BASELINE... -- CANDIDATE...")
        }
        return (baseline, candidates)
    }
}

extension RunComparison.Format: ExpressibleByArgument {}
