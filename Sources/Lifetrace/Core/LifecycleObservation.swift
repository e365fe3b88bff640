import LifetraceFormat
import LifetraceRecorder

/// One thing an app's adapter observed, in the platform's own terms: a notification by its raw
/// name, a delegate method by its Objective-C selector, a run-loop activity, a display frame, or an
/// event the app reports through ``Lifetrace`` (a signpost, a background task).
///
/// The UIKit adapter turns what it sees into these and hands them to ``LifecycleAdapter``; the
/// tests hand it the same sequences with the times of the samples in `Samples/real/`.
public enum LifecycleObservation: Sendable, Hashable {
    /// A notification was posted: `UIApplicationDidBecomeActiveNotification`, ...
    /// (``LifecycleAdapter/uiKitNotifications``); `scene` is the persistent identifier of the
    /// posting scene's session, for a scene notification.
    case notification(name: String, scene: String?)
    /// A recording stands in front of a delegate that implements `selectors`: their calls arrive
    /// as ``delegateCallbackBegan(selector:scene:)`` and ``delegateCallbackEnded(selector:scene:)``.
    case delegateInstrumented(selectors: [String])
    /// The delegate's implementation of `selector` is about to run.
    case delegateCallbackBegan(selector: String, scene: String?)
    /// The delegate's implementation of `selector` returned.
    case delegateCallbackEnded(selector: String, scene: String?)
    /// A callback the app reports itself starts (a scheduler task's launch handler, ...).
    case appCallbackBegan(name: String)
    /// The callback the app reported returned.
    case appCallbackEnded(name: String)
    /// The main run loop woke up (`kCFRunLoopAfterWaiting`).
    case mainRunLoopAfterWaiting
    /// The main run loop is about to wait (`kCFRunLoopBeforeWaiting`).
    case mainRunLoopBeforeWaiting
    /// The display presented a frame (a `CADisplayLink` callback).
    case displayFrame
    /// An app-defined interval starts.
    case signpostBegan(name: String, id: Int64?)
    /// An app-defined interval ends.
    case signpostEnded(name: String, id: Int64?)
    /// An app-defined instant.
    case marked(name: String)
    /// A background task assertion was taken (`beginBackgroundTask`, or a scheduler task's run,
    /// whose ids start at ``Recorder/firstScheduledTaskID``).
    case backgroundTaskBegan(id: Int64, name: String)
    /// A background task assertion was released.
    case backgroundTaskEnded(id: Int64, name: String)
    /// The system expired a background task.
    case backgroundTaskExpired(id: Int64, name: String)
}

/// An observation with the moment and the thread it was made on.
public struct ObservedInput: Sendable, Hashable {
    /// Nanoseconds on the trace's clock (`CLOCK_MONOTONIC`).
    public var timestamp: Int64
    /// The thread it was made on.
    public var thread: ThreadID
    /// What was observed.
    public var observation: LifecycleObservation

    /// An input made at `timestamp` on `thread`.
    public init(_ observation: LifecycleObservation, at timestamp: Int64, thread: ThreadID = .main) {
        self.timestamp = timestamp
        self.thread = thread
        self.observation = observation
    }
}
