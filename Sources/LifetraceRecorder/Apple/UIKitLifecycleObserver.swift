#if canImport(UIKit)
import Foundation
import UIKit

/// Records an iOS app's life cycle from UIKit's notifications, with no code in its delegates.
///
/// Not built on Linux (there is no UIKit); there the app host records callbacks itself. UIKit
/// posts each notification around its delegate call rather than at its start and end, so each
/// callback is recorded as a begin and an end at the time of the notification; the run-loop
/// observer still measures the main thread's busy intervals exactly.
public final class UIKitLifecycleObserver: @unchecked Sendable {
    private let recorder: Recorder
    private let runLoopObserver: MainRunLoopObserver
    private var tokens: [any NSObjectProtocol] = []

    /// An observer recording into `recorder`; call ``start()`` early, before `UIApplicationMain`
    /// runs the launch.
    public init(recorder: Recorder) {
        self.recorder = recorder
        runLoopObserver = MainRunLoopObserver(recorder: recorder)
    }

    /// Installs the run-loop observer and subscribes to the application and scene notifications.
    public func start() {
        runLoopObserver.install()
        let center = NotificationCenter.default
        let application: [(Notification.Name, StaticString)] = [
            (UIApplication.didFinishLaunchingNotification, "didFinishLaunching"),
            (UIApplication.didBecomeActiveNotification, "didBecomeActive"),
            (UIApplication.willResignActiveNotification, "willResignActive"),
            (UIApplication.didEnterBackgroundNotification, "didEnterBackground"),
            (UIApplication.willEnterForegroundNotification, "willEnterForeground"),
            (UIApplication.willTerminateNotification, "willTerminate"),
            (UIApplication.didReceiveMemoryWarningNotification, "didReceiveMemoryWarning"),
        ]
        for (notification, callback) in application {
            let name = recorder.name(callback)
            tokens.append(
                center.addObserver(forName: notification, object: nil, queue: nil) { [recorder] _ in
                    recorder.callbackBegin(name)
                    recorder.callbackEnd(name)
                })
        }
        let scene: [(Notification.Name, StaticString)] = [
            (UIScene.willConnectNotification, "sceneWillConnect"),
            (UIScene.didDisconnectNotification, "sceneDidDisconnect"),
            (UIScene.willEnterForegroundNotification, "sceneWillEnterForeground"),
            (UIScene.didActivateNotification, "sceneDidBecomeActive"),
            (UIScene.willDeactivateNotification, "sceneWillResignActive"),
            (UIScene.didEnterBackgroundNotification, "sceneDidEnterBackground"),
        ]
        for (notification, callback) in scene {
            let name = recorder.name(callback)
            tokens.append(
                center.addObserver(forName: notification, object: nil, queue: nil) { [recorder] note in
                    let identifier = (note.object as? UIScene)?.session.persistentIdentifier ?? "scene"
                    let sceneName = recorder.name(identifier)
                    recorder.callbackBegin(name, scene: sceneName)
                    recorder.callbackEnd(name, scene: sceneName)
                })
        }
    }

    /// Unsubscribes and removes the run-loop observer.
    public func stop() {
        tokens.forEach(NotificationCenter.default.removeObserver)
        tokens.removeAll()
        runLoopObserver.uninstall()
    }
}
#endif
