import Foundation
import LifetraceAnalysis
import LifetraceRules
import Testing

/// A bad rule file is refused with `FILE:LINE:COLUMN: what is wrong`.
struct RuleFileParserTests {
    static func error(_ yaml: String) -> String? {
        do {
            _ = try RuleFileParser.parse(yaml: yaml, file: "team.yml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func yamlError() {
        #expect(Self.error("rules:\n  - id: a\n    never: [mark\n")?.hasPrefix("team.yml:4:1: not YAML: ") == true)
    }

    @Test func unknownKeyAndKind() {
        #expect(Self.error("rules:\n  - id: a\n    nevr: mark x\n")
            == "team.yml:3:5: unknown key `nevr` in a rule; expected `id`, `severity`, `scope`, `message`, `why`, `never`, "
            + "`require`, `precedence`, `response`, `max-duration`, `max-count`")
        #expect(Self.error("rules:\n  - id: a\n    never: marks x\n")?.hasPrefix("team.yml:3:12: `never`: unknown kind \"marks\"; the kinds are callback,") == true)
        #expect(Self.error("rules:\n  - id: a\n    scope: daytime\n    never: mark x\n")?.hasPrefix("team.yml:3:12: unknown scope \"daytime\"") == true)
    }

    @Test func twoPatternsOrNone() {
        #expect(Self.error("rules:\n  - id: a\n    never: mark x\n    require: mark y\n")
            == "team.yml:4:14: the rule \"a\" has two patterns (never and require); give exactly one")
        #expect(Self.error("rules:\n  - id: a\n    scope: active\n")
            == "team.yml:2:5: the rule \"a\" has no pattern; give one of never, require, precedence, response, max-duration, max-count")
    }

    @Test func badDuration() {
        #expect(Self.error("rules:\n  - id: a\n    max-duration: {of: stall, limit: 5 seconds}\n")?
            .hasPrefix("team.yml:3:38: `limit`: ") == true)
        #expect(Self.error("rules:\n  - id: a\n    response: {after: mark a, expect: mark b, within: soon}\n")?
            .hasPrefix("team.yml:3:55: `within`: ") == true)
    }

    @Test func duplicateAndBuiltInIDs() {
        #expect(Self.error("rules:\n  - id: a\n    never: mark x\n  - id: a\n    never: mark y\n")
            == "team.yml:4:9: the id \"a\" is used by another rule")
        #expect(Self.error("rules:\n  - id: hang\n    never: mark x\n") == "team.yml:2:9: the id \"hang\" is a built-in rule's")
        #expect(Self.error("rules:\n  - id: Bad_Id\n    never: mark x\n") == "team.yml:2:9: the id \"Bad_Id\" is not of the form [a-z][a-z0-9-]*")
        // Unique over every file given, too.
        let first = try? RuleFileParser.parse(yaml: "rules:\n  - id: a\n    never: mark x\n", file: "one.yml")
        #expect(throws: RuleFileError(file: "two.yml", line: 2, column: 9, "the id \"a\" is used by another rule")) {
            try RuleFileParser.parse(yaml: "rules:\n  - id: a\n    never: mark y\n", file: "two.yml", after: first ?? [])
        }
    }

    @Test func maxDurationOfSomethingThatIsNotAnInterval() {
        #expect(Self.error("rules:\n  - id: a\n    max-duration: {of: mark x, limit: 1s}\n")
            == "team.yml:3:24: `of`: \"mark x\" is not an interval; max-duration takes callback NAME, signpost NAME, "
            + "bgtask NAME, stall, launch or state NAME")
    }

    @Test func globInAPlaceThatTakesNone() {
        #expect(Self.error("rules:\n  - id: a\n    never: state back*\n") == "team.yml:3:12: `never`: a glob in a place that takes none: state back*")
        #expect(Self.error("rules:\n  - id: a\n    max-duration: {of: state back*, limit: 1s}\n")
            == "team.yml:3:24: `of`: a glob in a place that takes none: state back*")
    }

    @Test func aGoodFile() throws {
        let rules = try RuleFileParser.parse(
            yaml: "rules:\n  - id: a\n    severity: warning\n    scope: {from: callback didEnterBackground, to: state suspended}\n"
                + "    require: signpost save-state\n    why: a suspended app may be purged without notice\n",
            file: "team.yml")
        #expect(rules.count == 1)
        #expect(rules[0].rule.id == "a")
        #expect(rules[0].rule.severity == .warning)
        #expect(rules[0].rule.location == "team.yml:2")
        #expect(rules[0].rule.reason == "a suspended app may be purged without notice (team.yml:2)")
    }
}
