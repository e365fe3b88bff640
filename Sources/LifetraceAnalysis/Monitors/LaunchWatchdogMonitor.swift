import LifecycleModel
import LifetraceFormat

/// `launch-watchdog`: the launch window is longer than `--launch-watchdog`, or the process was
/// killed without notice near the limit while still launching (the watchdog's signature), judged
/// on the lifetime's launch window when the lifetime ends.
struct LaunchWatchdogMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.launchWatchdog
    static let edges: RuleEdge.Kinds = .launchWindowEnded

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .launchWindowEnded(let ended) = edge, !ended.window.unknown else { return }
        let (window, exit) = (ended.window, ended.exit)
        let limit = context.options.launchWatchdog
        let length = window.end - window.start
        let resumeText = window.resumed ? " (the user's launch, resumed from the prewarm)" : ""
        if length > limit {
            let witnesses = [window.launchEvent] + ((window.windowEvent ?? exit).map { [$0] } ?? [])
            findings.add(Rule(rule), at: window.start + limit, witnesses: witnesses, overrun: length - limit) {
                let written = context.durations(length, over: limit)
                let launchText = window.inferred ? "the first event (no launch event; launch inferred)" : "launch"
                return "The launch\(resumeText) took \(written.value), from "
                    + "\(window.resumed ? "the resume at \(context.when(window.start))" : launchText) to "
                    + "\(window.abandoned ? "the moment the user left, at \(context.when(window.end))" : window.description) "
                    + "at \(context.when(window.end)); expected it within the watchdog limit of \(written.limit)."
            }
        } else if !window.closed, !window.abandoned, let exit, LifecycleAnalyzer.isKill(exit), length >= limit - limit / 10 {
            // Killed without notice near the watchdog's allowance, still launching: the watchdog's
            // signature ("Addressing watchdog terminations"), not only a stall.
            findings.add(Rule(rule), at: window.end, witnesses: [window.launchEvent, exit]) {
                "The process was killed at \(context.when(window.end)), \(context.duration(length)) into a "
                    + "launch\(resumeText) that never reached "
                    + "\(window.kind == .background ? "the end of didFinishLaunching" : "its first frame or activation")"
                    + ": a watchdog termination (Apple, Addressing watchdog terminations: the launch allowance is about "
                    + "20 s); expected the launch within the watchdog limit of \(context.duration(limit))."
            }
        }
    }
}
