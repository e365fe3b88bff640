import LifetraceFormat

/// One scene's view as a state machine: each scene-delegate callback is a step, judged by
/// ``SceneDelegateTransitions`` (001, "Responding to scene-based life-cycle events") and relaxed
/// by ``Allowance/switcherQuit`` (the scene disconnects while Inactive when the user quits from
/// the app switcher) and ``Allowance/lateRecording`` (its first callback recorded after the
/// recorder started tells its state).
public struct SceneMachine: Sendable, Hashable {
    /// The state; nil while unknown (a lifetime whose trace starts in its middle).
    public private(set) var state: SceneViewState?
    /// The allowances that apply to the trace.
    public let allowances: AllowanceSet

    /// A scene in `state` (Unattached in a lifetime that launched, nil when unknown).
    public init(_ state: SceneViewState?, allowances: AllowanceSet) {
        self.state = state
        self.allowances = allowances
    }

    /// The machine's verdict on one scene callback.
    public struct Verdict: Sendable, Hashable {
        /// The callback came for a scene that is not connected (`scene-connection`, which comes
        /// before the transition rules).
        public var notConnected: Bool
        /// The textbook's verdict; `.legal` when the state was learnt rather than judged.
        public var transition: TransitionVerdict
        /// The state the callback was judged in; nil when it was learnt.
        public var judgedIn: SceneViewState?
        /// The allowance that accepted a callback the textbook forbids, or that let the state be
        /// learnt; nil when none changed the verdict.
        public var allowance: Allowance?
        /// The state the machine took (the one the callback implies).
        public var next: SceneViewState

        /// Whether the transition breaks an ordering rule: forbidden, and no allowance accepts it.
        public var isViolation: Bool { !transition.isLegal && allowance == nil }
    }

    /// Steps with the scene callback `callback`. `learnsFromRecording`, asked only when a
    /// callback other than sceneWillConnect comes for an unattached scene, says whether
    /// `late-recording` applies (the scene connected before the recording).
    public mutating func step(_ callback: CallbackName, learnsFromRecording: () -> Allowance?) -> Verdict {
        guard let row = SceneDelegateTransitions.row(for: callback) else {
            preconditionFailure("\(callback) is no scene callback")
        }
        guard let current = state else {
            state = row.to
            return Verdict(notConnected: false, transition: .legal, judgedIn: nil, allowance: nil, next: row.to)
        }
        let unattached = current == .unattached && callback != .sceneWillConnect
        if unattached, let allowance = learnsFromRecording() {
            state = row.to
            return Verdict(notConnected: false, transition: .legal, judgedIn: nil, allowance: allowance, next: row.to)
        }
        let (transition, next) = SceneDelegateTransitions.deliver(callback, in: current)
        var allowance: Allowance?
        if !transition.isLegal && callback == .sceneDidDisconnect && current == .inactive
            && allowances.contains(.switcherQuit)
        {
            allowance = .switcherQuit
        }
        state = next
        let verdict = Verdict(
            notConnected: unattached, transition: transition, judgedIn: current, allowance: allowance, next: next)
        assert(verdict._isConsistent && state == verdict.next, "inconsistent scene verdict \(verdict)")
        return verdict
    }
}

extension SceneMachine.Verdict {
    /// The verdict's invariant, asserted in debug builds: an allowance changes only a verdict the
    /// textbook gives against the callback, or a state that was learnt; and a callback for an
    /// unattached scene is never legal by the table.
    public var _isConsistent: Bool {
        (allowance == nil || judgedIn == nil || !transition.isLegal) && (!notConnected || !transition.isLegal)
    }
}

extension SceneMachine {
    /// The lifetime turned out to be a launch (its launch callbacks came first, with no `launch`
    /// event): a scene whose state was unknown had not connected yet.
    public mutating func lifetimeLaunched() {
        if state == nil { state = .unattached }
    }
}
