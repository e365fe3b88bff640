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
