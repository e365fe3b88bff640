import LifecycleModel
import LifetraceFormat
import LifetraceOutput

// The monitors of the transition rules (docs/LIFECYCLE.md, rules 6 to 9): each looks at the verdict
// edges of one kind of illegal move, as the app delegate's, a scene's or the system view judged it.

/// `resign-before-background`: an Active app or scene moved to Background without passing through
/// Inactive, by a callback or by the system.
struct ResignBeforeBackgroundMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.resignBeforeBackground
    static let edges: RuleEdge.Kinds = .backgroundWithoutResigning

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .transition(let judged) = edge else { return }
        judged.report(rule, context: context, findings: &findings) { _ in
            "a resign-active callback first, so that the move passes through Inactive"
        } system: { _, to in
            "from active to \(to.name)"
        }
    }
}

/// `foreground-before-active`: a Background app or scene became Active without passing through
/// Inactive, by a callback or by the system.
struct ForegroundBeforeActiveMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.foregroundBeforeActive
    static let edges: RuleEdge.Kinds = .activeWithoutForeground

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .transition(let judged) = edge else { return }
        judged.report(rule, context: context, findings: &findings) { _ in
            "an enter-foreground callback first, so that the move passes through Inactive"
        } system: { from, _ in
            "from \(from.name) to active"
        }
    }
}

/// `balanced-activation`: didBecomeActive while Active, or willResignActive while not Active.
struct BalancedActivationMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.balancedActivation
    static let edges: RuleEdge.Kinds = .unbalancedActivation

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .transition(let judged) = edge else { return }
        judged.report(rule, context: context, findings: &findings) { expected in
            "become-active and resign-active to alternate, from \(expected)"
        }
    }
}

/// `legal-transition`: any other lifecycle callback from a state with no such transition.
struct LegalTransitionMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.legalTransition
    static let edges: RuleEdge.Kinds = .noSuchTransition

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .transition(let judged) = edge else { return }
        judged.report(rule, context: context, findings: &findings) { expected in "it only from \(expected)" }
    }
}

extension TransitionJudged {
    /// Adds the violation of `rule` the move is: a callback's message says what `expectation`
    /// expected instead (given the state the callback's transition starts from), a system move's
    /// says the move as `system` writes it (given where from and where to).
    func report(
        _ rule: BuiltInRule, context: MonitorContext, findings: inout RuleFindings,
        expectation: (String) -> String, system: (LifecycleState, LifecycleState) -> String = { _, _ in "" }
    ) {
        findings.add(Rule(rule), at: event.timestamp, witnesses: [witness, event].compactMap { $0 }) {
            let subject = scene.map { "the scene \"\(context.symbols.shown($0) ?? "")\"" } ?? "the app"
            let callback: String
            let state: String
            let expected: String
            switch move {
            case .system(let from, let to):
                return "The system moved \(subject) \(system(from, to)) at \(context.when(event.timestamp)); "
                    + "expected a move to inactive first."
            case .appDelegate(let name, let judgedIn):
                callback = name.rawValue
                state = judgedIn.name
                expected = AppDelegateTransitions.row(for: name)?.from.name ?? ""
            case .sceneDelegate(let name, let judgedIn):
                callback = context.callbackText(event.callbackName, scene: scene ?? .none)
                state = judgedIn.name
                expected = SceneDelegateTransitions.row(for: name)?.from.name ?? ""
            }
            return "\(callback) began at \(context.when(event.timestamp)) while \(subject) was \(state)"
                + (witness.map { " (since \(context.describe($0)) at \(context.when($0.timestamp)))" } ?? "")
                + "; expected \(expectation(expected))."
        }
    }
}
