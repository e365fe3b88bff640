import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Launch kinds, windows and milestones.
struct LaunchWindowTests {
    @Test("a foreground launch ends at the first frame, with every milestone")
    func foreground() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        let launch = trace.analyze().lifetimes[0].launch
        #expect(launch.kind == .cold)
        #expect(launch.reason == "user")
        #expect(launch.pid == 42)
        #expect(launch.windowEnd == .firstFrame)
        #expect(launch.duration == TraceBuilder.ns(80))
        #expect(launch.milestones.willFinishLaunching == TraceBuilder.ns(1))
        #expect(launch.milestones.didFinishLaunchingEnd == TraceBuilder.ns(50))
        #expect(launch.milestones.firstActive == TraceBuilder.ns(62))
        #expect(launch.milestones.firstFrame == TraceBuilder.ns(80))
        #expect(launch.busyInWindow == TraceBuilder.ns(5 + 40 + 2))
    }

    @Test("a background launch ends at the end of didFinishLaunching, frames or not")
    func background() {
        var trace = TraceBuilder()
        trace.launch(0, background: true)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 40)
        trace.frame(70)
        let lifetime = trace.analyze().lifetimes[0]
        #expect(lifetime.launch.kind == .background)
        #expect(lifetime.launch.windowEnd == .didFinishLaunching)
        #expect(lifetime.launch.duration == TraceBuilder.ns(50))
        #expect(lifetime.timeInStates.view == .app)
        #expect(lifetime.timeInStates.durations.map(\.state) == ["background"])
    }

    @Test("a prewarmed launch is reported as such")
    func prewarmed() {
        var trace = TraceBuilder()
        trace.launch(0, prewarm: true)
        #expect(trace.analyze().lifetimes[0].launch.kind == .prewarmed)
    }

    @Test("the watchdog limit is configurable")
    func watchdog() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        #expect(trace.analyze(AnalysisOptions(launchWatchdog: 79_000_000)).violations.map(\.rule) == [.launchWatchdog])
        #expect(trace.analyze(AnalysisOptions(launchWatchdog: 80_000_000)).violations.isEmpty)
    }

    @Test("each launch starts a lifetime, and everything resets")
    func lifetimes() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.state(1100, .suspended)
        trace.exit(5000, signal: 9)
        trace.events += trace.events.map { event in
            var copy = event
            copy.timestamp += TraceBuilder.ns(10_000)
            return copy
        }
        let analysis = trace.analyze()
        #expect(analysis.violations.isEmpty)
        #expect(analysis.lifetimes.count == 2)
        #expect(analysis.lifetimes.map(\.end.kind) == [.killedWhileSuspended, .killedWhileSuspended])
        #expect(analysis.lifetimes[1].launch.duration == TraceBuilder.ns(80))
    }

    @Test("a launch without an exit before it ends the lifetime as relaunched")
    func relaunch() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.launch(10_000)
        let analysis = trace.analyze()
        #expect(analysis.lifetimes.map(\.end.kind) == [.relaunched, .endOfTrace])
    }
}
