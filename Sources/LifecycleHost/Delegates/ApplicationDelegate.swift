import Foundation

/// The app's delegate, mirroring `UIApplicationDelegate` with the seeds' callback names.
///
/// The host calls it on the main thread only, as UIKit does.
///
/// Every method has a default that does nothing; the host records each call (begin and end on
/// the main thread) whether or not the app implements it.
public protocol ApplicationDelegate: AnyObject {
    /// Creates the delegate; the host makes one at launch, as `UIApplicationMain` does.
    init()
    /// The app's first chance to run code at launch.
    func willFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool
    /// The last initialisation before the app is shown (or runs in the background).
    func didFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool
    /// The app is about to become the foreground app.
    func didBecomeActive(_ application: HostApplication)
    /// The app is leaving the foreground (interruption, app switcher, home).
    func willResignActive(_ application: HostApplication)
    /// The app runs in the background and may be suspended at any time.
    func didEnterBackground(_ application: HostApplication)
    /// The app is moving from the background to the foreground, not yet active.
    func willEnterForeground(_ application: HostApplication)
    /// The app is being terminated; never called while it is suspended.
    func willTerminate(_ application: HostApplication)
    /// The system is low on memory.
    func didReceiveMemoryWarning(_ application: HostApplication)
    /// The app is asked to open `url`.
    func open(_ application: HostApplication, url: URL) -> Bool
}

extension ApplicationDelegate {
    /// Does nothing and lets the launch go on.
    public func willFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool { true }
    /// Does nothing and lets the launch go on.
    public func didFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool { true }
    /// Does nothing.
    public func didBecomeActive(_ application: HostApplication) {}
    /// Does nothing.
    public func willResignActive(_ application: HostApplication) {}
    /// Does nothing.
    public func didEnterBackground(_ application: HostApplication) {}
    /// Does nothing.
    public func willEnterForeground(_ application: HostApplication) {}
    /// Does nothing.
    public func willTerminate(_ application: HostApplication) {}
    /// Does nothing.
    public func didReceiveMemoryWarning(_ application: HostApplication) {}
    /// Declines the URL.
    public func open(_ application: HostApplication, url: URL) -> Bool { false }
}

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

/// What the app was launched for.
public struct LaunchOptions: Sendable, Hashable {
    /// Why the app was launched (`user`, `location`, `url`, `fetch`, ...).
    public var reason: String
    /// Whether the app was launched straight into the background.
    public var background: Bool
    /// The URL the app was launched to open, if any.
    public var url: URL?

    /// Options for a launch.
    public init(reason: String = "user", background: Bool = false, url: URL? = nil) {
        self.reason = reason
        self.background = background
        self.url = url
    }
}
