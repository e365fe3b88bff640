#if canImport(UIKit)
import Foundation
import LifetraceRecorder
import ObjectiveC
import QuartzCore
import UIKit

/// What ``Lifetrace/start(_:)`` installs on iOS: it observes, and forwards every observation to
/// ``LifecycleAdapter``, which decides what is recorded. This file is not built here (there is no
/// UIKit and no Objective-C runtime on Linux; docs/IOS.md, "Not built here"): it only subscribes,
/// observes and forwards, and everything it forwards to is tested on Linux.
///
/// - Notifications: the application's and the scenes' (``LifecycleAdapter/uiKitNotifications``).
/// - The main run loop: a `CFRunLoopObserver` (after waiting, before waiting) in the common modes.
/// - Frames: a `CADisplayLink`, running only while the adapter waits for a frame
///   (``LifecycleAdapter/wantsFrames``).
/// - Delegate callbacks with their real begin and end: when UIKit sets the application's or a
///   scene's delegate (`-[UIApplication setDelegate:]`, `-[UIScene setDelegate:]`, which
///   `UIApplicationMain` and scene creation call with the delegate they made from its class name,
///   before willFinishLaunching and before scene:willConnectToSession:options:), the delegate's
///   class gets its implementations of ``LifecycleAdapter/timedDelegateMethods`` wrapped; the
///   object stays the app's own (`UIApplication.shared.delegate as! AppDelegate` still holds).
///
/// UIKit calls all of these on the main thread; the adapter is main-actor isolated, and the
/// callbacks that UIKit and the Objective-C runtime make without Swift's knowledge of it assume it.
@MainActor
enum UIKitAdoption {
    private static var adapter: LifecycleAdapter?
    private static var tokens: [any NSObjectProtocol] = []
    private static var instrumentedClasses: Set<ObjectIdentifier> = []
    private static var displayLink: CADisplayLink?

    static func install(adapter: LifecycleAdapter, instrumentsDelegates: Bool) {
        self.adapter = adapter
        for entry in LifecycleAdapter.uiKitNotifications {
            tokens.append(
                NotificationCenter.default.addObserver(forName: Notification.Name(entry.name), object: nil, queue: .main) { note in
                    // Delivered on the main queue (`queue: .main`), where the isolated block runs
                    // at once: the object never leaves the main thread.
                    nonisolated(unsafe) let object = note.object
                    MainActor.assumeIsolated {
                        let scene = entry.isScene ? (object as? UIScene)?.session.persistentIdentifier : nil
                        observe(.notification(name: entry.name, scene: scene))
                    }
                })
        }
        let activities = CFRunLoopActivity.afterWaiting.rawValue | CFRunLoopActivity.beforeWaiting.rawValue
        let observer = CFRunLoopObserverCreateWithHandler(kCFAllocatorDefault, activities, true, 0) { _, activity in
            MainActor.assumeIsolated {
                observe(activity == .afterWaiting ? .mainRunLoopAfterWaiting : .mainRunLoopBeforeWaiting)
            }
        }
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, .commonModes)
        if instrumentsDelegates { instrumentDelegates() }
        updateDisplayLink()
    }

    static func observe(_ observation: LifecycleObservation) {
        adapter?.handle(ObservedInput(observation, at: MonotonicClock.now()))
        updateDisplayLink()
    }

    // MARK: Frames

    @MainActor
    private final class FrameTarget: NSObject {
        @objc func frame(_ link: CADisplayLink) { UIKitAdoption.observe(.displayFrame) }
    }

    private static let frameTarget = FrameTarget()

    private static func updateDisplayLink() {
        let wanted = adapter?.wantsFrames ?? false
        if wanted, displayLink == nil {
            let link = CADisplayLink(target: frameTarget, selector: #selector(FrameTarget.frame(_:)))
            link.add(to: .main, forMode: .common)
            displayLink = link
        } else if !wanted, let link = displayLink {
            link.invalidate()
            displayLink = nil
        }
    }

    // MARK: Delegates

    private static func instrumentDelegates() {
        swizzleDelegateSetter(of: UIApplication.self)
        swizzleDelegateSetter(of: UIScene.self)
        // A start after the launch: the delegates are set already.
        if let delegate = UIApplication.shared.delegate { instrument(delegate) }
        for scene in UIApplication.shared.connectedScenes { if let delegate = scene.delegate { instrument(delegate) } }
    }

    private static func swizzleDelegateSetter(of type: AnyClass) {
        let selector = NSSelectorFromString("setDelegate:")
        guard let method = class_getInstanceMethod(type, selector) else { return }
        typealias Setter = @convention(c) (AnyObject, Selector, AnyObject?) -> Void
        let original = unsafeBitCast(method_getImplementation(method), to: Setter.self)
        let replacement: @convention(block) (AnyObject, AnyObject?) -> Void = { owner, delegate in
            if let delegate { MainActor.assumeIsolated { instrument(delegate) } }
            original(owner, selector, delegate)
        }
        method_setImplementation(method, imp_implementationWithBlock(replacement))
    }

    private static func instrument(_ delegate: AnyObject) {
        guard let type = object_getClass(delegate), instrumentedClasses.insert(ObjectIdentifier(type)).inserted else { return }
        var timed: [String] = []
        for (name, shape) in LifecycleAdapter.timedDelegateMethods {
            let selector = NSSelectorFromString(name)
            guard let method = class_getInstanceMethod(type, selector) else { continue }
            let implementation = method_getImplementation(method)
            let wrapper: IMP
            switch shape {
            case .launch:
                typealias Launch = @convention(c) (AnyObject, Selector, AnyObject, NSDictionary?) -> Bool
                let original = unsafeBitCast(implementation, to: Launch.self)
                let block: @convention(block) (AnyObject, AnyObject, NSDictionary?) -> Bool = { object, application, options in
                    timedCall(name, scene: nil) { original(object, selector, application, options) }
                }
                wrapper = imp_implementationWithBlock(block)
            case .oneArgument:
                typealias OneArgument = @convention(c) (AnyObject, Selector, AnyObject) -> Void
                let original = unsafeBitCast(implementation, to: OneArgument.self)
                let block: @convention(block) (AnyObject, AnyObject) -> Void = { object, argument in
                    let scene = MainActor.assumeIsolated { (argument as? UIScene)?.session.persistentIdentifier }
                    timedCall(name, scene: scene) { original(object, selector, argument) }
                }
                wrapper = imp_implementationWithBlock(block)
            case .sceneConnection:
                typealias Connection = @convention(c) (AnyObject, Selector, UIScene, UISceneSession, UIScene.ConnectionOptions) -> Void
                let original = unsafeBitCast(implementation, to: Connection.self)
                let block: @convention(block) (AnyObject, UIScene, UISceneSession, UIScene.ConnectionOptions) -> Void = {
                    object, scene, session, options in
                    let identifier = MainActor.assumeIsolated { session.persistentIdentifier }
                    timedCall(name, scene: identifier) { original(object, selector, scene, session, options) }
                }
                wrapper = imp_implementationWithBlock(block)
            }
            // Added to the class itself when inherited, so that no other class is affected.
            if !class_addMethod(type, selector, wrapper, method_getTypeEncoding(method)) {
                method_setImplementation(method, wrapper)
            }
            timed.append(name)
        }
        observe(.delegateInstrumented(selectors: timed))
    }

    /// Runs a wrapped delegate method between its begin and its end; UIKit calls it on the main
    /// thread.
    nonisolated private static func timedCall<Result>(_ selector: String, scene: String?, _ body: () -> Result) -> Result {
        MainActor.assumeIsolated { observe(.delegateCallbackBegan(selector: selector, scene: scene)) }
        defer { MainActor.assumeIsolated { observe(.delegateCallbackEnded(selector: selector, scene: scene)) } }
        return body()
    }
}
#endif

#if canImport(UIKit)
extension Lifetrace {
    /// `UIApplication.beginBackgroundTask(withName:expirationHandler:)`, recorded: `bgtask.begin`
    /// now, `bgtask.expire` before `expirationHandler` runs. Not built here (docs/IOS.md).
    @MainActor
    public static func beginBackgroundTask(
        withName name: String, expirationHandler: (@MainActor @Sendable () -> Void)? = nil
    ) -> UIBackgroundTaskIdentifier {
        let box = BackgroundTaskBox()
        let identifier = UIApplication.shared.beginBackgroundTask(withName: name) {
            UIKitAdoption.observe(.backgroundTaskExpired(id: Int64(box.identifier.rawValue), name: name))
            expirationHandler?()
        }
        box.identifier = identifier
        box.name = name
        UIKitAdoption.observe(.backgroundTaskBegan(id: Int64(identifier.rawValue), name: name))
        BackgroundTaskBox.open[identifier] = box
        return identifier
    }

    /// `UIApplication.endBackgroundTask(_:)`, recorded: `bgtask.end`, then the system is told.
    @MainActor
    public static func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {
        if let box = BackgroundTaskBox.open.removeValue(forKey: identifier) {
            UIKitAdoption.observe(.backgroundTaskEnded(id: Int64(identifier.rawValue), name: box.name))
        }
        UIApplication.shared.endBackgroundTask(identifier)
    }
}

/// A background task's identifier and name, known to its expiration handler.
private final class BackgroundTaskBox: @unchecked Sendable {
    @MainActor static var open: [UIBackgroundTaskIdentifier: BackgroundTaskBox] = [:]
    var identifier = UIBackgroundTaskIdentifier.invalid
    var name = ""
}
#endif
