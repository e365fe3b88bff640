@testable import LifetraceAnalysis
import LifetraceTestSupport
import Testing

/// The engine of the built-in threshold rules: one list of monitors, each looking at the edge
/// kinds it declares, and an analyzer that builds no edge a rule that is on does not look at.
@Suite struct ThresholdMonitorTests {
    static let monitored = BuiltInRule.thresholdMonitors.map { $0.rule }

    @Test func theListHasOneMonitorPerRuleInTheTablesOrder() {
        #expect(Self.monitored == Self.monitored.sorted())
        #expect(Set(Self.monitored).count == Self.monitored.count)
        #expect(Self.monitored.allSatisfy { !$0.isOrdering })
    }

    @Test func everyMonitorLooksAtSomethingAndEveryEdgeKindHasAMonitor() {
        for monitor in BuiltInRule.thresholdMonitors {
            #expect(!monitor.edges.isEmpty, "\(monitor.rule.id) looks at no edge")
        }
        let every: ThresholdEdge.Kinds = [
            .callbackEnded, .busyAfterLeavingForeground, .launchWindowEnded, .lifetimeStalls, .exit,
            .backgroundStretchEnded, .expiredTaskNotEnded, .relaunched,
        ]
        #expect(every.rawValue.nonzeroBitCount == ThresholdEdge.Kinds.count)
        #expect(ThresholdEdge.Kinds(lookedAtBy: .all) == every)
    }

    @Test func theAnalyzerLooksOnlyAtWhatTheRulesThatAreOnLookAt() {
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: [])).thresholdEdges.isEmpty)
        let ordering = RuleSet(Rule.allCases.filter { $0.builtIn?.isOrdering ?? false })
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: ordering)).thresholdEdges.isEmpty)
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: RuleSet(Rule(.hang)))).thresholdEdges == .lifetimeStalls)
        let launch = RuleSet([Rule(.launchWatchdog), Rule(.unexpectedExit)])
        #expect(LifecycleAnalyzer(options: AnalysisOptions(rules: launch)).thresholdEdges == [.launchWindowEnded, .exit, .relaunched])
    }

    @Test func anEdgeGoesToTheMonitorsOfTheRulesThatAreOnInTheTablesOrder() {
        let every = ThresholdMonitorTable(rules: .all)
        #expect(every.monitors(lookingAt: .lifetimeStalls).map { $0.rule } == [.launchStall, .hang])
        #expect(every.monitors(lookingAt: .callbackEnded).map { $0.rule } == [.backgroundCallback])
        #expect(every.monitors(lookingAt: .exit).map { $0.rule } == [.unexpectedExit])
        let hang = ThresholdMonitorTable(rules: RuleSet(Rule(.hang)))
        #expect(hang.monitors(lookingAt: .lifetimeStalls).map { $0.rule } == [.hang])
        #expect(hang.monitors(lookingAt: .callbackEnded).isEmpty)
    }

    @Test("a threshold rule switched off finds nothing in its failing sample", arguments: monitored)
    func switchedOff(rule: BuiltInRule) throws {
        var options = AnalysisOptions()
        options.rules.remove(RuleSet(Rule(rule)))
        let analysis = try SampleTraces.analyze("\(rule.id).fail.jsonl", options: options)
        #expect(analysis.violations.isEmpty, "\(analysis.violations.map(\.message))")
        let on = try SampleTraces.analyze("\(rule.id).fail.jsonl")
        #expect(on.violations.map { $0.rule } == [Rule(rule)])
    }
}
