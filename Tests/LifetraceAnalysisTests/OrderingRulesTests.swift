import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The ordering rules' exclusivity and the model's recovery after a violation.
struct OrderingRulesTests {
    @Test("the rule ids, severities and order are the public interface")
    func ids() {
        #expect(Rule.allCases.map(\.id) == [
            "no-terminate-while-suspended", "silent-while-suspended", "nothing-after-terminate",
            "scene-connection", "launch-sequence", "resign-before-background", "foreground-before-active",
            "balanced-activation", "legal-transition", "main-thread-callbacks", "callback-nesting",
            "time-order", "launch-watchdog", "launch-stall", "background-time", "unexpected-exit", "hang",
            "background-callback",
        ])
        #expect(Rule.allCases.filter { $0.severity == .warning } == [.backgroundTime, .unexpectedExit, .hang])
        #expect(Rule.allCases.filter(\.isOrdering).count == 9)
    }

    @Test("an event is reported under the first ordering rule that applies only")
    func exclusive() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.state(1100, .suspended)
        // Suspended, and didBecomeActive from Background: silent-while-suspended comes first.
        trace.callback(2000, "didBecomeActive")
        #expect(trace.analyze().violations.map(\.rule) == [.silentWhileSuspended])
    }

    @Test("main-thread-callbacks is independent of the ordering rules")
    func independent() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.callback(500, "didBecomeActive", thread: .numbered(1))
        #expect(Set(trace.analyze().violations.map(\.rule)) == [.balancedActivation, .mainThreadCallbacks])
    }

    @Test("after a violation the model takes the implied state: one mistake, one report")
    func noCascade() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.callback(1000, "didEnterBackground")  // skipped willResignActive
        trace.callback(2000, "willEnterForeground")
        trace.callback(2010, "didBecomeActive")
        trace.callback(3000, "willResignActive")
        let violations = trace.analyze().violations
        #expect(violations.map(\.rule) == [.resignBeforeBackground])
        #expect(violations[0].sinceLaunch == TraceBuilder.ns(1000))
        #expect(violations[0].events.map(\.name) == ["didBecomeActive", "didEnterBackground"])
    }

    @Test("a disabled rule is not reported, and does not pass the event to another rule")
    func disabled() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.state(1100, .suspended)
        trace.callback(2000, "willTerminate")
        var options = AnalysisOptions()
        #expect(trace.analyze(options).violations.map(\.rule) == [.noTerminateWhileSuspended])
        options.rules.remove(RuleSet(.noTerminateWhileSuspended))
        #expect(trace.analyze(options).violations.isEmpty)
    }

    @Test("system-view moves that skip Inactive, for the app and for a scene")
    func systemMoves() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.state(10, .active)
        trace.state(20, .background)
        trace.state(30, .active)
        trace.state(40, .inactive, scene: "main")
        trace.state(50, .active, scene: "main")
        trace.state(60, .suspended, scene: "main")
        let rules = trace.analyze(AnalysisOptions(rules: RuleSet([.resignBeforeBackground, .foregroundBeforeActive])))
            .violations.map(\.rule)
        #expect(rules == [.resignBeforeBackground, .foregroundBeforeActive, .resignBeforeBackground])
    }

    @Test("willTerminate that is still running when the app is suspended")
    func terminateRunsIntoSuspension() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.begin(1100, "willTerminate")
        trace.state(1200, .suspended)
        trace.end(1300, "willTerminate")
        trace.exit(1400, signal: 9)
        let violations = trace.analyze().violations
        #expect(violations.map(\.rule) == [.noTerminateWhileSuspended])
        #expect(violations[0].sinceLaunch == TraceBuilder.ns(1300))
    }

    @Test("a scene callback after sceneDidDisconnect")
    func afterDisconnect() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching")
        trace.callback(2, "didFinishLaunching")
        trace.callback(3, "sceneWillConnect", scene: "doc")
        trace.callback(4, "sceneDidDisconnect", scene: "doc")
        trace.callback(5, "sceneWillEnterForeground", scene: "doc")
        let violations = trace.analyze().violations
        #expect(violations.map(\.rule) == [.sceneConnection])
        #expect(violations[0].events.map(\.name) == ["sceneDidDisconnect", "sceneWillEnterForeground"])
    }

    @Test("callbacks that return out of order, and begins open at a normal exit")
    func nesting() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.begin(500, "openURL")
        trace.begin(510, "didReceiveMemoryWarning")
        trace.end(520, "openURL")
        trace.signpostBegin(530, "sync", id: 4, thread: .numbered(2))
        trace.exit(600, code: 0)
        let nesting = trace.analyze().violations.filter { $0.rule == .callbackNesting }
        #expect(nesting.count == 2)
        #expect(nesting[0].message.contains("returned at +0.520 s while callback didReceiveMemoryWarning"))
        #expect(nesting[1].message.contains("signpost.begin \"sync\""))
    }

    @Test("background time: Background with no task open for longer than the limit")
    func backgroundTime() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.state(32_000, .suspended)
        let violations = trace.analyze().violations
        #expect(violations.map(\.rule) == [.backgroundTime])
        #expect(violations[0].sinceLaunch == TraceBuilder.ns(1005 + 30_000))
        #expect(trace.analyze(AnalysisOptions(backgroundLimit: 40_000_000_000)).violations.isEmpty)
    }

    @Test("an exit with no state events reads the app view")
    func exitReadsAppView() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.exit(1000, signal: 6)
        let analysis = trace.analyze()
        #expect(analysis.violations.map(\.rule) == [.unexpectedExit])
        #expect(analysis.lifetimes[0].end.kind == .killedInForeground)
    }
}
