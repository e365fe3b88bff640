/// The delegate callbacks the life cycle knows by name.
///
/// A callback with any other name is kept in traces as a custom callback.
public enum CallbackName: String, Sendable, CaseIterable, Hashable {
    // App delegate: launch and state transitions.
    case willFinishLaunching
    case didFinishLaunching
    case didBecomeActive
    case willResignActive
    case didEnterBackground
    case willEnterForeground
    case willTerminate
    // App delegate: other system events.
    case didReceiveMemoryWarning
    case significantTimeChange
    case protectedDataWillBecomeUnavailable
    case protectedDataDidBecomeAvailable
    case openURL
    case continueUserActivity
    case didReceiveRemoteNotification
    case performFetch
    // Scene delegate (iOS 13 and later).
    case sceneWillConnect
    case sceneDidDisconnect
    case sceneWillEnterForeground
    case sceneDidBecomeActive
    case sceneWillResignActive
    case sceneDidEnterBackground

    /// Whether this is a scene-delegate callback.
    public var isSceneCallback: Bool {
        switch self {
        case .sceneWillConnect, .sceneDidDisconnect, .sceneWillEnterForeground, .sceneDidBecomeActive,
            .sceneWillResignActive, .sceneDidEnterBackground:
            true
        default:
            false
        }
    }

    /// Whether this callback accompanies a launch or a state transition of the app or a scene.
    public var isLifecycleCallback: Bool {
        switch self {
        case .willFinishLaunching, .didFinishLaunching, .didBecomeActive, .willResignActive,
            .didEnterBackground, .willEnterForeground, .willTerminate:
            true
        default:
            isSceneCallback
        }
    }
}
