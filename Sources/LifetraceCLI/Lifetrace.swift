import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports

@main
struct Lifetrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifetrace",
        abstract: "Record, inspect and analyse traces of the iOS app life cycle.",
        discussion: """
            Exit status, the same in every command (docs/CLI.md): \
            \(ExitStatus.allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ")). \
            'lifetrace' alone prints this help on standard error and exits 2. The commands that \
            analyse traces read the project's \(ProjectConfiguration.fileName), found from the \
            working directory upward (docs/CLI.md).
            """,
        version: "0.1.0",
        subcommands: [
            ImportCommand.self, DumpCommand.self, InfoCommand.self, SynthCommand.self, RecordCommand.self, CheckCommand.self, ReportCommand.self, DiffCommand.self,
            ReplayCommand.self, ExportCommand.self, RecoverCommand.self, SymbolicateCommand.self, HistoryCommand.self,
        ]
    )

    func run() throws {
        // A bare `lifetrace` is a usage error: the help goes to standard error, and the status
        // says nothing was done.
        writeToStandardError(Self.helpMessage() + "\n")
        throw ExitStatus.badInput.exit
    }

    /// The arguments with the spellings kept for scripts turned into today's: `lifetrace
    /// --list-rules` is `lifetrace check --list-rules`.
    static func canonical(_ arguments: [String]) -> [String] {
        arguments.first == "--list-rules" ? ["check"] + arguments : arguments
    }

    /// A usage message on one line. For an enumerated option given a value it does not take, the
    /// parser lists the values one per line past five; they are listed as the help lists them,
    /// `(values: text, json, …)`, from the same `allValueStrings`.
    static func oneLine(_ message: String) -> String {
        let marker = ". Please provide one of the following:\n"
        guard let range = message.range(of: marker) else { return message }
        let values = message[range.upperBound...].split(separator: "\n").map {
            $0.trimmingPrefix(while: { $0 == " " }).trimmingPrefix("- ")
        }
        return message[..<range.lowerBound] + " (values: " + values.joined(separator: ", ") + ")"
    }

    /// Runs the command; usage errors exit with 2, the documented code for bad input or usage
    /// (``ExitStatus/badInput``; ArgumentParser's default is 64). SIGINT, SIGTERM and SIGHUP remove staged outputs
    /// before the process dies (``OutputCleanup``).
    static func main() {
        OutputCleanup.install()
        StandardOutput.ignoreClosedPipes()
        do {
            var command = try parseAsRoot(canonical(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            // Help and the version go to standard output as every command's output does: a
            // write that fails is one line and exit status 7, never a silent success.
            if exitCode(for: error) == .success {
                let text = fullMessage(for: error)
                do {
                    if !text.isEmpty { try StandardOutput.print(text + "\n") }
                } catch {
                    exit(withError: error)
                }
                exit(withError: ExitCode.success)
            }
            let code = exitCode(for: error)
            if code == .validationFailure {
                printError(oneLine(message(for: error)))
                exit(withError: ExitStatus.badInput.exit)
            }
            exit(withError: error)
        }
    }
}
