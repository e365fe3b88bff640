import Foundation
import LifetraceFormat

/// What a delegate proxy does, decided here so that Linux tests exercise it: which Objective-C
/// selectors are lifecycle callbacks, how a forwarded call is recorded (its real begin and end),
/// the launch pair, and which notifications stop being recorded once the proxy records their
/// callback. The UIKit proxy (`UIKitDelegateProxy`) only forwards calls here.
extension LifecycleCallbacks {
    /// The selectors of `UIApplicationDelegate` and `UISceneDelegate` that are recorded
    /// callbacks, and the callback each is. Every other selector goes to the app's delegate
    /// unrecorded.
    public static let delegateSelectors: [String: CallbackName] = [
        "application:willFinishLaunchingWithOptions:": .willFinishLaunching,
        "application:didFinishLaunchingWithOptions:": .didFinishLaunching,
        "applicationDidBecomeActive:": .didBecomeActive,
        "applicationWillResignActive:": .willResignActive,
        "applicationDidEnterBackground:": .didEnterBackground,
        "applicationWillEnterForeground:": .willEnterForeground,
        "applicationWillTerminate:": .willTerminate,
        "applicationDidReceiveMemoryWarning:": .didReceiveMemoryWarning,
        "applicationSignificantTimeChange:": .significantTimeChange,
        "applicationProtectedDataWillBecomeUnavailable:": .protectedDataWillBecomeUnavailable,
        "applicationProtectedDataDidBecomeAvailable:": .protectedDataDidBecomeAvailable,
        "application:openURL:options:": .openURL,
        "application:continueUserActivity:restorationHandler:": .continueUserActivity,
        "application:didReceiveRemoteNotification:fetchCompletionHandler:": .didReceiveRemoteNotification,
        "application:performFetchWithCompletionHandler:": .performFetch,
        "scene:willConnectToSession:options:": .sceneWillConnect,
        "sceneDidDisconnect:": .sceneDidDisconnect,
        "sceneWillEnterForeground:": .sceneWillEnterForeground,
        "sceneDidBecomeActive:": .sceneDidBecomeActive,
        "sceneWillResignActive:": .sceneWillResignActive,
        "sceneDidEnterBackground:": .sceneDidEnterBackground,
    ]

    /// A proxy now stands in front of a delegate that implements `selectors`: from now on, the
    /// callbacks of those selectors are recorded from the forwarded calls, with their real begin
    /// and end, and their notifications are no longer recorded (the same callback would be
    /// recorded twice). Callbacks the delegate does not implement are still recorded from their
    /// notifications.
    public func proxyInstalled(respondingTo selectors: some Sequence<String>) {
        let callbacks = selectors.compactMap { Self.delegateSelectors[$0] }
        lock.lock()
        proxiedCallbacks.formUnion(callbacks)
        lock.unlock()
    }

    /// Runs `body`, the delegate's implementation of `selector` (of the scene whose persistent
    /// identifier is `scene`, for a scene delegate), and records it with its real begin and end
    /// when `selector` is a lifecycle callback; other selectors run unrecorded.
    ///
    /// A forwarded didFinishLaunching not preceded by a recorded willFinishLaunching (the delegate
    /// has none, or the proxy was installed after it) is preceded by a zero-length one, as UIKit's
    /// order guarantees and as an announced launch is (``announced(_:scene:)``).
    @discardableResult
    public func forwarded<Result, Failure: Error>(
        _ selector: String, scene: String? = nil, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard let callback = Self.delegateSelectors[selector] else { return try body() }
        if callback == .didFinishLaunching { recordLaunchPairStart() }
        return try deliver(callback, scene: callback.isSceneCallback ? scene : nil, body)
    }

    /// Whether `callback` is recorded from a proxy's forwarded calls rather than from notifications.
    func isProxied(_ callback: CallbackName) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return proxiedCallbacks.contains(callback)
    }
}
