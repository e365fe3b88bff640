import Foundation
import LifetraceFormat

/// Records an app's delegate callbacks, scenes and first frame: the platform-neutral core that the
/// Linux app host (`LifecycleHost`) and the UIKit adapter (``UIKitLifecycleObserver``) share, so
/// that what the adapter does is exercised by the tests on Linux and the UIKit file only
/// subscribes.
///
/// Two ways in, by what the platform allows:
/// - ``deliver(_:scene:_:)`` runs the delegate call itself and records its real begin and end (the
///   app host); on UIKit, a delegate proxy forwards the calls through ``forwarded(_:scene:_:)``.
/// - ``announced(_:scene:)`` records a callback the platform only announces, with a notification
///   posted around the delegate call: zero-length, at the notification; skipped for the
///   callbacks a proxy records (``proxyInstalled(respondingTo:)``).
public final class LifecycleCallbacks: @unchecked Sendable {
    /// The recorder every callback goes to.
    public let recorder: Recorder
    private let names: [CallbackName: RecordedName]
    let lock = NSLock()
    private var sceneNames: [String: RecordedName] = [:]
    private var firstFrameRecorded = false
    /// The callbacks a delegate proxy records; their notifications are not recorded.
    var proxiedCallbacks: Set<CallbackName> = []

    /// Whether willFinishLaunching was recorded (the launch pair's first half).
    private var willFinishLaunchingRecorded = false

    /// Callbacks recorded into `recorder`; every callback's name is interned here, once.
    public init(recorder: Recorder) {
        self.recorder = recorder
        var names: [CallbackName: RecordedName] = [:]
        for callback in CallbackName.allCases { names[callback] = recorder.name(callback.rawValue) }
        self.names = names
    }

    /// The recorded name of `callback`.
    public func name(of callback: CallbackName) -> RecordedName { names[callback] ?? .none }

    /// The recorded name of the scene with the persistent identifier `identifier`, interned once.
    public func sceneName(_ identifier: String) -> RecordedName {
        lock.lock()
        defer { lock.unlock() }
        if let name = sceneNames[identifier] { return name }
        let name = recorder.name(identifier)
        sceneNames[identifier] = name
        return name
    }

    /// Runs `body` as the delegate callback `callback` (of the scene `scene`, for a scene callback)
    /// and records it from its real begin to its real end, on the calling thread.
    public func deliver<Result, Failure: Error>(
        _ callback: CallbackName, scene: String? = nil, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let name = name(of: callback)
        let sceneName = scene.map(sceneName) ?? .none
        if callback == .willFinishLaunching { noteWillFinishLaunching() }
        recorder.callbackBegin(name, scene: sceneName)
        defer { recorder.callbackEnd(name, scene: sceneName) }
        return try body()
    }

    /// Records a callback the platform only announced: a begin and an end at the announcement.
    ///
    /// UIKit announces the launch once, with its didFinishLaunching notification, after calling
    /// willFinishLaunching and then didFinishLaunching (the order it guarantees); an announced
    /// didFinishLaunching is therefore recorded as that pair, so that the trace states the
    /// launch sequence the analyzer checks rather than a missing willFinishLaunching.
    public func announced(_ callback: CallbackName, scene: String? = nil) {
        if isProxied(callback) { return }
        if callback == .didFinishLaunching { recordLaunchPairStart() }
        recordAtOnce(callback, scene: scene)
    }

    /// A frame reached the screen; only the first is recorded, as the first frame (the launch
    /// window's end).
    public func framePresented() {
        lock.lock()
        let first = !firstFrameRecorded
        firstFrameRecorded = true
        lock.unlock()
        if first { recorder.frame(first: true) }
    }

    /// Records a zero-length willFinishLaunching before a didFinishLaunching, unless one was
    /// recorded: UIKit calls willFinishLaunching first, whether or not it is seen.
    func recordLaunchPairStart() {
        lock.lock()
        let recorded = willFinishLaunchingRecorded
        lock.unlock()
        if !recorded { recordAtOnce(.willFinishLaunching, scene: nil) }
    }

    private func noteWillFinishLaunching() {
        lock.lock()
        willFinishLaunchingRecorded = true
        lock.unlock()
    }

    /// Records `callback` as a begin and an end now.
    func recordAtOnce(_ callback: CallbackName, scene: String?) {
        if callback == .willFinishLaunching { noteWillFinishLaunching() }
        let name = name(of: callback)
        let sceneName = scene.map(sceneName) ?? .none
        recorder.callbackBegin(name, scene: sceneName)
        recorder.callbackEnd(name, scene: sceneName)
    }
}

extension LifecycleCallbacks {
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
}
