import LifecycleModel
import LifetraceFormat

/// `background-callback`: didEnterBackground, sceneDidEnterBackground or willTerminate ran longer
/// than `--background-callback-limit`, judged on each callback interval that ends: when it
/// returns, or when its lifetime ends while it still runs.
struct BackgroundCallbackMonitor: ThresholdMonitor {
    static let rule = BuiltInRule.backgroundCallback

    /// Judges a callback interval that ended at `time`: by its end event `end`, or with its
    /// lifetime (`end` nil). `begin` is its begin event, the first witness.
    static func intervalEnded(
        _ interval: EdgeInterval, at time: Int64, begin: TraceEvent, end: TraceEvent?, context: MonitorContext,
        findings: inout RuleFindings
    ) {
        guard interval.kind == .callback, let callback = context.symbols.callback(interval.name),
            callback == .didEnterBackground || callback == .sceneDidEnterBackground || callback == .willTerminate
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
