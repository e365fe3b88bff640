import LifecycleModel
import LifetraceFormat

// The payloads of the verdict edges (``RuleEdge``): what one of the model's machines judged
// against an event, and the events that witness it. The analyzer builds them where it steps the
// machine and the verdict is not legal; the ordering rules' monitors turn them into violations.

/// willTerminate delivered while the app was Suspended: as it began (``event`` a
/// `callback.begin`), or still running when it returned after the system suspended the app
/// (``returned``).
struct TerminateWhileSuspended {
    /// The willTerminate begin or end.
    var event: TraceEvent
    /// The system view's move into Suspended, when recorded.
    var suspension: TraceEvent?
    /// Whether the verdict came as willTerminate returned (it was still running when suspended).
    var returned: Bool
}

/// An app-side event while the app must be silent: Suspended (``silencedBy`` the move there), or
/// past willTerminate (``silencedBy`` its end).
struct SilenceBroken {
    /// The app-side event.
    var event: TraceEvent
    /// What silenced the app, when recorded.
    var silencedBy: TraceEvent?
}

/// A scene callback (``event``) for a scene that is not connected; ``disconnect`` is the scene's
/// last change, its sceneDidDisconnect, when it had one.
struct SceneNotConnected {
    var event: TraceEvent
    var scene: Symbol
    var disconnect: TraceEvent?
}

/// A launch callback (or another app-delegate lifecycle callback) out of the launch sequence's
/// order: the sequence's ``problem``, with the launch (or the launch callback before) as
/// ``witness``.
struct LaunchOutOfSequence {
    var event: TraceEvent
    var callback: CallbackName
    var problem: LaunchSequence.Problem
    var witness: TraceEvent?
}

/// A move that is not a legal transition, as the view that judged it gave its ``verdict``: the app
/// delegate's or a scene's machine on a callback, or the system view on a `state` event.
struct TransitionJudged {
    /// What was wrong with the move (never ``TransitionVerdict/legal``).
    var verdict: TransitionVerdict
    /// The callback begin or `state` event that moved.
    var event: TraceEvent
    /// The event of the view's previous change, when recorded.
    var witness: TraceEvent?
    /// The scene whose view moved; nil for the app.
    var scene: Symbol?
    /// Which view judged the move, and from where.
    var move: Move

    /// Which view judged a move, and the states it judged it between.
    enum Move {
        /// The app delegate's machine, on `callback`, in `state`.
        case appDelegate(CallbackName, in: AppViewState)
        /// A scene's machine, on `callback`, in `state`.
        case sceneDelegate(CallbackName, in: SceneViewState)
        /// The system view, moved from `from` to `to` by a `state` event.
        case system(from: LifecycleState, to: LifecycleState)
    }

    /// The system view's move as a transition verdict: the two moves the system view judges are
    /// the transition rules' own (skipping Inactive either way); nil for a move that is no violation.
    static func verdict(of move: SystemMove) -> TransitionVerdict? {
        switch move {
        case .backgroundWithoutResigning: .backgroundWithoutResigning
        case .activeWithoutForeground: .activeWithoutForeground
        case .legal, .unusual: nil
        }
    }
}

/// A lifecycle callback that began (``event``) on a thread other than the main thread.
struct CallbackOffMain {
    var event: TraceEvent
    var name: Symbol
    var scene: Symbol
}

/// What the thread stacks found wrong with the nesting of begins and ends.
enum NestingBroken {
    /// A callback (`name`, `scene`) returned at `end` while `inner`, a begin inside it, had not.
    case returnedAroundInner(end: TraceEvent, name: Symbol, scene: Symbol, inner: TraceEvent)
    /// A callback returned at `end` with no begin on its thread.
    case callbackNeverBegan(end: TraceEvent, name: Symbol, scene: Symbol)
    /// A signpost (`name`, id `key`, `Int64.min` for none) ended at `end` with no begin on its thread.
    case signpostNeverBegan(end: TraceEvent, name: Symbol, key: Int64)
    /// A begin still open when the process exited normally at `exit`.
    case openAtExit(begin: TraceEvent, exit: TraceEvent)
}

/// An event whose timestamp is before that of the event before it on the same stream.
struct TimeBackwards {
    var event: TraceEvent
    var previous: TraceEvent
}
