import LifecycleModel

/// The rule a violation breaks: one of the built-in rules, or a rule from a team's rule file.
///
/// Both kinds are reported the same way in every output (text, JSON, JUnit, GitHub annotations,
/// the HTML page, the exports) and obey `--only`, `--disable` and `--strict` alike. A built-in
/// rule is a plain value; a rule from a file carries its ``RuleDefinition``. Equality and hashing
/// use the rule's position (``order``) and definition only, so that counting by rule costs no
/// string work.
public struct Rule: Sendable, Hashable, Comparable {
    /// The position among all rules: the built-in rules' table order, then the rules of the
    /// files in the order they were given (from ``RuleDefinition/firstOrder``).
    public let order: Int
    /// The built-in rule, or nil for a rule from a file.
    public let builtIn: BuiltInRule?
    /// Where a rule from a file is written and what it says, or nil for a built-in rule.
    public let definition: RuleDefinition?

    /// The built-in rule `rule`.
    public init(_ rule: BuiltInRule) {
        order = rule.order
        builtIn = rule
        definition = nil
    }

    /// The rule of a rule file described by `definition`.
    public init(_ definition: RuleDefinition) {
        order = definition.order
        builtIn = nil
        self.definition = definition
    }

    /// The built-in rule with this id, or nil.
    public init?(id: String) {
        guard let rule = BuiltInRule(rawValue: id) else { return nil }
        self.init(rule)
    }

    /// The test case JUnit adds for a trace not read whole, beside the rules' own: an id no
    /// rule may take, so that no two test cases of a suite share a name.
    public static let traceIntegrityID = "trace-integrity"

    /// Ids that name something other than a rule in the reports; a rule file may not use them.
    public static let reservedIDs: Set<String> = [traceIntegrityID]

    /// Every built-in rule, in table order.
    public static var allCases: [Rule] { BuiltInRule.allCases.map(Rule.init) }

    /// The rule's id, as written on the command line and in reports.
    public var id: String { builtIn?.rawValue ?? definition?.id ?? "" }

    /// How bad a violation of this rule is.
    public var severity: Severity { builtIn?.severity ?? definition?.severity ?? .error }

    /// One line saying when the rule is violated.
    public var summary: String { builtIn?.summary ?? definition?.summary ?? "" }

    /// The documented fact a built-in rule rests on; nil for a rule from a file.
    public var fact: LifecycleFact? { builtIn?.fact }

    /// Why the rule holds, as printed after a violation's message: the built-in rule's seed
    /// fact, or the rule file's `why` followed by where the rule is written (nil when the file
    /// gives no `why`).
    public var reason: String? {
        if let builtIn { return builtIn.fact.description }
        guard let definition, let why = definition.why else { return nil }
        return "\(why) (\(definition.file):\(definition.line))"
    }

    /// Where a rule from a file is written, `FILE:LINE`; nil for a built-in rule.
    public var location: String? { definition.map { "\($0.file):\($0.line)" } }

    /// Whether this is one of the exclusive lifecycle-ordering rules.
    public var isOrdering: Bool { builtIn?.isOrdering ?? false }

    public static func == (lhs: Rule, rhs: Rule) -> Bool {
        lhs.order == rhs.order && lhs.definition === rhs.definition
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(order) }

    public static func < (lhs: Rule, rhs: Rule) -> Bool { lhs.order < rhs.order }
}

/// The ordering rules by name (`Rule.legalTransition`). The threshold rules have none here, so
/// that a new one is named only in the files of its recipe (CONTRIBUTING.md); tests spell them
/// `Rule(.hang)`, or use the test support's shortcuts.
extension Rule {
    public static var noTerminateWhileSuspended: Rule { Rule(.noTerminateWhileSuspended) }
    public static var silentWhileSuspended: Rule { Rule(.silentWhileSuspended) }
    public static var nothingAfterTerminate: Rule { Rule(.nothingAfterTerminate) }
    public static var sceneConnection: Rule { Rule(.sceneConnection) }
    public static var launchSequence: Rule { Rule(.launchSequence) }
    public static var resignBeforeBackground: Rule { Rule(.resignBeforeBackground) }
    public static var foregroundBeforeActive: Rule { Rule(.foregroundBeforeActive) }
    public static var balancedActivation: Rule { Rule(.balancedActivation) }
    public static var legalTransition: Rule { Rule(.legalTransition) }
    public static var mainThreadCallbacks: Rule { Rule(.mainThreadCallbacks) }
    public static var callbackNesting: Rule { Rule(.callbackNesting) }
    public static var timeOrder: Rule { Rule(.timeOrder) }
}
