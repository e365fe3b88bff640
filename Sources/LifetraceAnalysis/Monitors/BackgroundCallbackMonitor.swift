import LifecycleModel
import LifetraceFormat

/// `background-callback`: didEnterBackground, sceneDidEnterBackground or willTerminate ran longer
/// than `--background-callback-limit`, judged on each callback interval that ends: when it
/// returns, or when its lifetime ends while it still runs; and the main thread kept busy past
/// the same limit once the app left the foreground, inside those callbacks or not (observers of
/// `didEnterBackgroundNotification` run outside them).
struct BackgroundCallbackMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.backgroundCallback
    static let edges: RuleEdge.Kinds = [.callbackEnded, .busyAfterLeavingForeground]

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        switch edge {
        case .callbackEnded(let ended): callbackEnded(ended, context: context, findings: &findings)
        case .busyAfterLeavingForeground(let busy): mainThreadBlocked(busy, context: context, findings: &findings)
        default: break
        }
    }

    /// Whether `callback` is one of the callbacks the rule times.
    static func judges(_ callback: CallbackName) -> Bool {
        callback == .didEnterBackground || callback == .sceneDidEnterBackground || callback == .willTerminate
    }

    /// Judges a main-thread busy interval that went on past the limit after the app left the
    /// foreground: work on the main thread during the move to the background is held to the
    /// system's limit wherever it runs, and the system ends an app whose main thread is stuck
    /// there ("scene-update watchdog", firebase-ios-sdk issue 3759). A timed callback that
    /// overran in it, or that is still open past the limit, is judged itself instead.
    private static func mainThreadBlocked(
        _ busy: BusyAfterLeavingForeground, context: MonitorContext, findings: inout RuleFindings
    ) {
        guard !busy.foundInCallbacks.contains(Rule(rule)) else { return }
        let limit = context.options.backgroundCallbackLimit
        for open in busy.openCallbacks where busy.time &- open.begin.timestamp > limit {
            if let callback = context.symbols.callback(open.name), judges(callback) { return }
        }
        let (busySince, movedAt, time, unfinished) = (busy.busySince, busy.movedAt, busy.time, busy.unfinished)
        let duration = time - movedAt
        guard duration > limit else { return }
        findings.add(Rule(rule), at: movedAt + limit, witnesses: [busy.opening], overrun: duration - limit) {
            let written = context.durations(duration, over: limit)
            return "The main thread, busy since \(context.when(busySince)), was still busy \(written.value) after the app "
                + "left the foreground at \(context.when(movedAt)), "
                + (unfinished ? "until the process ended at \(context.when(time))" : "until \(context.when(time))")
                + "; expected the move to the background to leave the main thread within \(written.limit) (work "
                + "there, in a callback or in an observer of didEnterBackgroundNotification, belongs in a background "
                + "task), or the system ends the app."
        }
    }

    /// Judges a callback interval that ended: by its end event, or with its lifetime.
    private static func callbackEnded(_ ended: CallbackEnded, context: MonitorContext, findings: inout RuleFindings) {
        let (interval, time, begin, end) = (ended.interval, ended.time, ended.begin, ended.end)
        guard interval.kind == .callback, let callback = context.symbols.callback(interval.name), judges(callback)
        else { return }
        let limit = context.options.backgroundCallbackLimit
        let duration = time - interval.begin
        guard duration > limit else { return }
        findings.add(
            Rule(rule), at: interval.begin + limit, witnesses: [begin] + (end.map { [$0] } ?? []), overrun: duration - limit
        ) {
            let text = context.callbackText(interval.name, scene: interval.scene)
            let written = context.durations(duration, over: limit)
            let ran = end == nil
                ? "was still running when the process ended at \(context.when(time)), \(written.value) after it began"
                : "ran for \(written.value), returning at \(context.when(time))"
            // willTerminate has the same five seconds: "Your implementation of this method has
            // approximately five seconds to perform any tasks and return. If the method does not
            // return before time expires, the system may kill the process altogether"
            // (applicationWillTerminate(_:), Discussion).
            let expected = callback == .willTerminate
                ? "(applicationWillTerminate(_:) has approximately five seconds), or the system kills the process"
                : "(longer work belongs in a background task), or the system terminates the app"
            return "\(text) began at \(context.when(interval.begin)) and \(ran); expected it to return within "
                + "\(written.limit) \(expected)."
        }
    }
}
