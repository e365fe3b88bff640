#if canImport(UIKit)
import Foundation
import UIKit

/// Records an iOS app's life cycle from UIKit's notifications, with no code in its delegates.
///
/// A thin shim over ``LifecycleCallbacks``, which holds the logic (which notification announces
/// which callback, the launch pair, scene ids, the first frame) and is tested on Linux. This file
/// only subscribes; it cannot be built here (there is no UIKit on Linux), see docs/RECORDING.md.
/// UIKit posts each notification around its delegate call rather than at its start and end, so
/// each callback is recorded zero-length at the notification; the run-loop observer still measures
/// the main thread's busy intervals exactly.
public final class UIKitLifecycleObserver: @unchecked Sendable {
    /// The platform-neutral recording of the callbacks.
    public let callbacks: LifecycleCallbacks
    private let runLoopObserver: MainRunLoopObserver
    private var tokens: [any NSObjectProtocol] = []

    /// An observer recording into `recorder`; call ``start()`` early, before `UIApplicationMain`
    /// runs the launch.
    public init(recorder: Recorder) {
        callbacks = LifecycleCallbacks(recorder: recorder)
        runLoopObserver = MainRunLoopObserver(recorder: recorder)
    }

    /// Installs the run-loop observer and subscribes to the application and scene notifications.
    public func start() {
        runLoopObserver.install()
        for entry in LifecycleCallbacks.uiKitNotifications {
            tokens.append(
                NotificationCenter.default.addObserver(
                    forName: Notification.Name(entry.name), object: nil, queue: nil
                ) { [callbacks] note in
                    let scene = entry.isScene ? (note.object as? UIScene)?.session.persistentIdentifier ?? "scene" : nil
                    callbacks.announced(entry.callback, scene: scene)
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
