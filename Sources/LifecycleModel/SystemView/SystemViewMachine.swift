import LifetraceFormat

/// The system view of the app or of one scene (its `state` events) as a state machine: each move
/// is a step, judged by ``SystemMove`` (000, Figure 2-3). The system view is what the system says,
/// so no allowance relaxes it.
public struct SystemViewMachine: Sendable, Hashable {
    /// The state; nil before the first `state` event (or `launch`).
    public private(set) var state: LifecycleState?

    /// A machine in `state`.
    public init(_ state: LifecycleState? = nil) {
        self.state = state
    }

    /// The system view's state right after a `launch`: Inactive, or Background for a background
    /// launch ("An app being launched directly into the background enters this state instead of the
    /// inactive state", 000, Table 2-3).
    public static func stateAtLaunch(background: Bool) -> LifecycleState {
        background ? .background : .inactive
    }

    /// The machine's verdict on one move.
    public struct Verdict: Sendable, Hashable {
        /// The state moved from; nil for the first state known.
        public var from: LifecycleState?
        /// What the diagram says of the move (`.legal` for the first state known).
        public var move: SystemMove
    }

    /// Steps to `state`.
    public mutating func step(_ to: LifecycleState) -> Verdict {
        let from = state
        state = to
        let verdict = Verdict(from: from, move: from.map { SystemMove.classify(from: $0, to: to) } ?? .legal)
        assert(verdict.from != nil || verdict.move == .legal, "a first state judged as a move")
        return verdict
    }
}
