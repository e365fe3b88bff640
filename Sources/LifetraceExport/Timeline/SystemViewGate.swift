import LifecycleModel
import LifetraceAnalysis

/// Keeps a lifetime's system-view states out of an export until the lifetime shows it has a
/// system view (``LifetimeReport/hasSystemView``, the test the HTML page draws by): an in-app
/// recording has no `state` events, and its system view only holds the state the analyzer
/// assumed at the launch, which is not drawn.
///
/// The exports write as the edges come, in one pass, and whether a lifetime has a system view is
/// only known when it has moved (a move between two states comes from a `state` event alone) or
/// at its end (its report). Until then the gate holds the lifetime's system-view changes: the
/// launch's state and its end, at most two (the system view changes only at the launch, at a
/// `state` event and at the lifetime's end), so memory stays constant.
struct SystemViewGate {
    /// The system-view changes of the lifetime held so far, in order.
    private var held: [StateChange] = []
    /// Whether the lifetime is known to have a system view: its changes pass at once.
    private var confirmed = false

    /// What to do with `edge`: draw the changes it releases (`released`, in order: the held ones,
    /// once the lifetime shows a system view, or at its end when its report says it has one), then
    /// draw the edge itself unless the gate holds it (`holds`). What is held for a lifetime without
    /// a system view is dropped at its end.
    mutating func admit(_ edge: LifecycleEdge) -> (released: [StateChange], holds: Bool) {
        switch edge {
        case .lifetimeBegan:
            held.removeAll(keepingCapacity: true)
            confirmed = false
            return ([], false)
        case .stateChanged(let change) where change.view == .system && !confirmed:
            guard change.from != nil, change.to != nil else {
                held.append(change)
                return ([], true)
            }
            confirmed = true
            return (takeHeld(), false)
        case .lifetimeEnded(let report):
            let released = report.hasSystemView ? takeHeld() : []
            held.removeAll(keepingCapacity: true)
            return (released, false)
        default:
            return ([], false)
        }
    }

    /// The held changes, handed over.
    private mutating func takeHeld() -> [StateChange] {
        defer { held = [] }
        return held
    }
}
