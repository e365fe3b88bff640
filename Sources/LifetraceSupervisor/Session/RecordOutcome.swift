/// How a recorded run ended, and the exit code `lifetrace record` reports it with.
public enum RecordOutcome: Sendable, Hashable, CustomStringConvertible {
    /// Every step was played.
    case completed
    /// The app exited or died of a signal the scenario did not cause, during `step`.
    case appEnded(step: String, code: Int32?, signal: Int32?)
    /// The app did not answer a command in time during `step`; it was killed.
    case appUnresponsive(step: String, command: String)
    /// The app refused a command (for example a scene it does not have) during `step`.
    case appRefused(step: String, message: String)

    /// The exit code of `lifetrace record`: 0 completed, 4 the app ended unexpectedly, 5 the app
    /// stopped responding, 6 the app refused a command (see `docs/RECORDING.md`).
    public var exitCode: Int32 {
        switch self {
        case .completed: 0
        case .appEnded: 4
        case .appUnresponsive: 5
        case .appRefused: 6
        }
    }

    /// One line saying how the run ended.
    public var description: String {
        switch self {
        case .completed:
            return "scenario completed"
        case .appEnded(let step, let code, let signal):
            let how = signal.map { "was killed by signal \($0)" } ?? "exited with code \(code ?? 0)"
            return "the app \(how) during step `\(step)`"
        case .appUnresponsive(let step, let command):
            return "the app did not answer `\(command)` in time during step `\(step)` and was killed"
        case .appRefused(let step, let message):
            return "the app refused a command during step `\(step)`: \(message)"
        }
    }
}
