#if canImport(UIKit)
import Foundation
import UIKit

/// Stands in front of the app's (or a scene's) delegate and records each lifecycle callback with
/// its real begin and end, where notifications give only a moment near the call.
///
/// A thin shim: every decision (which selectors are lifecycle callbacks, the launch pair, scene
/// ids, which notifications are no longer recorded) is in ``LifecycleCallbacks``
/// (``LifecycleCallbacks/delegateSelectors``, ``LifecycleCallbacks/forwarded(_:scene:_:)``,
/// ``LifecycleCallbacks/proxyInstalled(respondingTo:)``), which the Linux tests exercise. This file
/// cannot be built here (there is no UIKit and no Objective-C runtime on Linux), see
/// docs/RECORDING.md, "Not built here". Selectors the proxy does not implement go to the delegate
/// unchanged (`forwardingTarget(for:)`), and it answers `responds(to:)` as the delegate does, so
/// UIKit calls exactly what the delegate implements.
public final class UIKitDelegateProxy: NSObject, UIApplicationDelegate, UIWindowSceneDelegate {
    private let target: NSObject
    private let callbacks: LifecycleCallbacks

    /// A proxy for `target`, an application or scene delegate, recording into `callbacks`.
    public init(wrapping target: NSObject, callbacks: LifecycleCallbacks) {
        self.target = target
        self.callbacks = callbacks
        super.init()
        let implemented = LifecycleCallbacks.delegateSelectors.keys.filter {
            target.responds(to: NSSelectorFromString($0))
        }
        callbacks.proxyInstalled(respondingTo: implemented)
    }

    public override func responds(to selector: Selector!) -> Bool { target.responds(to: selector) }
    public override func forwardingTarget(for selector: Selector!) -> Any? { target }

    private var app: (any UIApplicationDelegate)? { target as? any UIApplicationDelegate }
    private var sceneDelegate: (any UIWindowSceneDelegate)? { target as? any UIWindowSceneDelegate }

    private func forward<Result>(_ selector: Selector, scene: UIScene? = nil, _ body: () -> Result) -> Result {
        callbacks.forwarded(NSStringFromSelector(selector), scene: scene?.session.persistentIdentifier, body)
    }

    public var window: UIWindow? {
        get { (app?.window ?? nil) ?? (sceneDelegate?.window ?? nil) }
        set { app?.window = newValue; sceneDelegate?.window = newValue }
    }

    public func application(_ application: UIApplication, willFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        forward(#selector(UIApplicationDelegate.application(_:willFinishLaunchingWithOptions:))) {
            app?.application?(application, willFinishLaunchingWithOptions: options) ?? true
        }
    }

    public func application(_ application: UIApplication, didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        forward(#selector(UIApplicationDelegate.application(_:didFinishLaunchingWithOptions:))) {
            app?.application?(application, didFinishLaunchingWithOptions: options) ?? true
        }
    }

    public func applicationDidBecomeActive(_ application: UIApplication) {
        forward(#selector(UIApplicationDelegate.applicationDidBecomeActive(_:))) { app?.applicationDidBecomeActive?(application) }
    }

    public func applicationWillResignActive(_ application: UIApplication) {
        forward(#selector(UIApplicationDelegate.applicationWillResignActive(_:))) { app?.applicationWillResignActive?(application) }
    }

    public func applicationDidEnterBackground(_ application: UIApplication) {
        forward(#selector(UIApplicationDelegate.applicationDidEnterBackground(_:))) { app?.applicationDidEnterBackground?(application) }
    }

    public func applicationWillEnterForeground(_ application: UIApplication) {
        forward(#selector(UIApplicationDelegate.applicationWillEnterForeground(_:))) { app?.applicationWillEnterForeground?(application) }
    }

    public func applicationWillTerminate(_ application: UIApplication) {
        forward(#selector(UIApplicationDelegate.applicationWillTerminate(_:))) { app?.applicationWillTerminate?(application) }
    }

    public func applicationDidReceiveMemoryWarning(_ application: UIApplication) {
        forward(#selector(UIApplicationDelegate.applicationDidReceiveMemoryWarning(_:))) { app?.applicationDidReceiveMemoryWarning?(application) }
    }

    public func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
        forward(#selector(UISceneDelegate.scene(_:willConnectTo:options:)), scene: scene) {
            sceneDelegate?.scene?(scene, willConnectTo: session, options: options)
        }
    }

    public func sceneDidDisconnect(_ scene: UIScene) {
        forward(#selector(UISceneDelegate.sceneDidDisconnect(_:)), scene: scene) { sceneDelegate?.sceneDidDisconnect?(scene) }
    }

    public func sceneWillEnterForeground(_ scene: UIScene) {
        forward(#selector(UISceneDelegate.sceneWillEnterForeground(_:)), scene: scene) { sceneDelegate?.sceneWillEnterForeground?(scene) }
    }

    public func sceneDidBecomeActive(_ scene: UIScene) {
        forward(#selector(UISceneDelegate.sceneDidBecomeActive(_:)), scene: scene) { sceneDelegate?.sceneDidBecomeActive?(scene) }
    }

    public func sceneWillResignActive(_ scene: UIScene) {
        forward(#selector(UISceneDelegate.sceneWillResignActive(_:)), scene: scene) { sceneDelegate?.sceneWillResignActive?(scene) }
    }

    public func sceneDidEnterBackground(_ scene: UIScene) {
        forward(#selector(UISceneDelegate.sceneDidEnterBackground(_:)), scene: scene) { sceneDelegate?.sceneDidEnterBackground?(scene) }
    }
}
#endif
