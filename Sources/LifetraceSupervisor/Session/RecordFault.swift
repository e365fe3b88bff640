import LifecycleHost

/// A misbehaviour injected into a recorded run, so that the analyzer's rules can be tested on
/// real processes. Host faults make the app host deliver callbacks wrongly; system faults make
/// the supervisor play the system wrongly. Each names the rule that must catch it.
public enum RecordFault: Sendable, Hashable, CaseIterable {
    /// A fault of the app host.
    case host(HostFault)
    /// willTerminate is delivered to an app the trace shows suspended.
    case terminateWhileSuspended
    /// The app is marked suspended but not stopped, and gets a memory warning while "suspended".
    case runWhileSuspended
    /// The system view goes from Active straight to Background (no `state inactive`).
    case skipInactiveState

    /// Every fault.
    public static var allCases: [RecordFault] {
        HostFault.allCases.map(RecordFault.host) + [.terminateWhileSuspended, .runWhileSuspended, .skipInactiveState]
    }

    /// The fault's name on the command line.
    public var name: String {
        switch self {
        case .host(let fault): fault.rawValue
        case .terminateWhileSuspended: "terminate-while-suspended"
        case .runWhileSuspended: "run-while-suspended"
        case .skipInactiveState: "skip-inactive-state"
        }
    }

    /// The fault named `name`, or nil.
    public init?(name: String) {
        guard let fault = RecordFault.allCases.first(where: { $0.name == name }) else { return nil }
        self = fault
    }

    /// The analyzer rule that reports the fault.
    public var rule: String {
        switch self {
        case .host(.skipResignActive): "resign-before-background"
        case .host(.skipWillFinishLaunching): "launch-sequence"
        case .host(.skipEnterForeground): "foreground-before-active"
        case .host(.doubleActivate): "balanced-activation"
        case .host(.doubleEnterBackground): "legal-transition"
        case .host(.callbackOffMain): "main-thread-callbacks"
        case .host(.callbackAfterTerminate): "nothing-after-terminate"
        case .host(.unbalancedCallbackEnd): "callback-nesting"
        case .host(.sceneBeforeConnect): "scene-connection"
        case .terminateWhileSuspended: "no-terminate-while-suspended"
        case .runWhileSuspended: "silent-while-suspended"
        case .skipInactiveState: "resign-before-background"
        }
    }
}

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
