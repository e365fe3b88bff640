import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceTestSupport
import Testing

/// The rule specs (``BuiltInRule/spec``) are the one declaration of each built-in rule: the docs'
/// rule table, the option defaults and the analysis options follow them.
@Suite struct RuleSpecTests {
    private static let repository = SampleTraces.directory.deletingLastPathComponent().deletingLastPathComponent()

    private static func document(_ name: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(name), encoding: .utf8)
    }

    /// The rows of docs/LIFECYCLE.md's rule table: id, severity, the rest of the row.
    private static func lifecycleTable() throws -> [(id: String, severity: String, text: String)] {
        try document("docs/LIFECYCLE.md").split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count == 5, cells[1].hasPrefix("`"), cells[1].hasSuffix("`"),
                Severity(rawValue: cells[2]) != nil
            else { return nil }
            return (String(cells[1].dropFirst().dropLast()), cells[2], cells[3])
        }
    }

    @Test func theDocsTableListsEveryRuleInOrderWithItsSeverity() throws {
        let rows = try Self.lifecycleTable()
        #expect(rows.map(\.id) == BuiltInRule.allCases.map(\.id))
        for (row, rule) in zip(rows, BuiltInRule.allCases) {
            #expect(row.severity == rule.spec.severity.rawValue, "\(rule.id)")
        }
    }

    @Test func theDocsNameEveryOptionWithItsDefault() throws {
        let rows = try Self.lifecycleTable()
        for (row, rule) in zip(rows, BuiltInRule.allCases) {
            for option in rule.spec.options {
                #expect(row.text.contains("`--\(option.name)`"), "\(rule.id) names --\(option.name)")
                // The docs write `20 s` where the help writes `20s`.
                let spaced = option.defaultText.replacingOccurrences(
                    of: "([0-9])([a-z]+)$", with: "$1 $2", options: .regularExpression)
                #expect(row.text.contains(spaced), "\(rule.id) gives the default \(spaced)")
            }
        }
    }

    @Test func everyRuleHasItsSectionInTheDocs() throws {
        let lifecycle = try Self.document("docs/LIFECYCLE.md")
        for rule in BuiltInRule.allCases {
            #expect(lifecycle.contains("### `\(rule.id)` (\(rule.spec.severity.rawValue))"), "\(rule.id)")
        }
    }

    @Test func theRuleFilesDocsTellBuiltInIdsApart() throws {
        // A rule file may not take a built-in id; docs/RULES.md's example of that refusal names one.
        let rules = try Self.document("docs/RULES.md")
        let named = BuiltInRule.allCases.filter { rules.contains("the id \"\($0.id)\" is a built-in rule's") }
        #expect(!named.isEmpty)
    }

    @Test func theOrderIsTheDeclarationOrder() {
        #expect(BuiltInRule.allCases.map(\.order) == Array(BuiltInRule.allCases.indices))
        #expect(BuiltInRule.allCases.filter(\.isOrdering).count == 9)
    }

    @Test func theOptionDefaultsAreTheAnalysisDefaults() {
        let options = AnalysisOptions()
        #expect(options.stallThreshold == RuleOption.stallThreshold.defaultValue)
        #expect(options.launchStallThreshold == BuiltInRule.launchStall.options[0].defaultValue)
        #expect(options.launchWatchdog == BuiltInRule.launchWatchdog.options[0].defaultValue)
        #expect(options.backgroundLimit == BuiltInRule.backgroundTime.options[0].defaultValue)
        #expect(options.hangThreshold == BuiltInRule.hang.options[0].defaultValue)
        #expect(options.backgroundCallbackLimit == BuiltInRule.backgroundCallback.options[0].defaultValue)
        #expect(options.launchWatchdog == 20_000_000_000)
        for rule in BuiltInRule.allCases {
            for option in rule.options { #expect(option.defaultValue > 0, "\(rule.id) --\(option.name)") }
        }
    }
}
