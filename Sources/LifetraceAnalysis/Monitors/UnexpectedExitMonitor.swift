import LifecycleModel
import LifetraceFormat

/// How a lifetime stood when its process exited, as the end-of-lifetime monitors judge it.
struct JudgedEnding {
    /// The state the end is judged in: the trusted view's (the system view's state before a final
    /// move to notRunning), nil when unknown.
    var state: LifecycleState?
    /// Whether willTerminate was delivered.
    var terminating: Bool
    /// The event that moved the trusted view into ``state``: the first witness.
    var stateEvent: TraceEvent?
    /// The last lifecycle callback that began.
    var lastCallback: TraceEvent?
    /// The begins of the callbacks and signposts still open, oldest first.
    var open: [TraceEvent]
    /// Since when the main thread was busy, if it was.
    var busySince: Int64?
    /// The crash signal's name when the process died of one (`SIGSEGV`), else nil.
    var crash: String?
}

/// `unexpected-exit`: the process ended (an `exit` event) while the app was in the foreground
/// (Inactive or Active, by the state the lifetime trusts) and willTerminate was never delivered,
/// or it died of a crash signal in any state (``TerminationSequence/isCrash(signal:platform:)``),
/// judged on the exit.
struct UnexpectedExitMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.unexpectedExit
    static let edges: RuleEdge.Kinds = [.exit, .relaunched]

    /// Whether an ending in `state` (the trusted view's), with or without willTerminate
    /// (`terminating`), can be a finding: a crash in any state, or a foreground app's end without
    /// willTerminate.
    static func canFind(state: LifecycleState?, terminating: Bool, crashed: Bool) -> Bool {
        crashed || endsInForeground(state: state, terminating: terminating)
    }

    /// Whether the app ended in the foreground (by `state`, the trusted view's) without willTerminate.
    static func endsInForeground(state: LifecycleState?, terminating: Bool) -> Bool {
        guard !terminating, let state else { return false }
        return state == .inactive || state == .active
    }

    /// Judges the lifetime's `exit` (an ``EdgePoint`` of kind ``EdgePoint/Kind/exit``), or its end
    /// by a new launch with no exit recorded.
    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        if case .relaunched(let relaunched) = edge {
            judge(relaunched, context: context, findings: &findings)
            return
        }
        guard case .exit(let exit, let ending) = edge,
            canFind(state: ending.state, terminating: ending.terminating, crashed: ending.crash != nil),
            case .exit(let code, let signal) = exit.fact
        else { return }
        let end = exit.timestamp
        if !endsInForeground(state: ending.state, terminating: ending.terminating), let crash = ending.crash, let signal {
            findings.add(Rule(rule), at: end, witnesses: (ending.stateEvent.map { [$0] } ?? []) + [exit.event]) {
                "The process crashed (signal \(signal), \(crash)) at \(context.when(end))"
                    + (ending.state.map { " while the app was \($0.name)" } ?? "")
                    + (ending.terminating ? ", during its termination" : "")
                    + mainThreadFacts(ending, context: context)
                    + "; expected no crash, in the foreground or in the background (crashes are the first "
                    + "cause of terminations in the background, Apple WWDC20 10078)."
            }
            return
        }
        guard let state = ending.state else { return }
        findings.add(Rule(rule), at: end, witnesses: (ending.stateEvent.map { [$0] } ?? []) + [exit.event]) {
            let how: String
            if let signal {
                how = "was killed by signal \(signal)"
            } else if code == nil {
                // An `exit` with neither code nor signal is inferred (`lifetrace recover`, or another
                // recorder that saw the process vanish): the process was killed without notice.
                how = "ended without notice (the exit is inferred: no code, no signal)"
            } else {
                how = "exited"
            }
            return "The process \(how) at \(context.when(end)) while the app was \(state.name), without willTerminate"
                + mainThreadFacts(ending, context: context) + foregroundExpectation
        }
    }

    /// Judges a lifetime that a new `launch` (`nextLaunch`) ended with no `exit`: the new process
    /// proves the old one ended, without notice, at its last event (`end`): an inferred exit, the
    /// termination crash reporters infer at the next launch (sentry-cocoa
    /// `SentryWatchdogTerminationLogic`, dd-sdk-ios `WatchdogTerminationChecker`, bugsnag-cocoa
    /// `BSGRunContextWasKilled`). Only an end in the foreground without willTerminate is a finding.
    private static func judge(_ relaunched: RelaunchedEnding, context: MonitorContext, findings: inout RuleFindings) {
        let (end, nextLaunch, ending) = (relaunched.end, relaunched.nextLaunch, relaunched.ending)
        guard endsInForeground(state: ending.state, terminating: ending.terminating), let state = ending.state else { return }
        findings.add(Rule(rule), at: end, witnesses: (ending.stateEvent.map { [$0] } ?? []) + [nextLaunch]) {
            "The process ended without notice at \(context.when(end)) (its last event; no exit was recorded, and the "
                + "app launched again at \(context.when(nextLaunch.timestamp))) while the app was \(state.name), "
                + "without willTerminate" + mainThreadFacts(ending, context: context) + foregroundExpectation
        }
    }

    /// What a foreground app's end without willTerminate was expected to be, closing the messages.
    private static let foregroundExpectation =
        "; expected a foreground app to keep running, or to move to Background and be "
        + "terminated from there (a crash, the watchdog or a memory limit ends like this)."

    /// What the main thread was doing when a foreground app ended: its last callback, what was
    /// still open, and whether it was busy and since when (the facts behind a watchdog or memory kill).
    private static func mainThreadFacts(_ ending: JudgedEnding, context: MonitorContext) -> String {
        var facts: [String] = []
        if let last = ending.lastCallback {
            facts.append("the last callback was \(context.describe(last)) at \(context.when(last.timestamp))")
        }
        if let first = ending.open.first {
            facts.append(
                "\(context.describe(first)) had been open since \(context.when(first.timestamp))"
                    + (ending.open.count > 1 ? " (\(ending.open.count - 1) more callbacks or signposts open)" : ""))
        }
        if let since = ending.busySince {
            facts.append("the main thread had been busy since \(context.when(since))")
        }
        return facts.isEmpty ? "" : " (" + facts.joined(separator: "; ") + ")"
    }
}
