import LifetraceFormat

/// The scene delegate's transition table (001, "Responding to scene-based life-cycle events").
///
/// | callback | from | to |
/// | --- | --- | --- |
/// | sceneWillConnect | Unattached | Background |
/// | sceneWillEnterForeground | Background | Inactive |
/// | sceneDidBecomeActive | Inactive | Active |
/// | sceneWillResignActive | Active | Inactive |
/// | sceneDidEnterBackground | Inactive | Background |
/// | sceneDidDisconnect | Background | Unattached |
public enum SceneDelegateTransitions {
    /// One row of the table.
    public struct Row: Sendable, Hashable {
        /// The state the callback is delivered in.
        public var from: SceneViewState
        /// The state the scene is in once the callback is delivered.
        public var to: SceneViewState

        /// Creates a row.
        @inlinable
        public init(from: SceneViewState, to: SceneViewState) {
            self.from = from
            self.to = to
        }
    }

    /// The row for `callback`, or nil when it is not a scene callback.
    @inlinable
    public static func row(for callback: CallbackName) -> Row? {
        switch callback {
        case .sceneWillConnect: Row(from: .unattached, to: .background)
        case .sceneWillEnterForeground: Row(from: .background, to: .inactive)
        case .sceneDidBecomeActive: Row(from: .inactive, to: .active)
        case .sceneWillResignActive: Row(from: .active, to: .inactive)
        case .sceneDidEnterBackground: Row(from: .inactive, to: .background)
        case .sceneDidDisconnect: Row(from: .background, to: .unattached)
        default: nil
        }
    }

    /// Judges `callback` delivered to a scene in `state`; returns the verdict and the state the
    /// model takes afterwards (the one the callback implies). A callback for an unattached scene
    /// other than sceneWillConnect is judged `noSuchTransition`; the analyzer reports it under
    /// `scene-connection`, which comes first.
    @inlinable
    public static func deliver(
        _ callback: CallbackName, in state: SceneViewState
    ) -> (verdict: TransitionVerdict, next: SceneViewState) {
        guard let row = row(for: callback) else { return (.legal, state) }
        if state == row.from { return (.legal, row.to) }
        let verdict: TransitionVerdict
        switch callback {
        case .sceneDidEnterBackground where state == .active: verdict = .backgroundWithoutResigning
        case .sceneDidBecomeActive where state == .background: verdict = .activeWithoutForeground
        case .sceneDidBecomeActive where state == .active: verdict = .unbalancedActivation
        case .sceneWillResignActive where state != .unattached: verdict = .unbalancedActivation
        default: verdict = .noSuchTransition
        }
        return (verdict, row.to)
    }
}
