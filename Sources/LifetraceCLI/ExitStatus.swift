import ArgumentParser
import LifetraceFormat

/// The exit statuses of every command: one code per kind of outcome, the same in every command
/// that can meet it (docs/CLI.md, "Exit status", lists them; a test compares the two).
enum ExitStatus: Int32, CaseIterable, Sendable {
    /// The command did what it was asked; a check passed.
    case ok = 0
    /// A check failed: `check` found an error (or a warning, with `--strict`) or, with
    /// `--history`, a change the build starts; `diff` a regression or a broken budget.
    case checkFailed = 1
    /// Bad input or usage: an argument, an option's value, the configuration file, a trace, a
    /// rule, budget or scenario file that cannot be read or used (one line on standard error names
    /// the file and where in it). A bare `lifetrace` is a usage error too.
    case badInput = 2
    /// `recover` sealed the trace with data missing (each loss on a line of its own).
    case dataMissing = 3
    /// `record`: the app crashed or exited before the scenario ended.
    case appEnded = 4
    /// `record`: the app stopped answering and was killed.
    case appUnresponsive = 5
    /// `record`: the app refused a command.
    case appRefused = 6
    /// The output could not be written: a file, a directory or standard output (a full disk, a
    /// closed pipe, a directory that does not exist).
    case outputFailed = 7
    /// `record`: the app could not be started.
    case appNotStarted = 8

    /// What the status means, in a few words (the root command's help lists them).
    var meaning: String {
        switch self {
        case .ok: "done (a check passed)"
        case .checkFailed: "a check failed ('check', 'diff')"
        case .badInput: "bad input or usage"
        case .dataMissing: "sealed with data missing ('recover')"
        case .appEnded: "the app crashed or exited before the scenario ended ('record')"
        case .appUnresponsive: "the app stopped answering and was killed ('record')"
        case .appRefused: "the app refused a command ('record')"
        case .outputFailed: "the output could not be written"
        case .appNotStarted: "the app could not be started ('record')"
        }
    }

    /// The error that ends the process with this status.
    var exit: ExitCode { ExitCode(rawValue) }

    /// The status for `error`, met while a command reads its inputs and writes `outputs` (paths
    /// as given, `-` for standard output): an I/O failure on one of the outputs is
    /// ``outputFailed``, anything else ``badInput``.
    static func of(_ error: TraceError, writing outputs: [String]) -> ExitStatus {
        let output = outputs.contains(error.file) || error.file == StandardOutput.name
        return error.kind == .io && output ? .outputFailed : .badInput
    }
}

/// Prints `error` on standard error and returns the exit that goes with it (``ExitStatus/of(_:writing:)``).
func failure(_ error: TraceError, writing outputs: [String]) -> ExitCode {
    let status = ExitStatus.of(error, writing: outputs)
    // A reader that stopped early (`check DIR | head -1`) is ordinary on a command line: the
    // status says the output was not all written, and no line is added to say so.
    let quiet = status == .outputFailed && StandardOutput.named(error.file) == StandardOutput.name && StandardOutput.readerHasGone
    if !quiet { printError(status == .outputFailed ? outputFailure(error).description : error.description) }
    return status.exit
}

/// Refuses an output that is also one of `inputs` (a usage error): prints why and exits 2.
func refuseOverwriting(_ inputs: [String], with output: String) throws {
    do throws(TraceError) {
        try StagedOutputFile.refuseOverwriting(inputs, with: output)
    } catch {
        printError(error.description)
        throw ExitStatus.badInput.exit
    }
}
