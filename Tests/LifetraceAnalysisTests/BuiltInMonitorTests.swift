import Foundation
import LifecycleModel
@testable import LifetraceAnalysis
import LifetraceTestSupport
import Testing

/// The engine of the built-in rules: one list of monitors, each looking at the edge kinds it
/// declares, and an analyzer that builds no edge a rule that is on does not look at.
@Suite struct BuiltInMonitorTests {
    static let monitored = BuiltInRule.monitors.map { $0.rule }
    /// The rules judged on the model's verdicts (the table's first twelve, up to `time-order`).
    static let verdictRules = BuiltInRule.allCases.filter { $0 <= .timeOrder }

    @Test func theListHasOneMonitorForEveryRuleInTheTablesOrder() {
        #expect(Self.monitored == BuiltInRule.allCases)
    }

    @Test func everyMonitorLooksAtSomethingAndEveryEdgeKindHasAMonitor() {
        for monitor in BuiltInRule.monitors {
            #expect(!monitor.edges.isEmpty, "\(monitor.rule.id) looks at no edge")
        }
        let every: RuleEdge.Kinds = [
            .callbackEnded, .busyAfterLeavingForeground, .launchWindowEnded, .lifetimeStalls, .exit,
            .backgroundStretchEnded, .expiredTaskNotEnded, .relaunched,
            .terminateWhileSuspended, .activeWhileSuspended, .activeAfterTerminate, .sceneNotConnected,
            .launchOutOfSequence, .backgroundWithoutResigning, .activeWithoutForeground, .unbalancedActivation,
            .noSuchTransition, .callbackOffMain, .nestingBroken, .timeBackwards,
        ]
        #expect(every.rawValue.nonzeroBitCount == RuleEdge.Kinds.count)
        #expect(RuleEdge.Kinds(lookedAtBy: .all) == every)
    }

    @Test func theAnalyzerLooksOnlyAtWhatTheRulesThatAreOnLookAt() {
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: [])).monitoredEdges.isEmpty)
        let ordering = RuleSet(Self.verdictRules.map(Rule.init))
        let verdicts: RuleEdge.Kinds = [
            .terminateWhileSuspended, .activeWhileSuspended, .activeAfterTerminate, .sceneNotConnected,
            .launchOutOfSequence, .backgroundWithoutResigning, .activeWithoutForeground, .unbalancedActivation,
            .noSuchTransition, .callbackOffMain, .nestingBroken, .timeBackwards,
        ]
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: ordering)).monitoredEdges == verdicts)
        #expect(
            LifecycleAnalyzer(options: AnalysisOptions(rules: RuleSet(Rule.legalTransition))).monitoredEdges
                == .noSuchTransition)
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: RuleSet(Rule(.hang)))).monitoredEdges == .lifetimeStalls)
        let launch = RuleSet([Rule(.launchWatchdog), Rule(.unexpectedExit)])
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: launch)).monitoredEdges == [.launchWindowEnded, .exit, .relaunched])
    }

    @Test func anEdgeGoesToTheMonitorsOfTheRulesThatAreOnInTheTablesOrder() {
        let every = BuiltInMonitorTable(rules: .all)
        #expect(every.monitors(lookingAt: .lifetimeStalls).map { $0.rule } == [.launchStall, .hang])
        #expect(every.monitors(lookingAt: .callbackEnded).map { $0.rule } == [.backgroundCallback])
        #expect(every.monitors(lookingAt: .exit).map { $0.rule } == [.unexpectedExit])
        let hang = BuiltInMonitorTable(rules: RuleSet(Rule(.hang)))
        #expect(hang.monitors(lookingAt: .lifetimeStalls).map { $0.rule } == [.hang])
        #expect(hang.monitors(lookingAt: .callbackEnded).isEmpty)
        #expect(every.monitors(lookingAt: .backgroundWithoutResigning).map { $0.rule } == [.resignBeforeBackground])
        #expect(every.monitors(lookingAt: .nestingBroken).map { $0.rule } == [.callbackNesting])
        #expect(every.monitors(lookingAt: .timeBackwards).map { $0.rule } == [.timeOrder])
    }

    @Test func theTransitionEdgesKindIsItsVerdicts() {
        #expect(RuleEdge.Kinds(TransitionVerdict.legal).isEmpty)
        #expect(RuleEdge.Kinds(TransitionVerdict.noSuchTransition) == .noSuchTransition)
        #expect(RuleEdge.Kinds(TransitionVerdict.unbalancedActivation) == .unbalancedActivation)
        #expect(TransitionJudged.verdict(of: .backgroundWithoutResigning) == .backgroundWithoutResigning)
        #expect(TransitionJudged.verdict(of: .activeWithoutForeground) == .activeWithoutForeground)
        #expect(TransitionJudged.verdict(of: .unusual) == nil)
        #expect(TransitionJudged.verdict(of: .legal) == nil)
    }

    @Test("an ordering rule switched off finds nothing in its failing sample, and changes no other finding",
          arguments: verdictRules)
    func orderingRuleSwitchedOff(rule: BuiltInRule) throws {
        let on = try SampleTraces.analyze("\(rule.id).fail.jsonl")
        #expect(on.violations.contains { $0.rule == Rule(rule) })
        var options = AnalysisOptions()
        options.rules.remove(RuleSet(Rule(rule)))
        let off = try SampleTraces.analyze("\(rule.id).fail.jsonl", options: options)
        #expect(off.violations.map(\.message) == on.violations.filter { $0.rule != Rule(rule) }.map(\.message))
    }

    @Test("a threshold rule switched off finds nothing in its failing sample",
          arguments: monitored.filter { !verdictRules.contains($0) })
    func switchedOff(rule: BuiltInRule) throws {
        var options = AnalysisOptions()
        options.rules.remove(RuleSet(Rule(rule)))
        let analysis = try SampleTraces.analyze("\(rule.id).fail.jsonl", options: options)
        #expect(analysis.violations.isEmpty, "\(analysis.violations.map(\.message))")
        let on = try SampleTraces.analyze("\(rule.id).fail.jsonl")
        #expect(on.violations.map { $0.rule } == [Rule(rule)])
    }
}

/// The analyzer holds no rule of its own: no file of its event handlers, edges or trackers names
/// an ordering rule (their monitors do), so that a rule's decision has one place.
@Suite struct AnalyzerNamesNoRuleTests {
    private static let repository = SampleTraces.directory.deletingLastPathComponent().deletingLastPathComponent()

    @Test func noAnalyzerFileNamesAnOrderingRule() throws {
        let rules = BuiltInMonitorTests.verdictRules
        // A rule by its id, or by its case where a rule is taken (`Rule.x`, `Rule(.x)`, an argument
        // or value `.x`); not the model's machines that share a case's name (`current.launchSequence`).
        let cases = rules.map { String(describing: $0) }.joined(separator: "|")
        let ids = rules.map { NSRegularExpression.escapedPattern(for: $0.id) }.joined(separator: "|")
        let mention = try NSRegularExpression(
            pattern: #"(\b(\#(ids))\b)|(Rule\.|Rule\(\.|^\s*\.|[(,=]\s*\.)(\#(cases))\b"#, options: [.anchorsMatchLines])
        let folders = ["Analyzer", "Edges", "MainThread", "Replay", "Samples", "Results"].map { "Sources/LifetraceAnalysis/\($0)/" }
        let files = ThresholdRuleRecipeTests.sources().filter { file in folders.contains { file.hasPrefix($0) } }
        #expect(files.count > 20)
        var naming: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            if mention.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil { naming.append(file) }
        }
        #expect(naming == [])
        // The pattern finds a rule where the analyzer used to name one.
        let former = "        report(\n            .legalTransition, at: event.timestamp,\n        rule = .callbackNesting"
        #expect(mention.numberOfMatches(in: former, range: NSRange(former.startIndex..., in: former)) == 2)
    }
}
