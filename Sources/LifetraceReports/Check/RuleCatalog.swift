import LifecycleModel
import LifetraceAnalysis

/// The built-in rules as `lifetrace --list-rules` prints them: per rule its id, severity, when it
/// is violated, and the document and section it rests on.
public struct RuleCatalog: Sendable {
    /// The rules listed, in table order.
    public var rules: [Rule]

    /// A catalog of `rules` (every built-in rule by default).
    public init(rules: [Rule] = Rule.allCases) { self.rules = rules }

    /// One block per rule: `id (severity): summary`, then its source, indented.
    public var text: String {
        var output = ""
        for rule in rules {
            output += "\(rule.id) (\(rule.severity.rawValue)): \(rule.summary)\n"
            output += "    source: \(rule.fact.source)\(rule.fact.isTranslation ? " (quoted in translation)" : "")\n"
        }
        return output
    }
}
