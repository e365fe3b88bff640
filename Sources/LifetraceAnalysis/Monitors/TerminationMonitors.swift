import LifecycleModel
import LifetraceFormat

// The monitors of the rules of the termination sequence's verdicts (docs/LIFECYCLE.md, rules 1
// to 3): a suspended app runs no code and gets no willTerminate, and willTerminate is its last word.

/// `no-terminate-while-suspended`: willTerminate delivered while the app was Suspended, as it
/// began or still running when it returned.
struct NoTerminateWhileSuspendedMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.noTerminateWhileSuspended
    static let edges: RuleEdge.Kinds = .terminateWhileSuspended

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .terminateWhileSuspended(let verdict) = edge else { return }
        let event = verdict.event
        findings.add(Rule(rule), at: event.timestamp, witnesses: [verdict.suspension, event].compactMap { $0 }) {
            let suspended = context.when(verdict.suspension?.timestamp ?? event.timestamp)
            return verdict.returned
                ? "willTerminate was still running at \(context.when(event.timestamp)) although the system "
                    + "suspended the app at \(suspended); expected willTerminate only while running in Background."
                : "willTerminate began at \(context.when(event.timestamp)) while the app was Suspended (since "
                    + "\(suspended)); expected a suspended app to be killed without notice."
        }
    }
}

/// `silent-while-suspended`: an app-side event other than willTerminate while Suspended.
struct SilentWhileSuspendedMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.silentWhileSuspended
    static let edges: RuleEdge.Kinds = .activeWhileSuspended

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .activeWhileSuspended(let verdict) = edge else { return }
        let event = verdict.event
        findings.add(Rule(rule), at: event.timestamp, witnesses: [verdict.silencedBy, event].compactMap { $0 }) {
            "\(context.describe(event)) happened at \(context.when(event.timestamp)) while the system view says the "
                + "app is Suspended (since \(context.when(verdict.silencedBy?.timestamp ?? event.timestamp))); "
                + "expected no app activity until the system moves the app back to Background."
        }
    }
}

/// `nothing-after-terminate`: an app-side event after willTerminate returned, in the same lifetime.
struct NothingAfterTerminateMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.nothingAfterTerminate
    static let edges: RuleEdge.Kinds = .activeAfterTerminate

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .activeAfterTerminate(let verdict) = edge else { return }
        let event = verdict.event
        findings.add(Rule(rule), at: event.timestamp, witnesses: [verdict.silencedBy, event].compactMap { $0 }) {
            "\(context.describe(event)) happened at \(context.when(event.timestamp)), after willTerminate returned "
                + "at \(context.when(verdict.silencedBy?.timestamp ?? event.timestamp)); expected nothing more from "
                + "the app in this lifetime."
        }
    }
}
