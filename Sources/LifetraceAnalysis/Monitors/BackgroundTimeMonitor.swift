import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// `background-time`: the app ran in Background with no background task open for longer than
/// `--background-limit` (unless it declares a continuous background mode), or it did not end a
/// background task the system expired within ``expiryGrace``, before its suspension or its end.
///
/// The monitor keeps the clock of each stretch of Background without a task, in the two views that
/// can tell Background: the system view, and the effective app view, which cannot see suspension
/// (a stretch there ends at the app's last event before the move). It judges what the analyzer
/// derived: the views' state changes, the background-task intervals, the suspensions inferred from
/// silences, the task expiries and the lifetime's end. What each view finds is kept until the
/// lifetime ends, where only the view the lifetime trusts reports (the system view when it has
/// `state` events).
struct BackgroundTimeMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.backgroundTime
    static let edges: RuleEdge.Kinds = [.backgroundStretchEnded, .expiredTaskNotEnded]

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        switch edge {
        case .backgroundStretchEnded(let stretch): judge(stretch, context: context, findings: &findings)
        case .expiredTaskNotEnded(let task, let outcome): expiredTaskNotEnded(task, outcome, context: context, findings: &findings)
        default: break
        }
    }

    /// Which view a stretch belongs to.
    enum View {
        /// The system view (`state` events).
        case system
        /// The effective app view (callbacks).
        case app
    }

    /// A stretch of Background with no background task open, in one view.
    struct Stretch {
        /// Whether the view is in Background (not suspended).
        var inBackground = false
        /// When the current stretch started; nil when there is none.
        var start: Int64?
        /// The event that started it.
        var startEvent: TraceEvent?
    }

    /// A stretch that ended: in `view`, from `start` (by `startEvent`) to `end` (by `endEvent`,
    /// when there is one).
    struct EndedStretch {
        var view: View
        var start: Int64
        var startEvent: TraceEvent
        var end: Int64
        var endEvent: TraceEvent?
    }

    /// The stretches one step of the clock ended, at most one per view.
    struct Ended {
        var system: EndedStretch?
        var app: EndedStretch?

        /// Whether no stretch ended (the common case: nothing to judge).
        var isEmpty: Bool { system == nil && app == nil }
    }

    /// The system view's stretch.
    private(set) var system = Stretch()
    /// The effective app view's stretch.
    private(set) var app = Stretch()
    /// The background tasks open, as their intervals began and ended.
    private(set) var tasksOpen = 0

    /// A view's state changed (at a `launch`, a `state` event, or a callback that moved the
    /// effective app view): entering Background starts a stretch unless a task is open, leaving it
    /// ends the stretch, at the change for the system view and at the app's last event before
    /// (`appActivity`) for the app view. `event` is the event that moved it. Most changes neither
    /// enter nor leave Background: they cost a comparison.
    @inline(__always)
    mutating func stateChanged(_ change: StateChange, event: TraceEvent, appActivity: Int64) -> Ended {
        switch change.view {
        case .system:
            var inBackground = false
            if case .system(.background)? = change.to { inBackground = true }
            guard inBackground != system.inBackground else { return Ended() }
            return moved(.system, inBackground: inBackground, end: change.timestamp, event: event)
        case .effectiveApp:
            var inBackground = false
            if case .app(.background)? = change.to { inBackground = true }
            guard inBackground != app.inBackground else { return Ended() }
            return moved(.app, inBackground: inBackground, end: appActivity, event: event)
        case .app, .trusted, .sceneSystem, .sceneApp:
            return Ended()
        }
    }

    @inline(never)
    private mutating func moved(_ view: View, inBackground: Bool, end: Int64, event: TraceEvent) -> Ended {
        var ended = Ended()
        self[view].inBackground = inBackground
        if inBackground {
            if tasksOpen == 0 { start(view, at: event) }
        } else {
            ended[view] = stop(view, end: end, endEvent: event)
        }
        return ended
    }

    /// A background task began (`task`, followed by the analyzer): the first one open ends both
    /// views' stretches, the app view's at the app's last event before (`appActivity`).
    mutating func taskBegan(_ task: EdgeInterval, event: TraceEvent, appActivity: Int64) -> Ended {
        tasksOpen += 1
        guard tasksOpen == 1 else { return Ended() }
        return Ended(
            system: stop(.system, end: event.timestamp, endEvent: event), app: stop(.app, end: appActivity, endEvent: event))
    }

    /// A background task ended (by its end or its expiry, `event`): when none is left open, a
    /// stretch starts again in each view that is in Background.
    mutating func taskEnded(_ task: EdgeInterval, event: TraceEvent) {
        tasksOpen -= 1
        guard tasksOpen == 0 else { return }
        for view in [View.system, .app] where self[view].inBackground && self[view].start == nil {
            start(view, at: event)
        }
    }

    /// The app was silent in Background long enough to have been suspended, from `silentSince`
    /// to `event`: the app view's stretch ends where the app went silent and, with no task open,
    /// starts again at `event`.
    mutating func appSuspended(from silentSince: Int64, until event: TraceEvent) -> Ended {
        let ended = Ended(system: nil, app: stop(.app, end: silentSince, endEvent: event))
        if tasksOpen == 0 && self.app.inBackground { start(.app, at: event) }
        return ended
    }

    /// The lifetime ended at `end` (by `exit`, when it ended with one): both views' stretches end,
    /// the app view's at the app's last event (`appActivity`).
    mutating func lifetimeEnded(at end: Int64, exit: TraceEvent?, appActivity: Int64) -> Ended {
        Ended(system: stop(.system, end: end, endEvent: exit), app: stop(.app, end: appActivity, endEvent: exit))
    }

    /// Whether `stretch` (one that ended, or none) ran longer than `limit`: only such a stretch
    /// can be a finding (``judge(_:context:findings:)``).
    @inline(__always)
    static func exceeds(_ stretch: EndedStretch?, _ limit: Int64) -> Bool {
        guard let stretch else { return false }
        return stretch.end - stretch.start > limit
    }

    /// Judges a stretch that ended against the background limit. The allowance that excuses it,
    /// when the model's background execution sequence has one (`background-modes`), goes with
    /// the findings.
    private static func judge(_ stretch: EndedStretch, context: MonitorContext, findings: inout RuleFindings) {
        let limit = context.options.backgroundLimit
        guard exceeds(stretch, limit) else { return }
        if let allowance = context.background.stretchPastLimit() {
            findings.allowances.insert(allowance)
            return
        }
        findings.add(
            Rule(rule), at: stretch.start + limit, witnesses: [stretch.startEvent] + (stretch.endEvent.map { [$0] } ?? []),
            overrun: stretch.end - stretch.start - limit
        ) {
            let viewText = stretch.view == .system ? "the system view" : "its callbacks (no state events)"
            let written = context.durations(stretch.end - stretch.start, over: limit)
            return "The app ran in Background with no background task open from \(context.when(stretch.start)) to "
                + "\(context.when(stretch.end)) (\(written.value), by \(viewText)); expected at "
                + "most \(written.limit) before suspension unless a background task is open."
        }
    }

    /// How long after its expiry a background task may still end: its expiration handler runs
    /// "shortly before the app's remaining background time reaches 0", synchronously on the main
    /// thread, "blocking the app's suspension momentarily", and must end the task (Apple,
    /// UIApplication, beginBackgroundTask(expirationHandler:); Apple, Extending your app's
    /// background execution time, whose example ends the task in its handler). One second, the
    /// time `lifetrace record` gives expiration handlers.
    static let expiryGrace: Int64 = 1_000_000_000

    /// A background task the system expired (its `bgtask.expire`), whose end is awaited.
    struct ExpiredTask {
        var id: Int64
        var name: Symbol
        /// The `bgtask.expire` event.
        var expiry: TraceEvent
        /// When the task must have ended.
        var deadline: Int64 { expiry.timestamp &+ BackgroundTimeMonitor.expiryGrace }
    }

    /// How an expired task's wait for its end came out, when it is a finding.
    enum ExpiryOutcome {
        /// The task ended at `event`, past the grace.
        case endedLate(TraceEvent)
        /// The app was suspended (`event`) with the task not ended.
        case suspended(TraceEvent)
        /// The lifetime ended at `at` (by `exit`, when it had one) with the task not ended.
        case lifetimeEnded(at: Int64, exit: TraceEvent?, traceStopped: Bool)
        /// Its end was not awaited: as many expired tasks awaited theirs as are followed.
        case notFollowed
    }

    /// The expired task `task` was not ended in time (`outcome`): a finding at its deadline, or at
    /// the suspension or the lifetime's end when that came first. An expiry itself is not one:
    /// "Background tasks can end in one of two ways: when your app has finished doing whatever it
    /// set out to do; when the system calls the task's expiry handler" (Apple Developer Forums
    /// thread 85066, "UIApplication Background Task Notes"), and the app ends it in both.
    private static func expiredTaskNotEnded(
        _ task: ExpiredTask, _ outcome: ExpiryOutcome, context: MonitorContext, findings: inout RuleFindings
    ) {
        let label = context.symbols.shown(task.name).map { "background task \(task.id) (\"\($0)\")" } ?? "background task \(task.id)"
        let at: Int64
        let witness: TraceEvent?
        let what: String
        switch outcome {
        case .endedLate(let end):
            at = task.deadline
            witness = end
            what = "the app ended it only at \(context.when(end.timestamp))"
        case .suspended(let event):
            at = min(task.deadline, event.timestamp)
            witness = event
            what = "the app had not ended it when it was suspended at \(context.when(event.timestamp))"
        case .lifetimeEnded(let end, let exit, let traceStopped):
            at = min(task.deadline, end)
            witness = exit
            what = traceStopped
                ? "the app had not ended it by the end of the trace at \(context.when(end))"
                : "the app had not ended it when the process ended at \(context.when(end))"
        case .notFollowed:
            at = task.expiry.timestamp
            witness = nil
            what = "its end was not awaited (\(ThreadStacks.depthLimit) expired tasks already awaited theirs)"
        }
        findings.add(Rule(rule), at: at, witnesses: [task.expiry] + (witness.map { [$0] } ?? [])) {
            "The system expired \(label) at \(context.when(task.expiry.timestamp)) and \(what); expected its expiration "
                + "handler to end it within \(context.duration(expiryGrace)) of the expiry (Apple, UIApplication, "
                + "beginBackgroundTask(expirationHandler:): \"Failure to end the task explicitly will result in the "
                + "termination of the app.\")."
        }
    }

    private subscript(view: View) -> Stretch {
        get { view == .system ? system : app }
        set { if view == .system { system = newValue } else { app = newValue } }
    }

    private mutating func start(_ view: View, at event: TraceEvent) {
        self[view].start = event.timestamp
        self[view].startEvent = event
    }

    /// Ends `view`'s stretch at `end`; returns it when one was running.
    private mutating func stop(_ view: View, end: Int64, endEvent: TraceEvent?) -> EndedStretch? {
        let stretch = self[view]
        self[view].start = nil
        self[view].startEvent = nil
        guard let start = stretch.start, let startEvent = stretch.startEvent else { return nil }
        return EndedStretch(view: view, start: start, startEvent: startEvent, end: end, endEvent: endEvent)
    }
}

extension BackgroundTimeMonitor.Ended {
    subscript(view: BackgroundTimeMonitor.View) -> BackgroundTimeMonitor.EndedStretch? {
        get { view == .system ? system : app }
        set { if view == .system { system = newValue } else { app = newValue } }
    }
}
