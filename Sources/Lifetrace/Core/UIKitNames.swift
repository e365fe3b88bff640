import LifetraceFormat

/// The names UIKit gives the life cycle: the notifications it posts and the delegate selectors it
/// calls, each with the callback it is (the adapter's inputs name them so).
extension LifecycleAdapter {
    /// UIKit's notifications and the callbacks they announce, by the notifications' raw names (the
    /// UIKit adapter subscribes to each; application notifications first, then scene ones).
    public static let uiKitNotifications: [(name: String, callback: CallbackName, isScene: Bool)] = [
        ("UIApplicationDidFinishLaunchingNotification", .didFinishLaunching, false),
        ("UIApplicationDidBecomeActiveNotification", .didBecomeActive, false),
        ("UIApplicationWillResignActiveNotification", .willResignActive, false),
        ("UIApplicationDidEnterBackgroundNotification", .didEnterBackground, false),
        ("UIApplicationWillEnterForegroundNotification", .willEnterForeground, false),
        ("UIApplicationWillTerminateNotification", .willTerminate, false),
        ("UIApplicationDidReceiveMemoryWarningNotification", .didReceiveMemoryWarning, false),
        ("UIApplicationSignificantTimeChangeNotification", .significantTimeChange, false),
        ("UIApplicationProtectedDataWillBecomeUnavailable", .protectedDataWillBecomeUnavailable, false),
        ("UIApplicationProtectedDataDidBecomeAvailable", .protectedDataDidBecomeAvailable, false),
        ("UISceneWillConnectNotification", .sceneWillConnect, true),
        ("UISceneDidDisconnectNotification", .sceneDidDisconnect, true),
        ("UISceneWillEnterForegroundNotification", .sceneWillEnterForeground, true),
        ("UISceneDidActivateNotification", .sceneDidBecomeActive, true),
        ("UISceneWillDeactivateNotification", .sceneWillResignActive, true),
        ("UISceneDidEnterBackgroundNotification", .sceneDidEnterBackground, true),
    ]

    /// The selectors of `UIApplicationDelegate` and `UISceneDelegate` that are recorded
    /// callbacks, and the callback each is. Every other selector runs unrecorded.
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
}
