/// A scene's state as its scene-delegate callbacks tell it (the scene's app view).
///
/// "Each scene has its own life cycle (Unattached, Foreground Inactive, Foreground Active,
/// Background, Suspended) delivered to UISceneDelegate" (001). As for the app, suspension is never
/// delivered; only the scene's system view (`state` events with `scene`) shows it.
public enum SceneViewState: UInt8, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    /// Not connected: before sceneWillConnect or after sceneDidDisconnect.
    case unattached = 0
    /// In the foreground, not receiving events.
    case inactive = 1
    /// In the foreground and receiving events.
    case active = 2
    /// In the background; where sceneWillConnect attaches a scene.
    case background = 3

    /// The state's name, as used in messages and reports.
    public var name: String {
        switch self {
        case .unattached: "unattached"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        }
    }

    /// The state's name.
    public var description: String { name }

    /// Whether the scene is connected.
    @inlinable
    public var isConnected: Bool { self != .unattached }
}
