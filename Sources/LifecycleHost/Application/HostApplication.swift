import Foundation
import LifetraceFormat
import LifetraceRecorder

/// The stand-in for `UIApplication`: delivers the life cycle to the app's delegates on the main
/// thread and records every callback (begin and end) with no code in the app.
///
/// Its state is touched on the main thread only, except background tasks, which any thread may
/// begin and end.
public final class HostApplication: @unchecked Sendable {
    /// The recorder every callback is recorded with; the app records its own events with it too.
    public let recorder: Recorder
    /// The app's state as its callbacks told it (the app view).
    public private(set) var applicationState: LifecycleState = .notRunning
    /// The connected scenes, by name.
    public private(set) var connectedScenes: [String: HostScene] = [:]
    let faults: Set<HostFault>
    private let delegateType: any ApplicationDelegate.Type
    private let sceneDelegateType: (any SceneDelegate.Type)?
    private var delegate: (any ApplicationDelegate)?
    /// The recording of callbacks, scenes and the first frame, shared with the UIKit adapter.
    private let callbacks: LifecycleCallbacks
    private let tasks = BackgroundTaskRegistry()
    /// The scheduler's registered tasks and their runs (`HostApplication+ScheduledTasks`).
    let scheduledTasks = ScheduledTaskRegistry()
    /// The background modes the app declares (`UIBackgroundModes`), when the system says.
    public internal(set) var backgroundModes: [String]?

    /// An application that will create its delegate of `delegateType` at launch.
    public init(
        recorder: Recorder, delegateType: any ApplicationDelegate.Type,
        sceneDelegateType: (any SceneDelegate.Type)? = nil, faults: Set<HostFault> = []
    ) {
        self.recorder = recorder
        self.delegateType = delegateType
        self.sceneDelegateType = sceneDelegateType
        self.faults = faults
        callbacks = LifecycleCallbacks(recorder: recorder)
    }

    // MARK: Background tasks

    /// Takes a background task assertion (any thread); `expirationHandler` runs on the main thread
    /// if the system expires the task, and must end it.
    public func beginBackgroundTask(
        withName name: String, expirationHandler: (@Sendable () -> Void)? = nil
    ) -> BackgroundTaskIdentifier {
        let recordedName = recorder.name(name)
        return tasks.begin(name: recordedName, expirationHandler: expirationHandler) { identifier in
            recorder.backgroundTaskBegin(id: identifier.rawValue, name: recordedName)
        }
    }

    /// Releases a background task assertion (any thread); ending a task twice does nothing.
    public func endBackgroundTask(_ identifier: BackgroundTaskIdentifier) {
        tasks.end(identifier) { task in
            recorder.backgroundTaskEnd(id: identifier.rawValue, name: task.name)
        }
    }

    /// The number of background tasks begun and not yet ended.
    public var openBackgroundTaskCount: Int { tasks.openCount }

    // MARK: Commands

    /// Carries out `command` on the calling thread, which must be the main thread; returns the
    /// answer's value (`tasks`) or nil.
    @discardableResult
    public func perform(_ command: HostCommand) throws(HostCommandError) -> String? {
        switch command {
        case .launch(let options):
            try launch(options)
        case .activate:
            try activate()
        case .resignActive:
            try requireDelegate(command)
            applicationState = .inactive
            guard !faults.contains(.skipResignActive) else { return nil }
            deliver(.willResignActive) { $0.willResignActive(self) }
        case .enterBackground:
            try requireDelegate(command)
            applicationState = .background
            deliver(.didEnterBackground) { $0.didEnterBackground(self) }
        case .enterForeground:
            try requireDelegate(command)
            applicationState = .inactive
            guard !faults.contains(.skipEnterForeground) else { return nil }
            deliver(.willEnterForeground) { $0.willEnterForeground(self) }
            if faults.contains(.doubleEnterForeground) { deliver(.willEnterForeground) { $0.willEnterForeground(self) } }
        case .terminate:
            try requireDelegate(command)
            deliver(.willTerminate) { $0.willTerminate(self) }
            applicationState = .notRunning
            if faults.contains(.callbackAfterTerminate) {
                deliver(.didReceiveMemoryWarning) { $0.didReceiveMemoryWarning(self) }
            }
        case .memoryWarning:
            try requireDelegate(command)
            deliver(.didReceiveMemoryWarning) { $0.didReceiveMemoryWarning(self) }
        case .openURL(let url):
            try requireDelegate(command)
            deliver(.openURL) { _ = $0.open(self, url: url) }
        case .expireBackgroundTasks:
            for task in tasks.open() {
                recorder.backgroundTaskExpire(id: task.identifier.rawValue, name: task.name)
                task.expirationHandler?()
            }
        case .backgroundTaskCount:
            return String(tasks.openCount)
        case .runScheduledTask(let kind, let identifier):
            try requireDelegate(command)
            try runScheduledTask(kind, identifier: identifier)
        case .expireScheduledTasks:
            expireScheduledTasks()
        case .scheduledTaskCount:
            return String(openScheduledTaskCount)
        case .sceneConnect(let name):
            try connectScene(name)
        case .sceneDisconnect(let name):
            let scene = try requireScene(name, command)
            deliver(.sceneDidDisconnect, scene: scene) { $0.sceneDidDisconnect(scene) }
            connectedScenes[name] = nil
        case .sceneEnterForeground(let name):
            let scene = try requireScene(name, command)
            deliver(.sceneWillEnterForeground, scene: scene) { $0.sceneWillEnterForeground(scene) }
        case .sceneActivate(let name):
            let scene = try requireScene(name, command)
            deliver(.sceneDidBecomeActive, scene: scene) { $0.sceneDidBecomeActive(scene) }
            presentFirstFrame()
        case .sceneResignActive(let name):
            let scene = try requireScene(name, command)
            deliver(.sceneWillResignActive, scene: scene) { $0.sceneWillResignActive(scene) }
        case .sceneEnterBackground(let name):
            let scene = try requireScene(name, command)
            deliver(.sceneDidEnterBackground, scene: scene) { $0.sceneDidEnterBackground(scene) }
        }
        return nil
    }

    private func launch(_ options: LaunchOptions) throws(HostCommandError) {
        guard delegate == nil else { throw HostCommandError(command: .launch(options), reason: "already launched") }
        let delegate = delegateType.init()
        self.delegate = delegate
        applicationState = options.background ? .background : .inactive
        if !faults.contains(.skipWillFinishLaunching) {
            deliver(.willFinishLaunching) { _ = $0.willFinishLaunching(self, options: options) }
        }
        deliver(.didFinishLaunching) { _ = $0.didFinishLaunching(self, options: options) }
    }

    private func activate() throws(HostCommandError) {
        try requireDelegate(.activate)
        applicationState = .active
        if faults.contains(.callbackOffMain) {
            // Deliberately wrong: UIKit never calls a delegate off the main thread.
            let done = DispatchSemaphore(value: 0)
            Thread { [self] in
                deliver(.didBecomeActive) { $0.didBecomeActive(self) }
                done.signal()
            }.start()
            done.wait()
        } else {
            deliver(.didBecomeActive) { $0.didBecomeActive(self) }
        }
        if faults.contains(.doubleActivate) { deliver(.didBecomeActive) { $0.didBecomeActive(self) } }
        if faults.contains(.unbalancedCallbackEnd) { recorder.callbackEnd(callbacks.name(of: .didBecomeActive)) }
        presentFirstFrame()
    }

    private func connectScene(_ name: String) throws(HostCommandError) {
        try requireDelegate(.sceneConnect(name))
        guard let sceneDelegateType else {
            throw HostCommandError(command: .sceneConnect(name), reason: "the app has no scene delegate")
        }
        let scene = HostScene(name: name, delegate: sceneDelegateType.init())
        if faults.contains(.sceneBeforeConnect) {
            deliver(.sceneWillEnterForeground, scene: scene) { $0.sceneWillEnterForeground(scene) }
        }
        connectedScenes[name] = scene
        deliver(.sceneWillConnect, scene: scene) { $0.sceneWillConnect(scene) }
    }

    /// The first frame reaches the screen once the app (or a scene) first became active.
    private func presentFirstFrame() { callbacks.framePresented() }

    // MARK: Delivery

    private func deliver(_ callback: CallbackName, _ body: (any ApplicationDelegate) -> Void) {
        guard let delegate else { return }
        callbacks.deliver(callback) { body(delegate) }
    }

    private func deliver(_ callback: CallbackName, scene: HostScene, _ body: (any SceneDelegate) -> Void) {
        callbacks.deliver(callback, scene: scene.name) { body(scene.delegate) }
    }

    private func requireDelegate(_ command: HostCommand) throws(HostCommandError) {
        guard delegate != nil else { throw HostCommandError(command: command, reason: "the app is not launched") }
    }

    private func requireScene(_ name: String, _ command: HostCommand) throws(HostCommandError) -> HostScene {
        if let scene = connectedScenes[name] { return scene }
        throw HostCommandError(command: command, reason: "no connected scene named \(name)")
    }
}
