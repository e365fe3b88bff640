import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Every rule has a minimal passing and a minimal violating trace under `Samples/traces/`.
struct RuleSamplesTests {
    static let rules = Rule.allCases.map(\.id)

    @Test("every rule has both samples")
    func everyRuleHasSamples() {
        let passing = Set(SampleTraces.files(suffix: ".pass.jsonl").map { String($0.dropLast(".pass.jsonl".count)) })
        let failing = Set(SampleTraces.files(suffix: ".fail.jsonl").map { String($0.dropLast(".fail.jsonl".count)) })
        #expect(passing == Set(Self.rules))
        #expect(failing == Set(Self.rules))
    }

    @Test("the passing sample reports nothing", arguments: rules)
    func passingSample(rule: String) throws {
        let analysis = try SampleTraces.analyze("\(rule).pass.jsonl")
        #expect(analysis.violations.map(\.rule.id) == [], "\(analysis.violations.map(\.message))")
    }

    @Test("the failing sample reports exactly its rule, once", arguments: rules)
    func failingSample(rule: String) throws {
        let analysis = try SampleTraces.analyze("\(rule).fail.jsonl")
        #expect(analysis.violations.map(\.rule.id) == [rule], "\(analysis.violations.map(\.message))")
        for violation in analysis.violations {
            #expect(!violation.events.isEmpty)
            #expect(violation.message.contains("Why: \""))
        }
    }
}
