import Foundation
import LifetraceFormat
import LifetraceRecorder

/// Turns what an app's adapter observes (notifications, delegate calls, the main run loop, display
/// frames, the app's own signposts and background tasks) into the recorder's events. Every
/// decision is here, platform-neutral and tested on Linux; the UIKit adapter (`UIKitAdoption`)
/// only observes and forwards.
///
/// The decisions:
/// - **Notification or delegate call.** A delegate method that runs instrumented
///   (``LifecycleObservation/delegateInstrumented(selectors:)``) is recorded from its real begin to
///   its real end; its notification, which UIKit posts around the same call, is then not recorded
///   again. A callback known from its notification only is recorded zero-length at it.
/// - **The launch pair.** UIKit calls willFinishLaunching before didFinishLaunching; a
///   didFinishLaunching with no willFinishLaunching recorded before it gets a zero-length one,
///   unless the delegate's willFinishLaunching is instrumented (it then ran before the recording
///   started).
/// - **Scenes.** A scene callback carries the scene session's persistent identifier, as given.
/// - **The main run loop.** A wake is recorded only when the run loop was not already awake, a
///   sleep only when it was (nested run loops report their own activities). Started on the main
///   thread, the recording begins awake: the main thread is running the code that started it.
/// - **Frames.** The first frame after each activation (the app's or a scene's), and at a start
///   after the launch the first frame seen; `first: true` only for the process's first frame when
///   the recording started before the first activation (``LaunchProgress``) or saw the launch,
///   since a later start cannot know whether frames came before.
///   ``wantsFrames`` says when a display link is worth running.
/// - The app's own signposts, marks and background tasks are recorded as reported.
///
/// Prewarming, a launch into the background and the moment recording started are the recorder's
/// launch facts (``LaunchFacts``), written with the `launch` event when the recorder starts.
public final class LifecycleAdapter: @unchecked Sendable {
    let destination: any LifecycleEventDestination
    private let lock = NSLock()
    private var instrumented: Set<CallbackName> = []
    private var willFinishLaunchingRecorded = false
    private var launchSeen = false
    private var framesRecorded = 0
    private var awaitingFrame = true
    private var mainRunLoopAwake: Bool?
    private var progress = LaunchProgress.ahead

    /// An adapter writing to `destination`.
    public init(destination: any LifecycleEventDestination) {
        self.destination = destination
    }

    /// How far the app's launch had come when the recording started, as the adapter can tell.
    public enum LaunchProgress: Sendable, Hashable {
        /// Before the launch: the launch callbacks and the first activation are ahead (a start in
        /// `main.swift`, in SwiftUI `App.init`, in the application delegate's `init`).
        case ahead
        /// During the launch: the first activation is ahead (the application is Inactive and no
        /// scene is connected yet: a start inside didFinishLaunching).
        case firstActivationAhead
        /// After it, or not known: the app may have been on screen already.
        case unknown
    }

    /// The recording starts now (`timestamp`) at `progress` of the launch; `onMainThread` when the
    /// call that started it runs on the main thread, which is then busy (its run loop is not
    /// waiting): a `runloop.wake` is recorded.
    public func start(at timestamp: Int64, onMainThread: Bool, progress: LaunchProgress = .ahead) {
        lock.lock()
        defer { lock.unlock() }
        self.progress = progress
        // An app that may be on screen already has its next frame recorded; otherwise the frames
        // wait for an activation.
        awaitingFrame = progress == .unknown
        guard onMainThread else { return }
        mainRunLoopAwake = true
        destination.write(AdaptedEvent(.runloopWake, at: timestamp))
    }

    /// Whether a frame would be recorded now: the adapter may run its display link only then.
    public var wantsFrames: Bool {
        lock.lock()
        defer { lock.unlock() }
        return awaitingFrame
    }

    /// Handles one observation.
    public func handle(_ input: ObservedInput) {
        let at = input.timestamp, thread = input.thread
        switch input.observation {
        case .signpostBegan(let name, let id):
            destination.write(AdaptedEvent(.signpostBegin(name: name, id: id), at: at, thread: thread))
        case .signpostEnded(let name, let id):
            destination.write(AdaptedEvent(.signpostEnd(name: name, id: id), at: at, thread: thread))
        case .marked(let name):
            destination.write(AdaptedEvent(.mark(name: name), at: at, thread: thread))
        case .backgroundTaskBegan(let id, let name):
            destination.write(AdaptedEvent(.bgtaskBegin(id: id, name: name), at: at, thread: thread))
        case .backgroundTaskEnded(let id, let name):
            destination.write(AdaptedEvent(.bgtaskEnd(id: id, name: name), at: at, thread: thread))
        case .backgroundTaskExpired(let id, let name):
            destination.write(AdaptedEvent(.bgtaskExpire(id: id, name: name), at: at, thread: thread))
        default:
            lock.lock()
            defer { lock.unlock() }
            handleLifecycle(input.observation, at: at, thread: thread)
        }
    }

    /// The observations that change the adapter's state; called with the lock held.
    private func handleLifecycle(_ observation: LifecycleObservation, at: Int64, thread: ThreadID) {
        switch observation {
        case .notification(let name, let scene):
            guard let entry = LifecycleAdapter.uiKitNotifications.first(where: { $0.name == name }),
                !instrumented.contains(entry.callback)
            else { return }
            let sceneID = entry.isScene ? (scene ?? "scene") : nil
            begin(entry.callback, scene: sceneID, at: at, thread: thread)
            end(entry.callback, scene: sceneID, at: at, thread: thread)
        case .delegateInstrumented(let selectors):
            instrumented.formUnion(selectors.compactMap { LifecycleAdapter.delegateSelectors[$0] })
        case .delegateCallbackBegan(let selector, let scene):
            guard let callback = LifecycleAdapter.delegateSelectors[selector] else { return }
            begin(callback, scene: callback.isSceneCallback ? scene : nil, at: at, thread: thread)
        case .delegateCallbackEnded(let selector, let scene):
            guard let callback = LifecycleAdapter.delegateSelectors[selector] else { return }
            end(callback, scene: callback.isSceneCallback ? scene : nil, at: at, thread: thread)
        case .appCallbackBegan(let name):
            destination.write(AdaptedEvent(.callbackBegin(name: name, scene: nil), at: at, thread: thread))
        case .appCallbackEnded(let name):
            destination.write(AdaptedEvent(.callbackEnd(name: name, scene: nil), at: at, thread: thread))
        case .mainRunLoopAfterWaiting:
            guard mainRunLoopAwake != true else { return }
            mainRunLoopAwake = true
            destination.write(AdaptedEvent(.runloopWake, at: at, thread: thread))
        case .mainRunLoopBeforeWaiting:
            guard mainRunLoopAwake != false else { return }
            mainRunLoopAwake = false
            destination.write(AdaptedEvent(.runloopSleep, at: at, thread: thread))
        case .displayFrame:
            guard awaitingFrame else { return }
            awaitingFrame = false
            let first: Bool? = framesRecorded == 0 && (launchSeen || progress != .unknown) ? true : nil
            framesRecorded += 1
            destination.write(AdaptedEvent(.frame(first: first), at: at, thread: thread))
        case .signpostBegan, .signpostEnded, .marked, .backgroundTaskBegan, .backgroundTaskEnded, .backgroundTaskExpired:
            break
        }
    }

    private func begin(_ callback: CallbackName, scene: String?, at: Int64, thread: ThreadID) {
        switch callback {
        case .willFinishLaunching:
            willFinishLaunchingRecorded = true
            launchStarted()
        case .didFinishLaunching:
            // An instrumented willFinishLaunching not recorded ran before the recording started;
            // one the delegate does not implement was called all the same, as UIKit's order says.
            if !willFinishLaunchingRecorded && !instrumented.contains(.willFinishLaunching) {
                willFinishLaunchingRecorded = true
                let name = CallbackName.willFinishLaunching.rawValue
                destination.write(AdaptedEvent(.callbackBegin(name: name, scene: nil), at: at, thread: thread))
                destination.write(AdaptedEvent(.callbackEnd(name: name, scene: nil), at: at, thread: thread))
            }
            launchStarted()
        default:
            break
        }
        destination.write(AdaptedEvent(.callbackBegin(name: callback.rawValue, scene: scene), at: at, thread: thread))
    }

    private func end(_ callback: CallbackName, scene: String?, at: Int64, thread: ThreadID) {
        destination.write(AdaptedEvent(.callbackEnd(name: callback.rawValue, scene: scene), at: at, thread: thread))
        if callback == .didBecomeActive || callback == .sceneDidBecomeActive { awaitingFrame = true }
    }

    /// The launch is under way: the frames before the first activation are not the ones a user
    /// waits for.
    private func launchStarted() {
        launchSeen = true
        if framesRecorded == 0 { awaitingFrame = false }
    }
}

extension LifecycleAdapter {
    /// The shape of a delegate method's signature, which decides how the UIKit adapter wraps it.
    public enum DelegateMethodShape: Sendable, Hashable {
        /// `application:willFinishLaunchingWithOptions:`, `application:didFinishLaunchingWithOptions:`:
        /// the application and the options, returning a Bool.
        case launch
        /// One argument, the application or the scene (`applicationDidBecomeActive:`, `sceneDidDisconnect:`).
        case oneArgument
        /// `scene:willConnectToSession:options:`.
        case sceneConnection
    }

    /// The delegate methods the UIKit adapter times from their real begin to their real end: those
    /// of the launch and of every state transition, of the app and of its scenes. Other callbacks
    /// (memory warnings, URLs) are recorded from their notifications, where UIKit posts one.
    public static let timedDelegateMethods: [String: DelegateMethodShape] = [
        "application:willFinishLaunchingWithOptions:": .launch,
        "application:didFinishLaunchingWithOptions:": .launch,
        "applicationDidBecomeActive:": .oneArgument,
        "applicationWillResignActive:": .oneArgument,
        "applicationDidEnterBackground:": .oneArgument,
        "applicationWillEnterForeground:": .oneArgument,
        "applicationWillTerminate:": .oneArgument,
        "scene:willConnectToSession:options:": .sceneConnection,
        "sceneDidDisconnect:": .oneArgument,
        "sceneWillEnterForeground:": .oneArgument,
        "sceneDidBecomeActive:": .oneArgument,
        "sceneWillResignActive:": .oneArgument,
        "sceneDidEnterBackground:": .oneArgument,
    ]
}
