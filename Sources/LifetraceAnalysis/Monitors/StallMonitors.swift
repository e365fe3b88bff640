import LifecycleModel
import LifetraceFormat

/// The launch window as the stall monitors judge it, once the lifetime has ended.
struct JudgedLaunchWindow {
    /// The window's start: the launch, or the resume of a prewarmed launch.
    var start: Int64
    /// Its end: what closed it, where the user left, or the lifetime's end.
    var end: Int64
    /// What ended it, in words (`the first frame`).
    var description: String
    /// The launch event (or the first event, for an inferred launch): the first witness.
    var launchEvent: TraceEvent
    /// Whether the recording began after the launch callbacks (`late-recording`), so that the
    /// window's extent is unknown and neither the watchdog nor the launch stalls judge it.
    var unknown: Bool
    /// Whether an event closed the window (the first frame, the first activation's end, the end
    /// of a background launch's didFinishLaunching).
    var closed = false
    /// The event that ended the window, when there is one: the second witness.
    var windowEvent: TraceEvent?
    /// Whether the user left before the first activation (the window ends there).
    var abandoned = false
    /// Whether the window starts at the resume of a prewarmed launch.
    var resumed = false
    /// Whether the launch was inferred (no `launch` event).
    var inferred = false
    /// The launch's kind.
    var kind: LaunchKind = .cold
}

/// `launch-stall`: a main-thread stall of at least the launch stall threshold that starts inside
/// the launch window, judged on the lifetime's stalls when it ends.
struct LaunchStallMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.launchStall
    static let edges: RuleEdge.Kinds = .lifetimeStalls

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .lifetimeStalls(let lifetime) = edge, let window = lifetime.window, !window.unknown else { return }
        let threshold = context.options.launchStallThreshold
        for recorded in lifetime.stalls
        where recorded.stall.start >= window.start && recorded.stall.start <= window.end && recorded.stall.duration >= threshold {
            let stall = recorded.stall
            findings.add(
                Rule(rule), at: stall.start, witnesses: [window.launchEvent, recorded.startEvent], overrun: stall.duration - threshold
            ) {
                context.stallOpening(stall) + ", inside the launch window (which ends at \(window.description))"
                    + "\(context.stallWork(stall)); expected no main-thread stall of \(context.duration(threshold)) "
                    + "or more during launch."
            }
        }
    }
}

/// `hang`: a main-thread stall of at least the hang threshold that starts outside the launch
/// window while the app is in the foreground (or as it returns there), judged on the lifetime's
/// stalls when it ends.
struct HangMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.hang
    static let edges: RuleEdge.Kinds = .lifetimeStalls

    /// Stalls inside the launch window are `launch-stall`'s; before the resume of a prewarmed
    /// launch the main thread did the prewarm's work, off screen.
    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .lifetimeStalls(let lifetime) = edge else { return }
        // A window end before the launch (timestamps that go backwards) is an empty window.
        let window = lifetime.window.map { $0.start...max($0.start, $0.end) }
        let prewarmEnd = lifetime.prewarmEnd
        let threshold = context.options.hangThreshold
        for recorded in lifetime.stalls
        where (recorded.inForeground || recorded.resumed) && recorded.stall.duration >= threshold
            && !(window?.contains(recorded.stall.start) ?? false) && recorded.stall.start >= prewarmEnd
        {
            let stall = recorded.stall
            findings.add(Rule(rule), at: stall.start, witnesses: [recorded.startEvent], overrun: stall.duration - threshold) {
                context.stallOpening(stall)
                    + (recorded.inForeground
                        ? ", after the launch, while the app was in the foreground"
                        : ", as the app returned from Background to the foreground (a resume hang)")
                    + "\(context.stallWork(stall)); expected no main-thread stall of \(context.duration(threshold)) "
                    + "or more while the app is on screen (it cannot respond to touches meanwhile)."
            }
        }
    }
}

extension MonitorContext {
    /// How a stall's violation begins: `The main thread was busy for 451 ms from +0.063 s`.
    func stallOpening(_ stall: Stall) -> String {
        "The main thread was busy for \(duration(stall.duration))"
            + (stall.unfinished ? " (until the lifetime ended)" : "")
            + " from \(when(stall.start))"
    }

    /// The work a stall is blamed on, as a clause of its violation (empty when nothing is blamed).
    func stallWork(_ stall: Stall) -> String {
        stall.workText.map { "; the work on the main thread during it was \($0)" } ?? ""
    }
}
