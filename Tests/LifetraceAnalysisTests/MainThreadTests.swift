import LifetraceAnalysis
import LifecycleModel
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Busy intervals, stalls and their blame.
struct MainThreadTests {
    @Test("a run-loop busy interval at the threshold is a stall, with blame longest first")
    func runLoopStall() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.wake(1000)
        trace.signpostBegin(1010, "decode")
        trace.signpostEnd(1100, "decode")
        trace.callback(1100, "didReceiveMemoryWarning", duration: 140)
        trace.signpostBegin(1200, "layout", thread: .numbered(2))
        trace.signpostEnd(1240, "layout", thread: .numbered(2))
        trace.sleep(1250)
        trace.wake(2000)
        trace.sleep(2249)
        let lifetime = trace.analyze().lifetimes[0]
        #expect(lifetime.busySource == .runLoop)
        #expect(lifetime.stalls.count == 1)
        let stall = lifetime.stalls[0]
        #expect(stall.start == TraceBuilder.ns(1000))
        #expect(stall.duration == TraceBuilder.ns(250))
        #expect(stall.sinceLaunch == TraceBuilder.ns(1000))
        #expect(stall.blame.map(\.name) == ["didReceiveMemoryWarning", "decode"])
        #expect(stall.blame.map(\.duration) == [TraceBuilder.ns(140), TraceBuilder.ns(90)])
        #expect(stall.blame.map(\.kind) == [.callback, .signpost])
    }

    @Test("the stall threshold is configurable")
    func threshold() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.wake(1000)
        trace.sleep(1100)
        #expect(trace.analyze().lifetimes[0].stalls.isEmpty)
        #expect(trace.analyze(AnalysisOptions(stallThreshold: 100_000_000)).lifetimes[0].stalls.count == 1)
    }

    @Test("without run-loop events, the outermost main-thread callbacks are the busy intervals")
    func callbackBusy() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.begin(10, "didFinishLaunching")
        trace.callback(20, "openURL", duration: 300)
        trace.end(400, "didFinishLaunching")
        trace.callback(410, "didBecomeActive", duration: 5)
        let analysis = trace.analyze()
        let lifetime = analysis.lifetimes[0]
        #expect(lifetime.busySource == .callbacks)
        #expect(lifetime.stalls.map(\.duration) == [TraceBuilder.ns(390)])
        #expect(lifetime.stalls[0].blame.map(\.name) == ["didFinishLaunching", "openURL"])
        #expect(lifetime.launch.windowEnd == .firstActive)
        #expect(lifetime.launch.busyInWindow == TraceBuilder.ns(5 + 390 + 5))
        // 390 ms is under launch-stall's default (400 ms, the launch budget); a threshold given applies.
        #expect(analysis.violations.map(\.rule) == [])
        #expect(trace.analyze(AnalysisOptions(stallThreshold: 250_000_000)).violations.map(\.rule) == [.launchStall])
    }

    @Test("a stall still open at a kill lasts until the kill, and counts for the watchdog")
    func killedDuringLaunch() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.begin(10, "didFinishLaunching")
        trace.exit(20_010, signal: 9)
        let analysis = trace.analyze()
        let lifetime = analysis.lifetimes[0]
        #expect(lifetime.stalls.count == 1)
        #expect(lifetime.stalls[0].unfinished)
        #expect(lifetime.stalls[0].duration == TraceBuilder.ns(20_000))
        #expect(lifetime.launch.windowEnd == .open)
        #expect(lifetime.end.kind == .killedInForeground)
        #expect(lifetime.end.facts.contains { $0.contains("never ended") })
        // Killed by a signal: the open callback is reported as a fact, not as callback-nesting.
        #expect(Set(analysis.violations.map(\.rule)) == [.launchWatchdog, .launchStall, .unexpectedExit])
    }

    @Test("a stall after the launch window in the foreground is a hang, not a launch stall")
    func stallAfterLaunch() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.wake(5000)
        trace.sleep(5600)
        let analysis = trace.analyze()
        #expect(analysis.lifetimes[0].stalls.count == 1)
        #expect(analysis.violations.map(\.rule) == [.hang])
        #expect(analysis.violations.first?.severity == .warning)
        #expect(analysis.violations.first?.timestamp == TraceBuilder.ns(5000))
        #expect(analysis.violations.first?.message.contains("busy for 600 ms from +5.000 s") == true)
    }
}

/// The `hang` rule and the work a stall is blamed on.
struct HangTests {
    @Test("a stall that starts in Background, or that moves the app there, is no hang")
    func backgroundStallIsNoHang() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.wake(2000)
        trace.sleep(2600)
        #expect(trace.rules() == [])
        // Busy from Inactive into a long didEnterBackground: the transition's, not a hang.
        var moving = TraceBuilder()
        moving.foregroundLaunch()
        moving.wake(1000)
        moving.state(1000, .inactive)
        moving.callback(1001, "willResignActive")
        moving.state(1005, .background)
        moving.callback(1005, "didEnterBackground", duration: 400)
        moving.sleep(1410)
        #expect(moving.rules() == [])
    }

    @Test("the hang threshold is its own option, shorter or longer than the stall threshold")
    func hangThreshold() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.wake(1000)
        trace.sleep(1150)
        #expect(trace.rules() == [])
        let short = trace.analyze(AnalysisOptions(hangThreshold: 100_000_000))
        #expect(short.violations.map(\.rule) == [.hang])
        // The lifetime's stalls still follow the stall threshold.
        #expect(short.lifetimes[0].stalls.isEmpty)
        trace.wake(2000)
        trace.sleep(2300)
        #expect(trace.rules(AnalysisOptions(hangThreshold: 400_000_000)) == [])
        #expect(trace.rules(AnalysisOptions(rules: RuleSet(Rule.allCases.filter { $0 != .hang }))) == [])
    }

    @Test("without state events the effective app view tells the foreground")
    func hangWithoutStates() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.wake(3000)
        trace.sleep(3300)
        #expect(trace.rules() == ["hang"])
    }

    @Test("the work is the innermost interval covering most of the stall, with its chain")
    func innermostWork() throws {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.begin(10, "didFinishLaunching")
        trace.signpostBegin(12, "OpenDatabase")
        trace.signpostEnd(18, "OpenDatabase")
        trace.signpostBegin(20, "IndexSearchCatalog")
        trace.signpostBegin(30, "tokenize")
        trace.signpostEnd(150, "tokenize")
        trace.signpostEnd(425, "IndexSearchCatalog")
        trace.end(423 + 10, "didFinishLaunching")
        trace.callback(440, "didBecomeActive", duration: 2)
        trace.frame(450)
        let analysis = trace.analyze()
        let stall = try #require(analysis.lifetimes[0].stalls.first)
        let work = try #require(stall.work)
        #expect(work.name == "IndexSearchCatalog")
        #expect(work.kind == .signpost)
        #expect(work.duration == TraceBuilder.ns(405))
        #expect(work.chain == ["didFinishLaunching", "IndexSearchCatalog"])
        #expect(stall.workText == "signpost \"IndexSearchCatalog\" (405 ms, in didFinishLaunching > IndexSearchCatalog)")
        let message = try #require(analysis.violations.first { $0.rule == .launchStall }?.message)
        #expect(message.contains("the work on the main thread during it was signpost \"IndexSearchCatalog\" (405 ms, in didFinishLaunching > IndexSearchCatalog)"))
    }

    @Test("when nothing covers most of the stall the longest interval is the work")
    func longestWhenNothingCoversMost() throws {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.wake(1000)
        trace.signpostBegin(1000, "decode")
        trace.signpostEnd(1120, "decode")
        trace.signpostBegin(1130, "layout")
        trace.signpostEnd(1230, "layout")
        trace.sleep(1300)
        let stall = try #require(trace.analyze().lifetimes[0].stalls.first)
        #expect(stall.work?.name == "decode")
        #expect(stall.work?.chain == ["decode"])
    }

    @Test("a signpost with its parent's span is blamed inside the parent")
    func equalSpans() throws {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.begin(1000, "didReceiveMemoryWarning")
        trace.signpostBegin(1000, "purgeCaches")
        trace.signpostEnd(1400, "purgeCaches")
        trace.end(1400, "didReceiveMemoryWarning")
        let stall = try #require(trace.analyze().lifetimes[0].stalls.first)
        #expect(stall.work?.chain == ["didReceiveMemoryWarning", "purgeCaches"])
    }
}

/// The `background-callback` rule: didEnterBackground and its scene twin have about five seconds.
struct BackgroundCallbackTests {
    @Test("didEnterBackground over the limit is reported when time ran out")
    func overTheLimit() throws {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.state(1000, .inactive)
        trace.callback(1000, "willResignActive")
        trace.state(1005, .background)
        trace.callback(1005, "didEnterBackground", duration: 5001)
        let violation = try #require(trace.analyze().violations.first)
        #expect(trace.rules() == ["background-callback"])
        #expect(violation.timestamp == TraceBuilder.ns(6005))
        #expect(violation.severity == .error)
        #expect(violation.message.contains("ran for 5.001 s"))
        #expect(violation.fact?.document == .didEnterBackgroundReference)
        #expect(trace.rules(AnalysisOptions(backgroundCallbackLimit: 6_000_000_000)) == [])
    }

    @Test("sceneDidEnterBackground has the same limit")
    func sceneCallback() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 40)
        trace.callback(55, "sceneWillConnect", scene: "main")
        trace.callback(58, "sceneWillEnterForeground", scene: "main")
        trace.callback(60, "sceneDidBecomeActive", scene: "main")
        trace.frame(80)
        trace.callback(1000, "sceneWillResignActive", scene: "main")
        trace.callback(1005, "sceneDidEnterBackground", duration: 7000, scene: "main")
        #expect(trace.rules() == ["background-callback"])
    }

    @Test("killed while in didEnterBackground past the limit counts; a trace that stops does not")
    func endedWhileRunning() {
        var killed = TraceBuilder()
        killed.foregroundLaunch()
        killed.state(1000, .inactive)
        killed.callback(1000, "willResignActive")
        killed.state(1005, .background)
        killed.begin(1005, "didEnterBackground")
        killed.exit(7000, signal: 9)
        #expect(killed.rules() == ["background-callback"])
        var stopped = TraceBuilder()
        stopped.foregroundLaunch()
        stopped.state(1000, .inactive)
        stopped.callback(1000, "willResignActive")
        stopped.state(1005, .background)
        stopped.begin(1005, "didEnterBackground")
        stopped.mark(7000, "still saving")
        #expect(stopped.rules() == [])
    }
}

extension MainThreadTests {
    @Test("a busy interval open at suspension ends there, not at the kill")
    func busyEndsAtSuspension() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.wake(1100)
        trace.state(1110, .suspended)
        trace.exit(60_000, signal: 9)
        let lifetime = trace.analyze().lifetimes[0]
        #expect(lifetime.stalls.isEmpty)
        #expect(lifetime.end.kind == .killedWhileSuspended)
        #expect(!lifetime.end.facts.contains { $0.contains("never went idle") })
    }
}
