import Foundation
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Rule files, names and outputs built to break the commands (docs/RELIABILITY.md): the
/// documented exit code, one line naming the file and the place, nothing left behind.
@Suite struct HostileRuleInputTests {
    typealias Workspace = HostileInputTests.Workspace

    static let markTrace = """
        {"ts":0,"type":"launch","reason":"user"}
        {"ts":10,"type":"mark","name":"x"}
        {"ts":20,"type":"mark","name":"x"}

        """

    @Test("a max-count limit past 2^60 is refused at its line and column by every command, none crashes or leaves files")
    func maxCountLimitOverflow() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.markTrace)
        let rules = try workspace.write("big.yml", "rules:\n  - id: a\n    max-count: {of: mark x, limit: 9223372036854775807}\n")
        let out = workspace.path + "/out"
        for arguments in [
            ["check", "--rules", rules, trace], ["report", "--rules", rules, trace], ["replay", "--rules", rules, trace],
            ["export", "--rules", rules, trace, "--to", "perfetto", "-o", out], ["diff", "--rules", rules, trace, "--", trace],
        ] {
            let result = try HostileInputTests.run(arguments, in: workspace, expect: 2)
            HostileInputTests.expectOneLine(result, containing: "big.yml:3:36: `limit`: 9223372036854775807 is more than 2^60")
        }
        // Past Int64 too, and not a number at all.
        for limit in ["99999999999999999999999", "-1", "1e3", "0x10"] {
            let bad = try workspace.write("bad.yml", "rules:\n  - id: a\n    max-count: {of: mark x, limit: \(limit)}\n")
            let result = try HostileInputTests.run(["check", "--rules", bad, trace], in: workspace, expect: 2)
            HostileInputTests.expectOneLine(result, containing: "bad.yml:3:36: `limit`: ")
        }
    }

    @Test("a max-count limit of 2^60 is taken, and judged without overflow")
    func maxCountLimitAtTheBound() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.markTrace)
        let rules = try workspace.write("r.yml", "rules:\n  - id: a\n    max-count: {of: mark x, limit: 1152921504606846976}\n")
        let result = try HostileInputTests.run(["check", "--rules", rules, trace], in: workspace, expect: 0)
        #expect(result.output.contains("1 trace checked, 0 failed"), "\(result.output)")
    }

    @Test("a rule file may not take trace-integrity, JUnit's test case for a trace not read whole, nor a built-in id")
    func reservedRuleIDs() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.markTrace)
        for id in ["trace-integrity", "hang", "launch-watchdog", "background-callback"] {
            let rules = try workspace.write("r.yml", "rules:\n  - id: \(id)\n    never: mark y\n")
            let result = try HostileInputTests.run(["check", "--rules", rules, trace, "--format", "junit"], in: workspace, expect: 2)
            HostileInputTests.expectOneLine(result, containing: "r.yml:2:9: the id \"\(id)\" is ")
            #expect(result.output.isEmpty)
        }
    }
}
