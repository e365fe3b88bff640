import LifetraceFormat

/// What the seeds' state diagram says about a move of the system view (a `state` event).
public enum SystemMove: UInt8, Sendable, Hashable {
    /// An edge of the diagram, or no change.
    case legal
    /// From Active straight to Background or Suspended: "every move between Active and Background
    /// passes through a brief Inactive" (003).
    case backgroundWithoutResigning
    /// From Background or Suspended straight to Active.
    case activeWithoutForeground
    /// Any other move the diagram does not draw (for example Inactive to Suspended). Not a rule of
    /// its own; shown in replays.
    case unusual

    /// Classifies the move from `from` to `to`.
    ///
    /// The diagram's edges (000, Figure 2-3, with Table 2-3 and "App Termination"): Not running to
    /// Inactive or Background (launch), Inactive to and from Active, Inactive to and from
    /// Background, Background to and from Suspended, Suspended or Background to Not running
    /// (purge, termination), and any running state to Not running (a kill).
    @inlinable
    public static func classify(from: LifecycleState, to: LifecycleState) -> SystemMove {
        if from == to { return .legal }
        switch (from, to) {
        case (.active, .background), (.active, .suspended):
            return .backgroundWithoutResigning
        case (.background, .active), (.suspended, .active):
            return .activeWithoutForeground
        case (.notRunning, .inactive), (.notRunning, .background),
            (.inactive, .active), (.active, .inactive),
            (.inactive, .background), (.background, .inactive),
            (.background, .suspended), (.suspended, .background),
            (_, .notRunning):
            return .legal
        default:
            return .unusual
        }
    }
}
