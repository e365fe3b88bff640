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
        var adapter = EdgeSteps()
        var interest: Interest
    }

    private let state: UnsafeMutablePointer<State>
    /// The rules at work, in order, in a buffer the monitor owns: a rule is reached without the
    /// uniqueness check of an array's element.
    private let checks: UnsafeMutableBufferPointer<RuleCheck>
    /// The occurrence kinds any rule looks at.
    private let kinds: UInt32
    let looksAtFrames: Bool

    init(rules: [FileRule]) {
        var checks = rules.map(RuleCheck.init)
        state = .allocate(capacity: 1)
        state.initialize(to: State(interest: Interest(&checks)))
        for index in checks.indices { checks[index].compile() }
        self.checks = .allocate(capacity: checks.count)
        _ = self.checks.initialize(from: checks)
        kinds = checks.reduce(0) { $0 | $1.kinds }
        looksAtFrames = kinds & OccurrenceKind.frame.bit != 0
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        checks.deinitialize()
        checks.deallocate()
    }

    /// Whether any rule looks at `kind` named `name` (the analyzer remembers the answer).
    func looks(at kind: NamedKind, named name: Symbol, symbols: SymbolTable) -> Bool {
        guard kinds & kind.occurrences != 0 else { return false }
        return state.pointee.interest.looks(at: kind, named: name, symbols: symbols)
    }

    func take(_ edges: ArraySlice<LifecycleEdge>, cause: TraceEvent, symbols: SymbolTable, findings: inout RuleFindings) {
        let state = self.state
        let checks = self.checks
        let kinds = self.kinds
        withUnsafeMutablePointer(to: &findings) { findings in
            withUnsafeMutablePointer(to: &state.pointee.interest) { interest in
                var taker = Taker(checks: checks, interest: interest, kinds: kinds, symbols: symbols, findings: findings)
                state.pointee.adapter.steps(edges, cause: cause, into: &taker)
            }
        }
    }

    /// Hands each step to the rules it concerns.
    private struct Taker: RuleStepTaker {
        let checks: UnsafeMutableBufferPointer<RuleCheck>
        let interest: UnsafeMutablePointer<Interest>
        let kinds: UInt32
        let symbols: SymbolTable
        let findings: UnsafeMutablePointer<RuleFindings>

        /// Every rule takes the steps that are not occurrences.
        func take(_ step: RuleStep) {
            for index in checks.indices {
                checks[index].take(step, symbols: symbols, findings: &findings.pointee)
            }
        }

        /// Only the rules a selector of which can match the occurrence's kind and name.
        func take(_ occurrence: inout Occurrence) {
            guard kinds & occurrence.kind.bit != 0 else { return }
            let concerned = interest.pointee.checks(&occurrence, symbols: symbols)
            for index in concerned {
                checks[Int(index)].take(occurrence, symbols: symbols, findings: &findings.pointee)
            }
        }

        func takeIntervalEnd(_ occurrence: inout Occurrence) {
            guard kinds & occurrence.kind.bit != 0 else { return }
            let concerned = interest.pointee.checks(&occurrence, symbols: symbols)
            for index in concerned {
                checks[Int(index)].takeIntervalEnd(occurrence, symbols: symbols, findings: &findings.pointee)
            }
        }
    }
}

/// Which rules an occurrence can concern, by its kind and name: a rule none of whose selectors
/// (and no `max-duration` interval) takes that kind with that name is not handed it, as it could
/// do nothing with it. Names are matched once per group and symbol of the trace, by the
/// ``NameIndex`` shared by all rules; the rules concerned are remembered per kind and answer.
struct Interest {
    /// The compiled name patterns of every rule.
    private var index = NameIndex()
    /// Per kind: the rules that look at it with any name, in order.
    private var anyName: [[Int32]]
    /// Per group: whether a rule looks at its kinds with any name.
    private var anyNameInGroup: [Bool]
    /// Per pattern id: the rules that use it, and the kinds they look at with it.
    private var users: [[(check: Int32, kinds: UInt32)]] = []
    /// The rules concerned, per kind and answer of the index (`kind << 32 | answer`).
    private var concerned: [UInt64: [Int32]] = [:]
    /// The rule numbers the remembered lists hold together.
    private var concernedStored = 0
    /// The most rule numbers the remembered lists hold together (4 MiB); past it a list is
    /// worked out again each time.
    static let concernedLimit = 1 << 20

    /// Compiles the names of `checks` and gives each its pattern ids.
    init(_ checks: inout [RuleCheck]) {
        anyName = Array(repeating: [], count: OccurrenceKind.allCases.count)
        anyNameInGroup = Array(repeating: false, count: NameIndex.Group.allCases.count)
        for number in checks.indices {
            for look in checks[number].rule.looks {
                for kind in OccurrenceKind.allCases where look.kinds & kind.bit != 0 {
                    if let name = look.name, let group = NameIndex.Group(kind) {
                        let id = index.id(name, in: group)
                        checks[number].patternIDs[look.slot] = id
                        if users.count <= Int(id) { users += Array(repeating: [], count: Int(id) + 1 - users.count) }
                        if let at = users[Int(id)].firstIndex(where: { $0.check == Int32(number) }) {
                            users[Int(id)][at].kinds |= kind.bit
                        } else {
                            users[Int(id)].append((Int32(number), kind.bit))
                        }
                    } else {
                        if anyName[Int(kind.rawValue)].last != Int32(number) { anyName[Int(kind.rawValue)].append(Int32(number)) }
                        if let group = NameIndex.Group(kind) { anyNameInGroup[group.rawValue] = true }
                    }
                }
                if let scene = look.scene {
                    checks[number].patternIDs[look.slot + 4] = index.id(scene, in: .scene)
                }
            }
        }
    }

    /// Whether a rule looks at `kind` named `name`.
    mutating func looks(at kind: NamedKind, named name: Symbol, symbols: SymbolTable) -> Bool {
        let group = NameIndex.Group(kind)
        if anyNameInGroup[group.rawValue] { return true }
        return !index.matches(name, in: group, symbols: symbols).0.isEmpty
    }

    /// The rules concerned by `occurrence`, in order, after setting the patterns its name and
    /// scene match.
    mutating func checks(_ occurrence: inout Occurrence, symbols: SymbolTable) -> [Int32] {
        let kind = occurrence.kind
        guard let group = NameIndex.Group(kind) else { return anyName[Int(kind.rawValue)] }
        if !occurrence.scene.isNone { occurrence.scenes = index.matches(occurrence.scene, in: .scene, symbols: symbols).0 }
        let (matches, answer) = index.matches(occurrence.name, in: group, symbols: symbols)
        occurrence.names = matches
        let key = UInt64(kind.rawValue) << 32 | UInt64(answer ?? 0)
        if let answer, let known = concerned[key] ?? (answer == 0 ? anyName[Int(kind.rawValue)] : nil) { return known }
        var list = anyName[Int(kind.rawValue)]
        for id in matches.all {
            for user in users[Int(id)] where user.kinds & kind.bit != 0 { list.append(user.check) }
        }
        list.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(list.count)
        for check in list where unique.last != check { unique.append(check) }
        if answer != nil, concernedStored + unique.count + 1 <= Self.concernedLimit {
            concerned[key] = unique
            concernedStored += unique.count + 1
        }
        return unique
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
    var looks: [(kinds: UInt32, name: NamePattern?, scene: NamePattern?, slot: Int)] {
        var looks = selectors.enumerated().map { (kinds: $1.kinds, name: $1.name, scene: $1.scene, slot: $0) }
        if case .between(let from, let to) = scope {
            looks.append((from.kinds, from.name, from.scene, 2))
            if let to { looks.append((to.kinds, to.name, to.scene, 3)) }
        }
        if case .maxDuration(let interval, _) = pattern {
            switch interval {
            case .callback(let name), .signpost(let name), .bgtask(let name): looks.append((interval.kinds, name, nil, 0))
            case .stall: looks.append((interval.kinds, nil, nil, 0))
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
