import ArgumentParser

@main
struct Lifetrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifetrace",
        abstract: "Record, inspect and analyse traces of the iOS app life cycle.",
        version: "0.1.0",
        subcommands: [
            ImportCommand.self, DumpCommand.self, InfoCommand.self, SynthCommand.self, RecordCommand.self, CheckCommand.self, ReportCommand.self, DiffCommand.self,
            ReplayCommand.self, ExportCommand.self, RecoverCommand.self,
        ]
    )

    /// Runs the command; usage errors exit with 2, the documented code for bad input or usage
    /// (ArgumentParser's default is 64).
    static func main() {
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
