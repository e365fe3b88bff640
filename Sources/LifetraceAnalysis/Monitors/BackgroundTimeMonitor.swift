import LifecycleModel
import LifetraceFormat

/// `background-time`: the app ran in Background with no background task open for longer than
/// `--background-limit` (unless it declares a continuous background mode), or the system expired
/// one of its background tasks.
///
/// The monitor keeps the clock of each stretch of Background without a task, in the two views that
/// can tell Background: the system view, and the effective app view, which cannot see suspension
/// (a stretch there ends at the app's last event before the move). It judges what the analyzer
/// derived: the views' state changes, the background-task intervals, the suspensions inferred from
/// silences, the task expiries and the lifetime's end. What each view finds is kept until the
/// lifetime ends, where only the view the lifetime trusts reports (the system view when it has
/// `state` events).
struct BackgroundTimeMonitor: ThresholdMonitor {
    static let rule = BuiltInRule.backgroundTime

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

    /// What one step of the monitor found, by view.
    struct Findings {
        var system: RuleFindings
        var app: RuleFindings

        /// No findings; with `onlyCounted`, they will only be counted (``RuleFindings/onlyCounted``).
        init(onlyCounted: Bool) {
            system = RuleFindings(onlyCounted: onlyCounted)
            app = RuleFindings(onlyCounted: onlyCounted)
        }

        subscript(view: View) -> RuleFindings {
            get { view == .system ? system : app }
            set { if view == .system { system = newValue } else { app = newValue } }
        }
    }

    /// The system view's stretch.
    private(set) var system = Stretch()
    /// The effective app view's stretch.
    private(set) var app = Stretch()
    /// The background tasks open, as their intervals began and ended.
    private(set) var tasksOpen = 0
    /// Whether a declared continuous background mode excused a stretch over the limit (the
    /// `background-modes` allowance applied).
    private(set) var excusedByBackgroundModes = false

    /// A view's state changed (at a `launch`, a `state` event, or a callback that moved the
    /// effective app view): entering Background starts a stretch unless a task is open, leaving it
    /// ends the stretch, at the change for the system view and at the app's last event before
    /// (`appActivity`) for the app view. `event` is the event that moved it.
    mutating func stateChanged(
        _ change: StateChange, event: TraceEvent, appActivity: Int64, context: MonitorContext, findings: inout Findings
    ) {
        let view: View
        switch change.view {
        case .system: view = .system
        case .effectiveApp: view = .app
        case .app, .trusted, .sceneSystem, .sceneApp: return
        }
        let inBackground = change.to == .system(.background) || change.to == .app(.background)
        guard inBackground != self[view].inBackground else { return }
        self[view].inBackground = inBackground
        if inBackground {
            if tasksOpen == 0 { start(view, at: event) }
        } else {
            let end = view == .system ? change.timestamp : appActivity
            close(view, end: end, endEvent: event, context: context, findings: &findings[view])
        }
    }

    /// A background task began (`task`, followed by the analyzer): the first one open ends both
    /// views' stretches, the app view's at the app's last event before (`appActivity`).
    mutating func taskBegan(
        _ task: EdgeInterval, event: TraceEvent, appActivity: Int64, context: MonitorContext, findings: inout Findings
    ) {
        tasksOpen += 1
        guard tasksOpen == 1 else { return }
        close(.system, end: event.timestamp, endEvent: event, context: context, findings: &findings.system)
        close(.app, end: appActivity, endEvent: event, context: context, findings: &findings.app)
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
    mutating func appSuspended(
        from silentSince: Int64, until event: TraceEvent, context: MonitorContext, findings: inout Findings
    ) {
        close(.app, end: silentSince, endEvent: event, context: context, findings: &findings.app)
        if tasksOpen == 0 && self.app.inBackground { start(.app, at: event) }
    }

    /// The lifetime ended at `end` (by `exit`, when it ended with one): both views' stretches end,
    /// the app view's at the app's last event (`appActivity`).
    mutating func lifetimeEnded(
        at end: Int64, exit: TraceEvent?, appActivity: Int64, context: MonitorContext, findings: inout Findings
    ) {
        close(.system, end: end, endEvent: exit, context: context, findings: &findings.system)
        close(.app, end: appActivity, endEvent: exit, context: context, findings: &findings.app)
    }

    /// The system expired a background task (`point`): always a finding, reported at once.
    static func taskExpired(_ point: EdgePoint, context: MonitorContext, findings: inout RuleFindings) {
        guard case .backgroundTask(let id) = point.fact else { return }
        findings.add(Rule(rule), at: point.timestamp, witnesses: [point.event]) {
            let label = context.symbols.shown(point.name).map { "background task \(id) (\"\($0)\")" } ?? "background task \(id)"
            return "The system expired \(label) at \(context.when(point.timestamp)); expected the app to end its "
                + "background task before the extra execution time ran out."
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

    /// Ends `view`'s stretch, if one runs, at `end` and judges it against the background limit.
    private mutating func close(
        _ view: View, end: Int64, endEvent: TraceEvent?, context: MonitorContext, findings: inout RuleFindings
    ) {
        let stretch = self[view]
        self[view].start = nil
        self[view].startEvent = nil
        let limit = context.options.backgroundLimit
        guard let start = stretch.start, let startEvent = stretch.startEvent, end - start > limit, context.checks(Self.rule)
        else { return }
        // A declared continuous background mode (audio, location, ...) keeps the app running legally.
        if context.runsInBackground {
            excusedByBackgroundModes = true
            return
        }
        findings.add(Rule(Self.rule), at: start + limit, witnesses: [startEvent] + (endEvent.map { [$0] } ?? [])) {
            let viewText = view == .system ? "the system view" : "its callbacks (no state events)"
            return "The app ran in Background with no background task open from \(context.when(start)) to "
                + "\(context.when(end)) (\(context.duration(end - start)), by \(viewText)); expected at "
                + "most \(context.duration(limit)) before suspension unless a background task is open."
        }
    }
}
