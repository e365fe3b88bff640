import LifetraceFormat

/// What every command that reads a trace and writes what it read says of the problems the reader
/// recovered from (docs/CLI.md, "Damaged traces"): each on one line on standard error, the file
/// and the place first. A trace that lost data (cut inside a frame, a chunk or bytes skipped,
/// data after its end record, sealed with data missing) is damaged input, whatever was written
/// from it: the command ends with exit status 2 once its output is written, as `check` does. An
/// unclosed end alone (``TraceError/isNotClosed``: an app killed before `lifetrace recover`)
/// is a warning and changes nothing.
struct ReadProblems {
    /// Whether a trace read so far lost data.
    private(set) var lostData = false

    /// Prints `issues`, those of one trace, and remembers whether they lost data.
    mutating func report(_ issues: [TraceError]) {
        for issue in issues { printError(issue.isNotClosed ? "warning: \(issue.description)" : issue.description) }
        lostData = lostData || issues.losesData
    }

    /// Prints `line`, a loss found past the reader (records a reader's limits kept out of a
    /// copy), and remembers it as lost data.
    mutating func lost(_ line: String) {
        printError(line)
        lostData = true
    }

    /// Ends the command with exit status 2 when a trace lost data.
    func finish() throws {
        if lostData { throw ExitStatus.badInput.exit }
    }

    /// Prints `issues` and ends the command with exit status 2 when they lost data.
    static func finish(_ issues: [TraceError]) throws {
        var problems = ReadProblems()
        problems.report(issues)
        try problems.finish()
    }
}
