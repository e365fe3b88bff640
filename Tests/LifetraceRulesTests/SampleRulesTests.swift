import Foundation
import LifetraceAnalysis
import LifetraceRules
import LifetraceRunner
import Testing

/// The team's sample rule file: each rule has a passing and a failing trace under
/// `Samples/rules/traces/`.
struct SampleRulesTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/rules")

    static func load(_ name: String) throws -> [FileRule] {
        try RuleFileParser.load(paths: [directory.appendingPathComponent(name).path])
    }

    static let teamRules = (try? load("team.yml").map(\.rule.id)) ?? []

    /// The ids of the rules of `file` that `trace` breaks (the built-in rules off).
    static func violated(_ trace: String, file: String) throws -> [String] {
        var options = AnalysisOptions(rules: RuleSet())
        options.userRules = UserRules(try load(file))
        let path = directory.appendingPathComponent("traces/\(trace)").path
        return try LifecycleAnalyzer.analyze(path: path, options: options, prefetch: false).violations.map(\.rule.id)
    }

    @Test func theTeamFileHasTheFiveExamples() {
        #expect(Self.teamRules.count == 5)
    }

    @Test("the passing trace breaks none of the team's rules", arguments: teamRules)
    func passing(rule: String) throws {
        #expect(try Self.violated("\(rule).pass.jsonl", file: "team.yml") == [])
    }

    @Test("the failing trace breaks its rule only, once", arguments: teamRules)
    func failing(rule: String) throws {
        #expect(try Self.violated("\(rule).fail.jsonl", file: "team.yml") == [rule])
    }
}
