import LifetraceAnalysis
import LifetraceFormat
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
        #expect(analysis.violations.map(\.rule) == [.launchStall])
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

    @Test("a stall after the launch window is reported but breaks no rule")
    func stallAfterLaunch() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.wake(5000)
        trace.sleep(5600)
        let analysis = trace.analyze()
        #expect(analysis.lifetimes[0].stalls.count == 1)
        #expect(analysis.violations.isEmpty)
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
