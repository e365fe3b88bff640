/// A scene's delegate, mirroring `UISceneDelegate` with the seeds' callback names.
public protocol SceneDelegate: AnyObject {
    /// Creates the delegate; the host makes one per connected scene.
    init()
    /// The scene is attached to the app (in the background).
    func sceneWillConnect(_ scene: HostScene)
    /// The scene was released.
    func sceneDidDisconnect(_ scene: HostScene)
    /// The scene is about to come to the foreground.
    func sceneWillEnterForeground(_ scene: HostScene)
    /// The scene is active and receiving events.
    func sceneDidBecomeActive(_ scene: HostScene)
    /// The scene is leaving the active state.
    func sceneWillResignActive(_ scene: HostScene)
    /// The scene runs in the background.
    func sceneDidEnterBackground(_ scene: HostScene)
}

extension SceneDelegate {
    /// Does nothing.
    public func sceneWillConnect(_ scene: HostScene) {}
    /// Does nothing.
    public func sceneDidDisconnect(_ scene: HostScene) {}
    /// Does nothing.
    public func sceneWillEnterForeground(_ scene: HostScene) {}
    /// Does nothing.
    public func sceneDidBecomeActive(_ scene: HostScene) {}
    /// Does nothing.
    public func sceneWillResignActive(_ scene: HostScene) {}
    /// Does nothing.
    public func sceneDidEnterBackground(_ scene: HostScene) {}
}

/// A scene the host connected: its name and delegate.
public final class HostScene: @unchecked Sendable {
    /// The scene's name, as recorded in its events' `scene` field.
    public let name: String
    /// The scene's delegate.
    public let delegate: any SceneDelegate

    init(name: String, delegate: any SceneDelegate) {
        self.name = name
        self.delegate = delegate
    }
}
