import LifetraceFormat

/// The app delegate's view of one lifetime as a state machine: each app-delegate transition
/// callback is a step, judged by ``AppDelegateTransitions`` (000, Figure 2-3) and relaxed by the
/// allowances that real iOS needs here (``Allowance/sceneAppOrder``, ``Allowance/switcherQuit``,
/// ``Allowance/quickMinimise``, ``Allowance/doubleActivation``), each named in the verdict it
/// changed.
///
/// The launch callbacks are the launch sequence's (``LaunchSequence``), not steps of this machine.
public struct AppDelegateMachine: Sendable, Hashable {
    /// The state; nil while unknown (a lifetime whose trace starts in its middle).
    public private(set) var state: AppViewState?
    /// The last transition callback delivered.
    public private(set) var lastTransition: CallbackName?
    /// Whether a transition callback has been judged (never, in a scene-based app whose app
    /// delegate hears no transition).
    public private(set) var moved = false
    /// The allowances that apply to the trace.
    public let allowances: AllowanceSet

    /// A machine in an unknown state, relaxed by `allowances`.
    public init(allowances: AllowanceSet) {
        self.allowances = allowances
    }

    /// What the app delegate's machine reads of the scenes, at the step.
    public struct Scenes: Sendable, Hashable {
        /// Whether a scene has been seen in the lifetime.
        public var any: Bool
        /// Whether a scene is connected.
        public var connected: Bool
        /// The effective app view (the most active connected scene, else the app delegate's).
        public var effective: AppViewState?
        /// Whether the effective app view has been Active in the lifetime.
        public var wasActive: Bool

        /// Creates the facts.
        public init(any: Bool, connected: Bool, effective: AppViewState?, wasActive: Bool) {
            self.any = any
            self.connected = connected
            self.effective = effective
            self.wasActive = wasActive
        }
    }

    /// The machine's verdict on one transition callback.
    public struct Verdict: Sendable, Hashable {
        /// The textbook's verdict; `.legal` when the state was learnt rather than judged.
        public var transition: TransitionVerdict
        /// The state the callback was judged in; nil when the state was unknown and the callback
        /// told it.
        public var judgedIn: AppViewState?
        /// The allowance that accepted a callback the textbook forbids, or that let the state be
        /// learnt (``Allowance/lateRecording``); nil when none changed the verdict.
        public var allowance: Allowance?
        /// The state the machine took (the one the callback implies, legal or not, so that one
        /// mistake is reported once rather than cascading).
        public var next: AppViewState

        /// Whether the callback breaks an ordering rule: the textbook forbids it and no allowance
        /// accepts it.
        public var isViolation: Bool { !transition.isLegal && allowance == nil }
    }

    /// The state at a `launch`: Inactive, or Background for a background launch.
    public mutating func launch(background: Bool) {
        state = AppViewState.atLaunch(background: background)
    }

    /// A launch recorded as foreground was a background launch (``Allowance/backgroundLaunch``):
    /// the app delegate, Inactive and not moved yet, was in Background. Returns whether it moved.
    public mutating func launchedInBackground() -> Bool {
        guard state == .inactive && !moved else { return false }
        state = .background
        return true
    }

    /// Steps with the transition `callback` (one with a row in ``AppDelegateTransitions``).
    /// `learnsFromRecording`, asked only for the app delegate's first callback in an app without
    /// scenes, says whether `late-recording` applies: the state before the recording is unknown.
    public mutating func step(
        _ callback: CallbackName, scenes: Scenes, learnsFromRecording: () -> Allowance?
    ) -> Verdict {
        guard let row = AppDelegateTransitions.row(for: callback) else {
            preconditionFailure("\(callback) is no app-delegate transition")
        }
        defer { checkInvariants() }
        if !scenes.any && !moved, let allowance = learnsFromRecording() {
            moved = true
            lastTransition = callback
            state = row.to
            return Verdict(transition: .legal, judgedIn: nil, allowance: allowance, next: row.to)
        }
        guard var judged = state else {
            // A trace that starts mid-lifetime: the first transition tells the state.
            state = row.to
            return Verdict(transition: .legal, judgedIn: nil, allowance: nil, next: row.to)
        }
        // In a scene-based app the app delegate hears no transitions; its first one (willTerminate,
        // say) is judged by the scenes' state instead.
        if !moved, let effective = scenes.effective, scenes.connected { judged = effective }
        moved = true
        let (transition, next) = AppDelegateTransitions.deliver(callback, in: judged)
        let allowance = transition.isLegal ? nil : allowance(for: callback, in: judged, row: row, scenes: scenes)
        lastTransition = callback
        state = next
        return Verdict(transition: transition, judgedIn: judged, allowance: allowance, next: next)
    }

    /// The allowance that accepts `callback`, which the textbook forbids in `judged`, or nil.
    private func allowance(
        for callback: CallbackName, in judged: AppViewState, row: AppDelegateTransitions.Row, scenes: Scenes
    ) -> Allowance? {
        switch callback {
        case .willTerminate where judged == .inactive:
            // Apple Developer Forums thread 732170: quit from the app switcher while Inactive.
            return allowances.contains(.switcherQuit) ? .switcherQuit : nil
        case .willEnterForeground where judged == .inactive && lastTransition == .willResignActive:
            // A quick minimise: willResignActive, willEnterForeground, didEnterBackground.
            return allowances.contains(.quickMinimise) ? .quickMinimise : nil
        case .didBecomeActive where judged == .active && lastTransition == .didBecomeActive
            && allowances.contains(.doubleActivation):
            return .doubleActivation
        default:
            break
        }
        guard allowances.contains(.sceneAppOrder), scenes.any else { return nil }
        // In a scene-based app the app delegate's transitions come before or after the scenes': legal
        // from the app delegate's own state, or from the scenes' (the effective view), or a move the
        // scenes already made and the app delegate has not; and at a cold launch UIKit posts the
        // app-level willEnterForeground although the app delegate was never in Background, before,
        // between or after the scenes' own (so after sceneDidBecomeActive too): the app delegate's
        // first transition, while the scenes are in the foreground.
        if let state, AppDelegateTransitions.deliver(callback, in: state).verdict.isLegal { return .sceneAppOrder }
        if let effective = scenes.effective {
            if AppDelegateTransitions.deliver(callback, in: effective).verdict.isLegal { return .sceneAppOrder }
            if effective == row.to && lastTransition != callback { return .sceneAppOrder }
        }
        guard callback == .willEnterForeground, state == .inactive else { return nil }
        if !scenes.wasActive { return .sceneAppOrder }
        let scenesInForeground = scenes.effective?.isForeground ?? false
        return lastTransition == nil && scenesInForeground ? .sceneAppOrder : nil
    }

    /// The machine's invariants, checked after each step in debug builds: a transition recorded
    /// means the machine moved and knows its state, and only willTerminate leads to terminating.
    @inline(__always)
    func checkInvariants() {
        #if DEBUG
            _checkInvariants()
        #endif
    }

    /// Asserts the machine's invariants (``checkInvariants()``).
    public func _checkInvariants() {
        if let lastTransition {
            assert(moved && state != nil, "a transition was recorded, but the machine neither moved nor knows its state")
            assert(AppDelegateTransitions.row(for: lastTransition) != nil, "\(lastTransition) is no transition")
        }
        assert(state != .terminating || lastTransition == .willTerminate || lastTransition == nil,
               "terminating without willTerminate")
    }
}
