import ArgumentParser
import Foundation

import LifetraceFormat
import LifetraceOutput

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
        if !readerHasGone { printError(outputFailure(error).description) }
        return ExitStatus.outputFailed.exit
    }

    /// Whether standard output is a pipe or socket whose reader has closed it (`| head -1`).
    /// SIGPIPE is ignored (``ignoreClosedPipes()``), so a write there fails with EPIPE, and
    /// the descriptor then polls as an error or a hang-up; asked of the descriptor, not of
    /// `errno`, which anything run since the write may have changed.
    static var readerHasGone: Bool {
        var status = stat()
        guard fstat(1, &status) == 0, status.st_mode & S_IFMT == S_IFIFO || status.st_mode & S_IFMT == S_IFSOCK else { return false }
        var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
        return poll(&descriptor, 1, 0) == 1 && descriptor.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Makes a write to a closed pipe an error (EPIPE) instead of the signal that kills the
    /// process without a word: every command then stops as docs/CLI.md says, exit status 7,
    /// its staged files removed. The tools it starts get the default back (`ToolProcess`, the
    /// supervisor's app), as an ignored signal would otherwise pass on through `exec`.
    static func ignoreClosedPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// `path` as messages name an output: `-` is standard output.
    static func named(_ path: String) -> String { path == "-" ? name : path }
}

/// `error`, met writing an output, as every command words it: the output named by its path, and
/// `-` as standard output (`standard output: cannot write: No space left on device`).
func outputFailure(_ error: TraceError) -> TraceError {
    var error = error
    error.file = StandardOutput.named(error.file)
    return error
}

/// Writes a whole document (a check's or a comparison's) to `output`, a file written whole or not
/// at all, or standard output when it is nil or `-`; a failure is one line and exit status 7.
func writeDocument(_ document: String, to output: String?) throws {
    guard let output, output != "-" else {
        try StandardOutput.print(document)
        return
    }
    do throws(TraceError) {
        let file = try StagedOutputFile(path: output)
        try file.write(document)
        try file.commit()
    } catch {
        throw failure(error, writing: [output])
    }
}
