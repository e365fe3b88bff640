import Lifetrace
import LifetraceFormat
import LifetraceRecorder

/// How one occurrence of a callback reaches the adapter in an app whose delegates are
/// instrumented, as the UIKit adapter (`UIKitAdoption`) observes it: it wraps the delegate methods
/// of ``LifecycleAdapter/timedDelegateMethods`` only, observes the notifications of
/// ``LifecycleAdapter/uiKitNotifications``, and forwards both from the main thread; a callback
/// UIKit neither lets it wrap nor announces is one the app reports itself, through
/// `Lifetrace.callback(name) { }` (docs/IOS.md, "What is recorded, and how").
///
/// UIKit calls the delegate's method, then posts its notification (Apple, *Responding to memory
/// warnings*: "It calls the applicationDidReceiveMemoryWarning(_:) method of your app delegate. …
/// It posts a didReceiveMemoryWarningNotification object to any registered observers"), so a
/// notification comes at the method's end. One occurrence is one of these deliveries, never two: a method that
/// is not wrapped (didReceiveMemoryWarning, the protected-data pair, significant time change) is
/// not also fed as a delegate call, or the trace would hold it twice where an app's holds it once.
enum CallbackDelivery: Equatable {
    /// A wrapped method: its begin and end, then its notification, which UIKit also posts.
    case timed(selector: String, notification: String?)
    /// A method the adapter does not wrap: only its notification, at the method's end.
    case notification(String)
    /// Neither wrapped nor announced: the app reports its begin and end.
    case reportedByApp

    /// The delivery of a callback named `name` (a `CallbackName`, or a name of the app's own).
    init(_ name: String) {
        let callback = CallbackName(rawValue: name)
        let notification = callback.flatMap { callback in LifecycleAdapter.uiKitNotifications.first { $0.callback == callback }?.name }
        let selector = callback.flatMap { callback in
            LifecycleAdapter.timedDelegateMethods.keys.first { LifecycleAdapter.delegateSelectors[$0] == callback }
        }
        if let selector {
            self = .timed(selector: selector, notification: notification)
        } else if let notification {
            self = .notification(notification)
        } else {
            self = .reportedByApp
        }
    }

    /// What the adapter observes when the callback `name` begins at `at` on `thread`.
    func began(_ name: String, scene: String?, at: Int64, thread: ThreadID) -> [ObservedInput] {
        switch self {
        case .timed(let selector, _): [ObservedInput(.delegateCallbackBegan(selector: selector, scene: scene), at: at)]
        case .notification: []
        case .reportedByApp: [ObservedInput(.appCallbackBegan(name: name), at: at, thread: thread)]
        }
    }

    /// What the adapter observes when the callback `name` ends at `at` on `thread`.
    func ended(_ name: String, scene: String?, at: Int64, thread: ThreadID) -> [ObservedInput] {
        switch self {
        case .timed(let selector, let notification):
            [ObservedInput(.delegateCallbackEnded(selector: selector, scene: scene), at: at)]
                + (notification.map { [ObservedInput(.notification(name: $0, scene: scene), at: at)] } ?? [])
        case .notification(let notification): [ObservedInput(.notification(name: notification, scene: scene), at: at)]
        case .reportedByApp: [ObservedInput(.appCallbackEnded(name: name), at: at, thread: thread)]
        }
    }

    /// The delegate methods the UIKit adapter wraps in an app whose delegates implement every timed
    /// method (as Xcode's templates do): what it announces with `delegateInstrumented`.
    static var instrumentedSelectors: [String] { LifecycleAdapter.timedDelegateMethods.keys.sorted() }
}
