import LifetraceAnalysis
import LifetraceFormat

/// Checks the rules of rule files on one trace, as the analyzer replays it: the
/// ``RuleMonitor`` the analyzer owns when ``AnalysisOptions/userRules`` is set.
///
/// Memory is bounded by the rules, never by the trace: per rule one open stretch and the one
/// before it, at most ``RuleCheck/intervalLimit`` intervals and ``Stretch/pendingLimit``
/// unanswered `after`s, and a name cache per symbol of the trace.
final class RuleFileMonitor: RuleMonitor {
    private var checks: [RuleCheck]
    /// The occurrence kinds any rule looks at.
    private let kinds: UInt32
    /// Turns the analyzer's edges into the engine's steps.
    private var adapter = EdgeSteps()
    let looksAtFrames: Bool
    /// The names signpost selectors and intervals look for, or nil when one takes any name.
    private let signpostNames: [NamePattern]?

    init(rules: [FileRule]) {
        checks = rules.map(RuleCheck.init)
        kinds = checks.reduce(0) { $0 | $1.kinds }
        looksAtFrames = kinds & OccurrenceKind.frame.bit != 0
        var names: [NamePattern]? = []
        for check in checks {
            var selectors = check.rule.selectors
            if case .between(let from, let to) = check.rule.scope { selectors += [from] + (to.map { [$0] } ?? []) }
            for selector in selectors where selector.kind == .signpost || selector.kind == .signpostEnd {
                if let name = selector.name { names?.append(name) } else { names = nil }
            }
            if case .maxDuration(.signpost(let name), _) = check.rule.pattern { names?.append(name) }
        }
        signpostNames = names
    }

    /// Whether any rule looks at signposts named `name` (the analyzer remembers the answer).
    func looksAtSignpost(named name: Symbol, symbols: SymbolTable) -> Bool {
        guard kinds & (OccurrenceKind.signpost.bit | OccurrenceKind.signpostEnd.bit) != 0 else { return false }
        guard let patterns = signpostNames else { return true }
        let text = symbols.string(name) ?? ""
        return patterns.contains { $0.matches(text) }
    }

    func take(_ edges: ArraySlice<LifecycleEdge>, cause: TraceEvent, symbols: SymbolTable, findings: inout RuleFindings) {
        adapter.steps(edges, cause: cause) { step in
            switch step {
            case .occurrence(let occurrence), .intervalEnded(let occurrence):
                let bit = occurrence.kind.bit
                guard kinds & bit != 0 else { return }
                for index in checks.indices where checks[index].kinds & bit != 0 {
                    checks[index].take(step, symbols: symbols, findings: &findings)
                }
            default:
                for index in checks.indices { checks[index].take(step, symbols: symbols, findings: &findings) }
            }
        }
    }
}

extension UserRules {
    /// The rules of rule files, with those `enabled` checked (all by default).
    public init(_ rules: [FileRule], enabled: Set<Rule>? = nil) {
        let enabled = enabled ?? Set(rules.map(\.rule))
        let checked = rules.filter { enabled.contains($0.rule) }
        self.init(rules: rules.map(\.rule), enabled: enabled) { RuleFileMonitor(rules: checked) }
    }
}
