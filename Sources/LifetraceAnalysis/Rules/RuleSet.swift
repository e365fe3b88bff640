/// A set of built-in rules as a bit mask, so that asking whether a rule is on costs nothing per
/// event. The rules of rule files are selected by the rules module, by id.
public struct RuleSet: OptionSet, Sendable, Hashable {
    /// One bit per rule, by its position in ``Rule/allCases``.
    public var rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The set holding `rule` only (empty for a rule from a file).
    public init(_ rule: Rule) { self.rawValue = rule.builtIn.map { 1 << UInt32($0.order) } ?? 0 }

    /// The set holding `rules`.
    public init(_ rules: some Sequence<Rule>) {
        self.rawValue = 0
        for rule in rules { insert(RuleSet(rule)) }
    }

    /// Every built-in rule.
    public static let all = RuleSet(Rule.allCases)

    /// Whether `rule` is in the set.
    @inlinable
    public func contains(_ rule: Rule) -> Bool {
        guard let builtIn = rule.builtIn else { return false }
        return rawValue & (1 << UInt32(builtIn.order)) != 0
    }

    /// The rules in the set, in table order.
    public var rules: [Rule] { Rule.allCases.filter { contains($0) } }
}
