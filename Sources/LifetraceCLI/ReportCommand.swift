import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat

/// `lifetrace report`: the full analysis of one trace.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Print the full analysis of a trace: launch, stalls, violations, states, ending.")

    @Argument(help: "The trace (binary or JSONL; '-' for standard input).")
    var path: String

    @Option(name: .long, help: "Output format: text, json or markdown.")
    var format: TraceReport.Format = .text

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let options = try analysis.options()
        do throws(TraceError) {
            let result = try TraceInputs.analyze(path: path, options: options)
            print(TraceReport(analysis: result, options: options).rendered(format), terminator: "")
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
    }
}
