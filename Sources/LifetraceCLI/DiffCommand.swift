import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRunner

/// `lifetrace diff`: compares two sets of runs and checks budgets.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare baseline runs with candidate runs, metric by metric, and check budgets.",
        usage: "lifetrace diff [<options>] <baseline> ... -- <candidate> ...",
        discussion: """
            Each side is trace files or directories of traces. Every metric (launch duration and \
            main-thread busy time by launch kind, stalls per lifetime, stall duration, violations \
            per trace) is compared with a two-sided Mann-Whitney U test. Exit status: 1 when the \
            candidates have more violations per run than the baseline (unless \
            --allow-more-violations), when a candidate statistic is over an absolute budget, or \
            when a median rose by more than --max-regression in a statistically significant \
            regression; 0 otherwise; 2 for bad input or usage. Budgets and --max-regression need at \
            least two runs per side. See docs/REPORTS.md.
            """)

    /// The output formats.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, markdown
    }

    @Argument(help: "Baseline traces, then '--', then candidate traces.")
    var paths: [String] = []

    @Option(name: .long, help: "Output format: text, json or markdown.")
    var format: Format = .text

    @Option(name: .long, help: ArgumentHelp("Largest allowed rise of a metric's median (e.g. 10%).", valueName: "percent"))
    var maxRegression: String?

    @Option(name: .long, help: ArgumentHelp("Absolute budget on the candidates, e.g. launch.cold.p50=400ms (repeatable).", valueName: "metric.stat=limit"))
    var budget: [String] = []

    @Option(name: .long, help: ArgumentHelp("A JSON budget file (see docs/REPORTS.md).", valueName: "file"))
    var budgets: String?

    @Option(name: .long, help: "Significance level for a regression to count (default 0.05).")
    var alpha: Double?

    @Flag(name: .long, help: "Do not fail when the candidates have more violations per run than the baseline.")
    var allowMoreViolations = false

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let options = try analysis.options()
        let (baselinePaths, candidatePaths) = try sides()
        var gate = ComparisonGate(failsOnMoreViolations: !allowMoreViolations)
        do throws(BudgetError) {
            if let maxRegression { gate.maxRegression = try Budget.percentage(maxRegression) }
            if let budgets { try gate.read(file: budgets) }
            for text in budget { gate.budgets.append(try Budget(parsing: text)) }
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        if let alpha {
            guard alpha > 0 && alpha < 1 else {
                printError("--alpha must be between 0 and 1, not \(alpha)")
                throw ExitCode(2)
            }
            gate.alpha = alpha
        }
        let comparison: RunComparison
        do throws(TraceError) {
            let baseline = try TraceInputs.expand(baselinePaths)
            let candidate = try TraceInputs.expand(candidatePaths)
            let progress = ProgressLine(total: baseline.count + candidate.count)
            let runs = try RunFacts.collect(baseline + candidate, options: options, progress: progress.update)
            progress.finish()
            comparison = RunComparison(
                baseline: Array(runs.prefix(baseline.count)), candidate: Array(runs.dropFirst(baseline.count)), gate: gate)
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
        if !gate.isEmpty && comparison.tooFewRunsToGate {
            printError("cannot gate on \(comparison.baseline.count) baseline and \(comparison.candidate.count) candidate "
                + "runs: repeated launches are noisy, give at least \(RunComparison.minimumRunsToGate) runs per side")
            throw ExitCode(2)
        }
        switch format {
        case .text: try StandardOutput.print(comparison.text)
        case .json: try StandardOutput.print(comparison.json)
        case .markdown: try StandardOutput.print(comparison.markdown)
        }
        if comparison.failed { throw ExitCode(1) }
    }

    /// The baseline and candidate paths: everything after `--` on the command line is a candidate
    /// (the parser hands every argument after `--` on as a positional, in order).
    private func sides() throws -> ([String], [String]) {
        let arguments = CommandLine.arguments
        guard let separator = arguments.firstIndex(of: "--") else {
            throw ValidationError("separate the baseline from the candidate runs with '--': lifetrace diff BASELINE... -- CANDIDATE...")
        }
        let candidates = Array(arguments[(separator + 1)...])
        if let option = candidates.first(where: { $0.hasPrefix("--") }) {
            throw ValidationError("\(option) comes after '--', where only candidate traces go; put options before the baseline")
        }
        guard candidates.count <= paths.count else { throw ValidationError("cannot tell the two sides apart") }
        let baseline = Array(paths.dropLast(candidates.count))
        guard !baseline.isEmpty, !candidates.isEmpty else {
            throw ValidationError("give at least one baseline and one candidate trace: lifetrace diff BASELINE... -- CANDIDATE...")
        }
        return (baseline, candidates)
    }
}
