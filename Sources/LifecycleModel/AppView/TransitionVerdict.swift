/// What the seeds' state diagram says about a lifecycle callback delivered in some state.
///
/// The verdicts are ordered the way the analyzer's ordering rules are: a callback that both skips
/// Inactive and has no transition is judged as skipping Inactive.
public enum TransitionVerdict: UInt8, Sendable, Hashable {
    /// The diagram has this transition from the current state.
    case legal
    /// An Active app or scene moves to Background without passing through Inactive.
    case backgroundWithoutResigning
    /// A Background app or scene becomes Active without passing through Inactive.
    case activeWithoutForeground
    /// didBecomeActive while already Active, or willResignActive while not Active.
    case unbalancedActivation
    /// The diagram has no such transition from the current state.
    case noSuchTransition

    /// Whether the callback is allowed where it was delivered.
    @inlinable
    public var isLegal: Bool { self == .legal }
}
