import ArgumentParser
import Foundation

import LifetraceFormat

/// Prints one line on standard error, prefixed with the tool's name; control characters from
/// file names or trace contents are escaped, so the message stays one line.
func printError(_ message: String) {
    writeToStandardError("lifetrace: \(TerminalText.escaped(message))\n")
}

/// Writes `text` to standard error as far as it can (``StandardError/write(_:)``).
func writeToStandardError(_ text: String) {
    StandardError.write(text)
}

/// Standard output for what a command prints, buffered, with write errors reported instead of
/// ignored (`print` drops them): a full disk or a closed descriptor ends the command with one
/// line on standard error and exit status 7 (``ExitStatus/outputFailed``), whatever it had found.
final class StandardOutput {
    /// The name errors give standard output.
    static let name = "standard output"

    private let file = StagedOutputFile(fileDescriptor: 1, name: StandardOutput.name)

    /// Appends `text`; it goes out when the buffer fills and at ``finish()``.
    func write(_ text: String) throws {
        do throws(TraceError) { try file.write(text) } catch { throw Self.failed(error) }
    }

    /// Appends `line` and a newline.
    func line(_ line: String) throws { try write(line + "\n") }

    /// Writes out what is buffered.
    func finish() throws {
        do throws(TraceError) { try file.flush() } catch { throw Self.failed(error) }
    }

    /// Writes `text` to standard output at once.
    static func print(_ text: String) throws {
        let output = StandardOutput()
        try output.write(text)
        try output.finish()
    }

    private static func failed(_ error: TraceError) -> ExitCode {
        printError("cannot write to standard output: \(error.message)")
        return ExitStatus.outputFailed.exit
    }
}
