import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// What the allowances for real iOS do to the analysis, in detail (docs/LIFECYCLE.md, "Real iOS").
struct RealIOSAnalysisTests {
    static func analyze(_ trace: TraceBuilder, _ metadata: [(String, String)] = [], textbook: Bool = false) -> TraceAnalysis {
        LifecycleAnalyzer.analyze(
            trace.events, symbols: trace.symbols, metadata: TraceMetadata(metadata),
            options: AnalysisOptions(textbook: textbook))
    }

    /// A prewarm through didFinishLaunching (a 450 ms didFinishLaunching), a pause of `pause` ms,
    /// then the user's launch: didBecomeActive and the first frame 100 ms after the resume.
    static func prewarm(pause: Double) -> TraceBuilder {
        var trace = TraceBuilder()
        trace.launch(0, prewarm: true)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 450)
        let resume = 460 + pause
        trace.callback(resume, "didBecomeActive", duration: 3)
        trace.frame(resume + 100)
        return trace
    }

    @Test("a prewarmed launch is timed from the resume: the first event after a pause of 2 s or more")
    func prewarmResume() throws {
        let analysis = Self.analyze(Self.prewarm(pause: 60_000))
        #expect(analysis.violations.isEmpty, "\(analysis.violations.map(\.message))")
        let launch = analysis.lifetimes[0].launch
        let prewarm = try #require(launch.prewarm)
        #expect(prewarm.start == 0)
        #expect(prewarm.resume == TraceBuilder.ns(60_460))
        #expect(prewarm.resumeFoundBy == .pause)
        #expect(prewarm.busy == TraceBuilder.ns(5 + 450))
        #expect(launch.timestamp == TraceBuilder.ns(60_460))
        #expect(launch.duration == TraceBuilder.ns(100))
        #expect(launch.milestones.didFinishLaunchingEnd == nil)
        #expect(launch.busyInWindow == TraceBuilder.ns(3))
        // The textbook times it from the process's start, and the prewarm's work is a launch stall.
        let textbook = Self.analyze(Self.prewarm(pause: 60_000), textbook: true)
        #expect(Set(textbook.violations.map(\.rule)) == [.launchWatchdog, .launchStall])
        #expect(textbook.lifetimes[0].launch.prewarm == nil)
    }

    @Test("a pause shorter than 2 s is no resume: the launch is timed from the launch event")
    func shortPause() {
        let analysis = Self.analyze(Self.prewarm(pause: 1_500))
        #expect(analysis.lifetimes[0].launch.prewarm == nil)
        #expect(analysis.violations.map(\.rule) == [.launchStall])
    }

    @Test("a silence with the main thread busy is work, not a pause")
    func busySilenceIsNoPause() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.begin(10, "didFinishLaunching")
        trace.end(5_010, "didFinishLaunching")
        trace.callback(5_020, "didBecomeActive")
        trace.frame(5_100)
        let analysis = Self.analyze(trace)
        #expect(analysis.lifetimes[0].launch.kind == .cold)
        #expect(analysis.violations.map(\.rule) == [.launchStall])
    }

    @Test("a non-scene app whose first move to the foreground is willEnterForeground was launched in Background")
    func backgroundLaunchInferred() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 40)
        trace.callback(60, "willEnterForeground", duration: 2)
        trace.callback(63, "didBecomeActive", duration: 2)
        trace.frame(90)
        let analysis = Self.analyze(trace)
        #expect(analysis.violations.isEmpty, "\(analysis.violations.map(\.message))")
        #expect(analysis.lifetimes[0].launch.kind == .background)
        #expect(analysis.lifetimes[0].launch.windowEnd == .didFinishLaunching)
        #expect(Self.analyze(trace, textbook: true).violations.map(\.rule) == [.legalTransition])
    }

    @Test("a launch left before its first activation is abandoned where the user left, and not judged by its length")
    func abandoned() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 40)
        trace.callback(300, "didEnterBackground", duration: 3)
        trace.callback(3_600_000, "willEnterForeground", duration: 2)
        trace.callback(3_600_003, "didBecomeActive", duration: 2)
        trace.frame(3_600_040)
        let analysis = Self.analyze(trace)
        #expect(analysis.violations.isEmpty, "\(analysis.violations.map(\.message))")
        let launch = analysis.lifetimes[0].launch
        #expect(launch.abandonedAfter == TraceBuilder.ns(300))
        #expect(launch.windowEnd == .open)
        #expect(launch.duration == nil)
        #expect(analysis.lifetimes[0].launchWindow?.end == TraceBuilder.ns(300))
        #expect(Self.analyze(trace, textbook: true).violations.map(\.rule) == [.launchWatchdog])
    }

    @Test("without state events, a silence of 10 s in Background is a suspension, not background time")
    func inferredSuspension() {
        func trace(silence: Double) -> TraceBuilder {
            var trace = TraceBuilder()
            trace.foregroundLaunch(states: false)
            trace.toBackground(1_000, states: false)
            trace.wake(1_010)
            trace.sleep(1_011)
            // The run loop wakes at the return and delivers willEnterForeground.
            trace.wake(1_011 + silence)
            trace.callback(1_012 + silence, "willEnterForeground")
            trace.callback(1_014 + silence, "didBecomeActive")
            trace.sleep(1_016 + silence)
            return trace
        }
        #expect(Self.analyze(trace(silence: 60_000)).violations.isEmpty)
        #expect(Self.analyze(trace(silence: 60_000), textbook: true).violations.map(\.rule) == [.backgroundTime])
        // Events every 5 s: the app ran; 40 s is over the limit.
        var busy = TraceBuilder()
        busy.foregroundLaunch(states: false)
        busy.toBackground(1_000, states: false)
        for tick in stride(from: 5_000.0, through: 45_000, by: 5_000) { busy.mark(1_011 + tick, "tick") }
        busy.callback(47_000, "willEnterForeground")
        #expect(Self.analyze(busy).violations.map(\.rule) == [.backgroundTime])
    }

    @Test("a stall that begins in Background and ends in the foreground is a resume hang, in both modes")
    func resumeHang() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.toBackground(1_000, states: false)
        trace.callback(61_000, "willEnterForeground", duration: 2_000)
        trace.callback(63_002, "didBecomeActive")
        for textbook in [false, true] {
            let hangs = Self.analyze(trace, textbook: textbook).violations.filter { $0.rule == .hang }
            #expect(hangs.count == 1)
            #expect(hangs.first?.message.contains("resume hang") == true)
        }
    }

    @Test("a kill at 90 % of the watchdog limit or later, still launching, is a watchdog termination")
    func watchdogKill() {
        func trace(killAt: Double, signal: Int32? = 9) -> TraceBuilder {
            var trace = TraceBuilder()
            trace.launch(0)
            trace.callback(1, "willFinishLaunching", duration: 5)
            trace.begin(10, "didFinishLaunching")
            trace.exit(killAt, signal: signal)
            return trace
        }
        for textbook in [false, true] {
            let killed = Self.analyze(trace(killAt: 19_900), textbook: textbook).violations
            #expect(killed.contains { $0.rule == .launchWatchdog && $0.message.contains("watchdog termination") })
            #expect(!Self.analyze(trace(killAt: 17_000), textbook: textbook).violations.contains { $0.rule == .launchWatchdog })
        }
        #expect(Self.analyze(trace(killAt: 18_500, signal: nil)).violations.contains { $0.rule == .launchWatchdog })
        #expect(!Self.analyze(trace(killAt: 19_000, signal: 6)).violations.contains { $0.rule == .launchWatchdog })
    }

    @Test("willTerminate has five seconds, like didEnterBackground")
    func willTerminateOverrun() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1_000)
        trace.callback(2_000, "willTerminate", duration: 5_500)
        trace.exit(7_510, code: 0)
        let found = Self.analyze(trace).violations
        #expect(found.map(\.rule) == [.backgroundCallback])
        #expect(found.first?.message.contains("applicationWillTerminate(_:) has approximately five seconds") == true)
    }

    @Test("launch-stall's default is the 400 ms budget; a stall threshold given applies in the launch window")
    func launchBudget() {
        #expect(AnalysisOptions().launchStallThreshold == RealIOSTimes.launchBudget)
        #expect(AnalysisOptions().stallThreshold == 250_000_000)
        #expect(AnalysisOptions(stallThreshold: 300_000_000).launchStallThreshold == 300_000_000)
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 355)
        trace.callback(366, "didBecomeActive", duration: 2)
        trace.frame(390)
        #expect(trace.rules().isEmpty)
        #expect(trace.rules(AnalysisOptions(stallThreshold: 300_000_000)) == ["launch-stall"])
        #expect(trace.analyze().lifetimes[0].stalls.count == 1)
    }

    @Test("the OS-gated allowance follows the os metadata: iOS 12.1 yes, iOS 12.2 and an unknown OS no")
    func osGate() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.callback(4_000, "didBecomeActive")
        #expect(Self.analyze(trace, [("os", "iOS 12.1")]).violations.isEmpty)
        #expect(Self.analyze(trace, [("os", "iOS 12.2")]).violations.map(\.rule) == [.balancedActivation])
        #expect(Self.analyze(trace).violations.map(\.rule) == [.balancedActivation])
        #expect(Self.analyze(trace, [("os", "iOS 12.1")], textbook: true).violations.map(\.rule) == [.balancedActivation])
    }

    @Test("recordingStart makes a missing launch sequence unknown, only for a lifetime launched before it")
    func lateRecording() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(300, "didBecomeActive")
        #expect(Self.analyze(trace, [("recordingStart", "250000000")]).violations.isEmpty)
        #expect(Self.analyze(trace).violations.map(\.rule) == [.launchSequence])
        #expect(Self.analyze(trace, [("recordingStart", "-5")]).violations.map(\.rule) == [.launchSequence])
    }
}
