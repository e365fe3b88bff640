import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports
import LifetraceZstd

/// `lifetrace replay`: every event with both views' states, to debug a trace.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Print each event with the system and app views before and after it.",
        discussion: """
            Times are shown since the trace's first event, as every command shows a moment, and \
            --from and --to select events by that time, written either way (--from 1.5s, or as \
            printed: --from '+1.500 s', --to '-0.003 s'); violations are printed under the event \
            that revealed them (a lifetime's stalls, hangs among them, are judged as it ends: \
            under its exit, or at the end of the trace), and a violation revealed after --to whose \
            moment is in the window is printed after the window's events. Exit status: 0 printed (violations do not \
            change it), 2 bad input or usage, or a trace that lost data (cut inside a frame, data \
            skipped: its events up to the loss are printed, each problem is named on standard \
            error), 7 the output could not be written (docs/CLI.md).
            """)

    @Argument(help: "The trace (binary or JSONL; '-' for standard input).")
    var path: String

    @Option(name: .long, help: "First time to show, since the first event (e.g. 1.5s or '+1.500 s').", transform: Self.time)
    var from: DurationArgument?

    @Option(name: .long, help: "Last time to show, since the first event (e.g. 3s or '+3.000 s').", transform: Self.time)
    var to: DurationArgument?

    @OptionGroup var analysis: AnalysisArguments

    func validate() throws {
        if let from, let to, to.nanoseconds < from.nanoseconds {
            throw ValidationError(
                "--to \(to) is before --from \(from): no event can be shown; give a --to at or after --from")
        }
    }

    /// A moment as every command prints it (`+1.500 s`, `-0.003 s`) or as a duration since the
    /// first event (`1.5s`): ``TraceClock/sinceStart(parsing:)``.
    static func time(_ text: String) throws -> DurationArgument {
        try DurationArgument.parseMoment(text)
    }

    func run() throws {
        let options = try analysis.options()
        let output = StandardOutput()
        let problems: [TraceError]
        do {
            problems = try ReplayTranscript.write(
                path: path, options: options, from: from?.nanoseconds ?? .min, to: to?.nanoseconds ?? .max, show: output.line)
            try output.finish()
        } catch let error as TraceError {
            printError(error.description)
            throw ExitStatus.badInput.exit
        }
        // Shown up to the loss; a trace that lost data is still bad input.
        try ReadProblems.finish(problems)
    }
}
