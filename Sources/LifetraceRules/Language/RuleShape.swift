import LifetraceAnalysis
import LifetraceFormat

/// Where a rule is judged: the stretches of each lifetime it looks at (docs/RULES.md, "Scopes").
public enum RuleScope: Sendable, Hashable {
    /// The whole lifetime.
    case lifetime
    /// The launch window: from the launch to its end.
    case launch
    /// Each stretch in which the effective state is one of `states` (`foreground` is Inactive
    /// or Active as one stretch).
    case states(Set<LifecycleState>)
    /// From each match of `from` to the next match of `to` (or the lifetime's end).
    case between(from: Selector, to: Selector?)

    /// The scope as written.
    public var text: String {
        switch self {
        case .lifetime: "lifetime"
        case .launch: "launch"
        case .states(let states):
            states == [.inactive, .active] ? "foreground" : states.map(\.ruleWord).sorted().joined(separator: ", ")
        case .between(let from, let to): "from \(from)" + (to.map { " to \($0)" } ?? " to the lifetime's end")
        }
    }
}

/// An interval whose length `max-duration` limits.
public enum RuleInterval: Sendable, Hashable {
    /// A callback (begin to end on the same thread) whose name matches.
    case callback(NamePattern)
    /// A signpost (begin to end on the same thread, same id) whose name matches.
    case signpost(NamePattern)
    /// A background task (begin to end, by id) whose name matches.
    case bgtask(NamePattern)
    /// A main-thread stall.
    case stall
    /// The launch window.
    case launch
    /// A stretch in the state.
    case state(LifecycleState)

    /// The interval as written.
    public var text: String {
        switch self {
        case .callback(let name): "callback \(name)"
        case .signpost(let name): "signpost \(name)"
        case .bgtask(let name): "bgtask \(name)"
        case .stall: "stall"
        case .launch: "launch"
        case .state(let state): "state \(state.ruleWord)"
        }
    }
}

/// What a rule requires of each stretch of its scope (docs/RULES.md, "Patterns").
public enum RulePattern: Sendable, Hashable {
    /// No match at all.
    case never(Selector)
    /// At least one match.
    case require(Selector)
    /// No `then` before a `first`.
    case precedence(first: Selector, then: Selector)
    /// Each `after` followed by an `expect`, within `within` ns when given.
    case response(after: Selector, expect: Selector, within: Int64?)
    /// No interval longer than `limit` ns.
    case maxDuration(of: RuleInterval, limit: Int64)
    /// At most `limit` matches.
    case maxCount(of: Selector, limit: Int)
}

/// A rule read from a rule file, ready to be checked.
public struct FileRule: Sendable {
    /// The rule's identity, as reports name it.
    public let rule: Rule
    /// Where it is judged.
    public let scope: RuleScope
    /// What it requires.
    public let pattern: RulePattern
}
