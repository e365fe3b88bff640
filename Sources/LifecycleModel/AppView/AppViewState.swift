import LifetraceFormat

/// The app's state as its app-delegate callbacks tell it (the app view).
///
/// The app view never sees Suspended: "the system moves apps to this state automatically and does
/// not notify them before doing so" (000, Table 2-3). Only the system view knows about suspension.
public enum AppViewState: UInt8, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    /// In the foreground, not receiving events; where a foreground launch starts.
    case inactive = 1
    /// In the foreground and receiving events.
    case active = 2
    /// In the background and executing code; where a background launch starts.
    case background = 3
    /// willTerminate was delivered: the process is about to end.
    case terminating = 5

    /// The state's name, as used in messages and reports.
    public var name: String {
        switch self {
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .terminating: "terminating"
        }
    }

    /// The state's name.
    public var description: String { name }

    /// The app view's state right after `launch`: Inactive, or Background for a background launch.
    ///
    /// "An app being launched directly into the background enters this state instead of the
    /// inactive state" (000, Table 2-3).
    public static func atLaunch(background: Bool) -> AppViewState {
        background ? .background : .inactive
    }

    /// The system-view state with the same meaning (`terminating` maps to Background, the only
    /// state willTerminate is delivered in).
    public var lifecycleState: LifecycleState {
        switch self {
        case .inactive: .inactive
        case .active: .active
        case .background, .terminating: .background
        }
    }

    /// The effective app view, what the app's callbacks say of the whole app: terminating once
    /// willTerminate is delivered (`app`); otherwise, in a scene-based app, the most active
    /// connected scene (Active over Inactive over Background: the app is in the foreground while
    /// any of its scenes is, 001); otherwise the app delegate's view.
    @inlinable
    public static func effective<Scenes: Sequence>(app: AppViewState?, scenes: Scenes) -> AppViewState?
    where Scenes.Element == SceneViewState? {
        if app == .terminating { return .terminating }
        var best: AppViewState?
        for scene in scenes {
            let state: AppViewState
            switch scene {
            case .active: state = .active
            case .inactive: state = .inactive
            case .background: state = .background
            case .unattached, nil: continue
            }
            if best == nil || state.rank > best!.rank { best = state }
        }
        return best ?? app
    }

    /// How active the state is, for the effective view.
    @usableFromInline
    var rank: Int {
        switch self {
        case .active: 3
        case .inactive: 2
        case .background: 1
        case .terminating: 0
        }
    }

    /// Whether the app is in the foreground (Inactive or Active).
    public var isForeground: Bool { self == .inactive || self == .active }
}
