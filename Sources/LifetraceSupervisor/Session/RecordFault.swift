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

    /// The scenario a run needs for the fault to show: `default` (the scenario `record` plays
    /// without `--scenario`), else the sample scenario's name under `Samples/scenarios/`.
    public var scenario: String {
        switch self {
        case .host(.callbackAfterTerminate), .terminateWhileSuspended: "terminate"
        case .host(.sceneBeforeConnect): "scenes"
        default: "default"
        }
    }

    /// The analyzer rule that reports the fault.
    public var rule: String {
        switch self {
        case .host(.skipResignActive): "resign-before-background"
        case .host(.skipWillFinishLaunching): "launch-sequence"
        case .host(.skipEnterForeground): "foreground-before-active"
        case .host(.doubleActivate): "balanced-activation"
        case .host(.doubleEnterForeground): "legal-transition"
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
