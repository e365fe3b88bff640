import Foundation
import LifetraceTestSupport
import Testing

/// `--rules` on the command line: refused files, selection, strictness and the formats.
struct RulesCommandTests {
    static let team = SampleRulesTests.directory.appendingPathComponent("team.yml").path
    static func trace(_ name: String) -> String { SampleRulesTests.directory.appendingPathComponent("traces/\(name)").path }

    static func file(_ yaml: String) throws -> String {
        let path = NSTemporaryDirectory() + "rules-\(UInt32.random(in: 0...UInt32.max)).yml"
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aBadFileIsRefusedBeforeAnyTraceIsRead() throws {
        let bad = try Self.file("rules:\n  - id: a\n    never: frame first\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        // The trace does not exist: the rule file's error comes first, alone.
        let result = try LifetraceCommand.run(["check", "--rules", bad, "/nonexistent.ltrace"])
        #expect(result.status == 2)
        #expect(result.output == "")
        #expect(result.error == "lifetrace: \(bad):3:12: `never`: frame takes no name (\"first\")\n")
    }

    @Test func aMissingFileIsRefused() throws {
        let result = try LifetraceCommand.run(["check", "--rules", "/nonexistent.yml", Self.trace("save-state-before-suspension.fail.jsonl")])
        #expect(result.status == 2)
        #expect(result.error == "lifetrace: /nonexistent.yml: cannot read the file\n")
    }

    @Test func aRuleFileFailsTheCheckLikeABuiltInRule() throws {
        let failing = Self.trace("save-state-before-suspension.fail.jsonl")
        let result = try LifetraceCommand.run(["check", "--rules", Self.team, failing])
        #expect(result.status == 1)
        #expect(result.output.contains("  error[save-state-before-suspension] +1.800 s into the trace: The drafts are saved"))
        #expect(result.output.contains("(\(Self.team):5)"))
        #expect(try LifetraceCommand.run(["check", "--rules", Self.team, Self.trace("save-state-before-suspension.pass.jsonl")]).status == 0)
        // --disable and --only take the file's ids.
        #expect(try LifetraceCommand.run(["check", "--rules", Self.team, "--disable", "save-state-before-suspension", failing]).status == 0)
        #expect(try LifetraceCommand.run(["check", "--rules", Self.team, "--only", "save-state-before-suspension", failing]).status == 1)
        let unknown = try LifetraceCommand.run(["check", "--rules", Self.team, "--only", "no-such-rule", failing])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("save-state-before-suspension"))
    }

    @Test func aWarningFailsOnlyWithStrict() throws {
        let failing = Self.trace("no-long-stall-while-active.fail.jsonl")
        let arguments = ["check", "--rules", Self.team, "--only", "no-long-stall-while-active", failing]
        #expect(try LifetraceCommand.run(arguments).status == 0)
        #expect(try LifetraceCommand.run(arguments + ["--strict"]).status == 1)
    }

    @Test func everyFormatNamesTheRule() throws {
        let failing = Self.trace("save-state-before-suspension.fail.jsonl")
        let json = try LifetraceCommand.run(["check", "--rules", Self.team, "--format", "json", failing]).output
        #expect(json.contains("\"ruleFile\": \"\(Self.team):5\""))
        let junit = try LifetraceCommand.run(["check", "--rules", Self.team, "--format", "junit", failing]).output
        #expect(junit.range(of: #"name="save-state-before-suspension" time="0.000000">\n      <failure type="error""#, options: .regularExpression) != nil)
        #expect(junit.range(of: #"name="no-network-while-suspended" time="0.000000"/>"#, options: .regularExpression) != nil)
        let github = try LifetraceCommand.run(["check", "--rules", Self.team, "--format", "github", failing]).output
        #expect(github.contains("::error title=save-state-before-suspension in \(failing)"))
        #expect(github.contains("::lifetime 1, +1.800 s"))
        let replay = try LifetraceCommand.run(["replay", "--rules", Self.team, failing]).output
        #expect(replay.contains("error[save-state-before-suspension]"))
    }
}
