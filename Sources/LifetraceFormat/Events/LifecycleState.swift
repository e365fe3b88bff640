/// One of the five execution states of an iOS app (App Programming Guide, Table 2-3).
///
/// The raw values are the binary codes of format v1.
public enum LifecycleState: UInt8, Sendable, CaseIterable, Hashable {
    /// The app has not been launched, or was running but was terminated by the system.
    case notRunning = 0
    /// In the foreground but not receiving events; usually a brief transition.
    case inactive = 1
    /// In the foreground and receiving events.
    case active = 2
    /// In the background and executing code.
    case background = 3
    /// In the background and executing no code; the system moves an app here without notice.
    case suspended = 4

    /// The name of the state in the text form (`state.to`).
    public var name: String {
        switch self {
        case .notRunning: "notRunning"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .suspended: "suspended"
        }
    }

    /// The state named `name` in the text form, or nil.
    public init?(name: String) {
        guard let state = LifecycleState.allCases.first(where: { $0.name == name }) else { return nil }
        self = state
    }
}
