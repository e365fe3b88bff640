import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceZstd

/// `lifetrace replay`: every event with both views' states, to debug a trace.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Print each event with the system and app views before and after it.",
        discussion: """
            Times are shown since the lifetime's launch. --from and --to select events by time since \
            the trace's first event (for example --from 1.5s --to 3s); violations are printed under \
            the event that revealed them. Exit status: 0 printed (violations do not change it), 2 bad \
            input or usage.
            """)

    @Argument(help: "The trace (binary or JSONL; '-' for standard input).")
    var path: String

    @Option(name: .long, help: "First time to show, since the first event (e.g. 1.5s).")
    var from: String?

    @Option(name: .long, help: "Last time to show, since the first event (e.g. 3s).")
    var to: String?

    @OptionGroup var analysis: AnalysisArguments

    func run() throws {
        let options = try analysis.options()
        let range: (from: Int64, to: Int64)
        do throws(DurationError) {
            range = (try from.map(DurationParser.nanoseconds) ?? 0, try to.map(DurationParser.nanoseconds) ?? .max)
        } catch {
            throw ValidationError(error.description)
        }
        let output = StandardOutput()
        // Each line goes through the terminal escaper: a trace's names cannot forge lines.
        func show(_ line: String) throws { try output.line(TerminalText.escaped(line)) }
        do {
            var source = try TraceFile.open(path: path)
            var analyzer = LifecycleAnalyzer(options: options)
            var origin: Int64?
            while let event = try source.next() {
                let step = analyzer.step(event, symbols: source.symbols)
                let offset = event.timestamp - (origin ?? event.timestamp)
                if origin == nil { origin = event.timestamp }
                guard offset >= range.from && offset <= range.to else { continue }
                try show(step.line)
                for violation in step.violations {
                    try show("    \(violation.severity.rawValue)[\(violation.rule.id)]: \(violation.message)")
                }
            }
            let found = analyzer.violations.count
            _ = analyzer.finish(symbols: source.symbols)
            if analyzer.violations.count > found {
                try show("at the end of the trace:")
                for violation in analyzer.violations[found...] {
                    try show("    \(violation.severity.rawValue)[\(violation.rule.id)] \(violation.when): \(violation.message)")
                }
            }
            let omitted = analyzer.omittedViolations.values.reduce(0, +)
            if omitted > 0 {
                try show("\(omitted) more violations were found and not shown: an analysis keeps the first "
                    + "\(options.violationLimit) of a trace in full")
            }
            try output.finish()
        } catch let error as TraceError {
            printError(error.description)
            throw ExitCode(2)
        }
    }
}
