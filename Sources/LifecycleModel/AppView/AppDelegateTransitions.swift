import LifetraceFormat

/// The app delegate's transition table: which state each lifecycle callback moves the app view
/// from and to (000, "Execution States for Apps", Figure 2-3 and the delegate method list).
///
/// | callback | from | to |
/// | --- | --- | --- |
/// | willFinishLaunching, didFinishLaunching | the launch state | unchanged |
/// | didBecomeActive | Inactive | Active |
/// | willResignActive | Active | Inactive |
/// | didEnterBackground | Inactive, or Background (a launch or resume into the background) | Background |
/// | willEnterForeground | Background | Inactive |
/// | willTerminate | Background | terminating |
public enum AppDelegateTransitions {
    /// One row of the table.
    public struct Row: Sendable, Hashable {
        /// The state the callback is delivered in.
        public var from: AppViewState
        /// The state the app is in once the callback is delivered.
        public var to: AppViewState

        /// Creates a row.
        @inlinable
        public init(from: AppViewState, to: AppViewState) {
            self.from = from
            self.to = to
        }
    }

    /// The row for `callback`, or nil for a callback that does not change the app view (the
    /// launch callbacks, the other system events, scene callbacks, custom callbacks).
    @inlinable
    public static func row(for callback: CallbackName) -> Row? {
        switch callback {
        case .didBecomeActive: Row(from: .inactive, to: .active)
        case .willResignActive: Row(from: .active, to: .inactive)
        case .didEnterBackground: Row(from: .inactive, to: .background)
        case .willEnterForeground: Row(from: .background, to: .inactive)
        case .willTerminate: Row(from: .background, to: .terminating)
        default: nil
        }
    }

    /// Judges `callback` delivered while the app view is `state`, and returns the verdict with the
    /// state the model takes afterwards: the state the callback implies, legal or not, so that one
    /// mistake is reported once rather than cascading.
    @inlinable
    public static func deliver(
        _ callback: CallbackName, in state: AppViewState
    ) -> (verdict: TransitionVerdict, next: AppViewState) {
        guard let row = row(for: callback) else { return (.legal, state) }
        if state == row.from || entersBackgroundAgain(callback, in: state) { return (.legal, row.to) }
        let verdict: TransitionVerdict
        switch callback {
        case .didEnterBackground where state == .active: verdict = .backgroundWithoutResigning
        case .didBecomeActive where state == .background: verdict = .activeWithoutForeground
        case .didBecomeActive where state == .active: verdict = .unbalancedActivation
        case .willResignActive: verdict = .unbalancedActivation
        default: verdict = .noSuchTransition
        }
        return (verdict, row.to)
    }

    /// Whether `callback` is didEnterBackground delivered to an app already in Background: the
    /// background execution sequence. "System events can cause a suspended app to be returned to
    /// the background, or cause a not running app to be launched directly into the background";
    /// then "UIKit calls the app delegate's applicationDidEnterBackground(_:) method" before it
    /// delivers the event (Apple, *About the background execution sequence*).
    @inlinable
    public static func entersBackgroundAgain(_ callback: CallbackName, in state: AppViewState) -> Bool {
        callback == .didEnterBackground && state == .background
    }

    /// Whether `callback` is one of the app delegate's lifecycle callbacks (launch or transition),
    /// the ones the launch sequence is about.
    @inlinable
    public static func isAppDelegateLifecycle(_ callback: CallbackName) -> Bool {
        callback.isLifecycleCallback && !callback.isSceneCallback
    }
}
