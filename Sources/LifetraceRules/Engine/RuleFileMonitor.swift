import LifetraceAnalysis
import LifetraceFormat

/// Checks the rules of rule files on one trace, as the analyzer replays it: the
/// ``RuleMonitor`` the analyzer owns when ``AnalysisOptions/userRules`` is set.
///
/// Memory is bounded by the rules, never by the trace: per rule one open stretch and the one
/// before it, at most ``RuleCheck/intervalLimit`` intervals and ``Stretch/pendingLimit``
/// unanswered `after`s, and a name cache per symbol of the trace.
final class RuleFileMonitor: RuleMonitor {
    /// Everything the monitor changes while it takes edges, in one value behind a pointer the
    /// monitor owns: reached without the run-time exclusivity checks of a class's properties,
    /// which would cost more than the rules' own work on each edge.
    private struct State {
        var checks: [RuleCheck]
        var adapter = EdgeSteps()
        var interest: Interest
    }

    private let state: UnsafeMutablePointer<State>
    /// The occurrence kinds any rule looks at.
    private let kinds: UInt32
    let looksAtFrames: Bool
    /// Per ``NamedKind``: the names its selectors and intervals look for, or nil when one
    /// takes any name.
    private let names: [[NamePattern]?]

    init(rules: [FileRule]) {
        let checks = rules.map(RuleCheck.init)
        state = .allocate(capacity: 1)
        state.initialize(to: State(checks: checks, interest: Interest(checks)))
        kinds = checks.reduce(0) { $0 | $1.kinds }
        looksAtFrames = kinds & OccurrenceKind.frame.bit != 0
        var names = [[NamePattern]?](repeating: [], count: NamedKind.allCases.count)
        for check in checks {
            for (kinds, name) in check.rule.looks {
                for kind in NamedKind.allCases where kinds & kind.occurrences != 0 {
                    if let name { names[kind.rawValue]?.append(name) } else { names[kind.rawValue] = nil }
                }
            }
        }
        self.names = names
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Whether any rule looks at `kind` named `name` (the analyzer remembers the answer).
    func looks(at kind: NamedKind, named name: Symbol, symbols: SymbolTable) -> Bool {
        guard kinds & kind.occurrences != 0 else { return false }
        guard let patterns = names[kind.rawValue] else { return true }
        guard let text = symbols.string(name) else { return false }
        return patterns.contains { $0.matches(text) }
    }

    func take(_ edges: ArraySlice<LifecycleEdge>, cause: TraceEvent, symbols: SymbolTable, findings: inout RuleFindings) {
        let kinds = self.kinds
        let state = self.state
        state.pointee.adapter.steps(edges, cause: cause) { step in
            switch step {
            case .occurrence(let occurrence), .intervalEnded(let occurrence):
                let bit = occurrence.kind.bit
                guard kinds & bit != 0 else { return }
                // Only the rules a selector of which can match the occurrence's kind and name.
                var concerned = state.pointee.interest.checks(occurrence, symbols: symbols)
                while concerned != 0 {
                    let index = concerned.trailingZeroBitCount
                    concerned &= concerned - 1
                    state.pointee.checks[index].take(step, symbols: symbols, findings: &findings)
                }
                if state.pointee.checks.count > Interest.limit {
                    for index in Interest.limit..<state.pointee.checks.count where state.pointee.checks[index].kinds & bit != 0 {
                        state.pointee.checks[index].take(step, symbols: symbols, findings: &findings)
                    }
                }
            default:
                for index in state.pointee.checks.indices {
                    state.pointee.checks[index].take(step, symbols: symbols, findings: &findings)
                }
            }
        }
    }
}

/// Which rules an occurrence can concern, by its kind and name: a rule none of whose selectors
/// (and no `max-duration` interval) takes that kind with that name is not handed it, as it could
/// do nothing with it. Names are matched once per kind and symbol of the trace.
struct Interest {
    /// The rules followed one by one, as bits of a mask; those beyond are handed every
    /// occurrence of a kind they look at.
    static let limit = 63
    /// Per kind: the rules that look at it with any name.
    private var anyName: [UInt64]
    /// Per kind: the rules that look at it with a name pattern, and the pattern.
    private var named: [[(check: Int, name: NamePattern)]]
    /// Per kind, per symbol: the rules concerned, with bit 63 set once known (0: not asked yet).
    private var known: [[UInt64]]

    init(_ checks: [RuleCheck]) {
        let kindCount = OccurrenceKind.allCases.count
        anyName = Array(repeating: 0, count: kindCount)
        named = Array(repeating: [], count: kindCount)
        known = Array(repeating: [], count: kindCount)
        for (index, check) in checks.enumerated().prefix(Self.limit) {
            for (kinds, name) in check.rule.looks {
                for kind in OccurrenceKind.allCases where kinds & kind.bit != 0 {
                    if let name, kind.takesName, kind != .state {
                        named[Int(kind.rawValue)].append((index, name))
                    } else {
                        anyName[Int(kind.rawValue)] |= 1 << UInt64(index)
                    }
                }
            }
        }
    }

    /// The rules concerned by `occurrence`, a bit each.
    mutating func checks(_ occurrence: Occurrence, symbols: SymbolTable) -> UInt64 {
        let kind = Int(occurrence.kind.rawValue)
        guard !named[kind].isEmpty else { return anyName[kind] }
        let symbol = Int(occurrence.name.rawValue)
        if symbol < known[kind].count, known[kind][symbol] != 0 { return known[kind][symbol] & ~(1 << 63) }
        var mask = anyName[kind]
        let text = symbols.string(occurrence.name)
        for (check, name) in named[kind] where text.map(name.matches) ?? false { mask |= 1 << UInt64(check) }
        // Symbols are small dense numbers; past a million names the question is asked each time.
        if symbol < 1 << 20 {
            if symbol >= known[kind].count { known[kind] += [UInt64](repeating: 0, count: symbol + 1 - known[kind].count) }
            known[kind][symbol] = mask | 1 << 63
        }
        return mask
    }
}

extension NamedKind {
    /// The occurrence kinds of this kind of named thing.
    var occurrences: UInt32 {
        switch self {
        case .callback: OccurrenceKind.callback.bit | OccurrenceKind.callbackEnd.bit
        case .signpost: OccurrenceKind.signpost.bit | OccurrenceKind.signpostEnd.bit
        case .mark: OccurrenceKind.mark.bit
        case .backgroundTask: OccurrenceKind.bgtaskBegin.bit | OccurrenceKind.bgtaskEnd.bit | OccurrenceKind.bgtaskExpire.bit
        }
    }
}

extension FileRule {
    /// What the rule looks at: the kinds of each of its selectors (the pattern's and the scope's)
    /// and of its `max-duration` interval, with the name each takes (nil: any).
    var looks: [(kinds: UInt32, name: NamePattern?)] {
        var selectors = self.selectors
        if case .between(let from, let to) = scope { selectors += [from] + (to.map { [$0] } ?? []) }
        var looks = selectors.map { (kinds: $0.kinds, name: $0.name) }
        if case .maxDuration(let interval, _) = pattern {
            switch interval {
            case .callback(let name), .signpost(let name), .bgtask(let name): looks.append((interval.kinds, name))
            case .stall: looks.append((interval.kinds, nil))
            case .launch, .state: break
            }
        }
        return looks
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
