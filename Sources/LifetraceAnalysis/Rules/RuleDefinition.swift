/// A rule written in a rule file (docs/RULES.md): its id, severity and sentences, and where it
/// is written. What the rule checks is compiled by the rules module; reports need only this.
public final class RuleDefinition: Sendable {
    /// The position of the first rule from a file among all rules: after every built-in rule.
    public static let firstOrder = 1000

    /// The rule's id (`[a-z][a-z0-9-]*`, unique over the built-in rules and every file).
    public let id: String
    /// How bad a violation is.
    public let severity: Severity
    /// One line saying when the rule is violated: the file's `message`, or one made from the
    /// rule's pattern and scope.
    public let summary: String
    /// The team's own sentence, printed with each violation (`message`), or nil.
    public let message: String?
    /// Why the rule holds (`why`), printed where built-in rules print their seed fact, or nil.
    public let why: String?
    /// The rule file, as the user named it.
    public let file: String
    /// The line of the rule's entry in the file (1-based).
    public let line: Int
    /// The rule's position among all rules (``firstOrder`` and up, in the order of the files).
    public let order: Int

    /// Creates a definition.
    public init(
        id: String, severity: Severity, summary: String, message: String?, why: String?, file: String,
        line: Int, order: Int
    ) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.message = message
        self.why = why
        self.file = file
        self.line = line
        self.order = order
    }
}
