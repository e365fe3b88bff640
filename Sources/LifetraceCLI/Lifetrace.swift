import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports

@main
struct Lifetrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifetrace",
        abstract: "Record, inspect and analyse traces of the iOS app life cycle.",
        discussion: """
            Exit status of every command: 0 ok, 1 a check failed ('check', 'diff'), 2 bad input or \
            usage; 'record' and 'export' document more codes in their help.
            """,
        version: "0.1.0",
        subcommands: [
            ImportCommand.self, DumpCommand.self, InfoCommand.self, SynthCommand.self, RecordCommand.self, CheckCommand.self, ReportCommand.self, DiffCommand.self,
            ReplayCommand.self, ExportCommand.self, RecoverCommand.self, SymbolicateCommand.self,
        ]
    )

    @Flag(name: .customLong("list-rules"), help: "List the built-in rules: id, severity, when each is violated, and the document it rests on.")
    var listRules = false

    func run() throws {
        guard listRules else { throw CleanExit.helpRequest(Self.self) }
        try StandardOutput.print(RuleCatalog().text)
    }

    /// Runs the command; usage errors exit with 2, the documented code for bad input or usage
    /// (ArgumentParser's default is 64). SIGINT, SIGTERM and SIGHUP remove staged outputs
    /// before the process dies (``OutputCleanup``).
    static func main() {
        OutputCleanup.install()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                printError(message(for: error))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
