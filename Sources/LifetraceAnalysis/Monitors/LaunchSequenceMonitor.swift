import LifecycleModel
import LifetraceFormat

/// `launch-sequence`: the launch sequence's verdict that willFinishLaunching and
/// didFinishLaunching are not the first app-delegate lifecycle callbacks, not in that order, or
/// repeated.
struct LaunchSequenceMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.launchSequence
    static let edges: RuleEdge.Kinds = .launchOutOfSequence

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .launchOutOfSequence(let verdict) = edge else { return }
        let event = verdict.event
        findings.add(Rule(rule), at: event.timestamp, witnesses: [verdict.witness, event].compactMap { $0 }) {
            "\(verdict.callback.rawValue) began at \(context.when(event.timestamp)): \(words(verdict.problem)); "
                + "expected willFinishLaunching then didFinishLaunching, once each, before any other "
                + "app-delegate lifecycle callback."
        }
    }

    /// What is wrong, in words.
    private static func words(_ problem: LaunchSequence.Problem) -> String {
        switch problem {
        case .willFinishLaunchingAgain: "it already came, or the launch had moved past it"
        case .willFinishLaunchingMissing: "willFinishLaunching did not come before it"
        case .didFinishLaunchingAgain: "it already came, or another lifecycle callback came before it"
        case .didFinishLaunchingNotYet: "didFinishLaunching had not come yet"
        }
    }
}
