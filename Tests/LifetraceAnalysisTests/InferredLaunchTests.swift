import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Lifetimes without a `launch` event: a lifetime that opens with the launch callbacks is a launch
/// that began at its first event, and the launch rules apply to it (docs/LIFECYCLE.md, Lifetimes).
struct InferredLaunchTests {
    /// A foreground launch with no `launch` event: a run-loop wake at 0, then the launch callbacks.
    static func foreground(didFinish: Double = 40) -> TraceBuilder {
        var trace = TraceBuilder()
        trace.wake(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: didFinish)
        trace.callback(60 + didFinish - 40, "didBecomeActive", duration: 2)
        trace.sleep(63 + didFinish - 40)
        trace.frame(80 + didFinish - 40)
        return trace
    }

    @Test("a lifetime that opens with the launch callbacks is a cold launch from its first event")
    func inferredForeground() {
        let analysis = Self.foreground().analyze()
        let launch = analysis.lifetimes[0].launch
        #expect(launch.inferred)
        #expect(launch.kind == .cold)
        #expect(launch.timestamp == 0)
        #expect(launch.windowEnd == .firstFrame)
        #expect(launch.duration == TraceBuilder.ns(80))
        #expect(launch.milestones.willFinishLaunching == TraceBuilder.ns(1))
        #expect(launch.milestones.didFinishLaunchingEnd == TraceBuilder.ns(50))
        #expect(launch.busyInWindow == TraceBuilder.ns(63))
        #expect(analysis.violations.isEmpty)
    }

    @Test("the kind of an inferred launch comes from the app view: Background before Active")
    func inferredBackground() {
        var trace = TraceBuilder()
        trace.mark(0, "start")
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 40)
        trace.callback(70, "didEnterBackground", duration: 3)
        let lifetime = trace.analyze().lifetimes[0]
        #expect(lifetime.launch.inferred)
        #expect(lifetime.launch.kind == .background)
        #expect(lifetime.launch.windowEnd == .didFinishLaunching)
        #expect(lifetime.launch.duration == TraceBuilder.ns(50))
        #expect(lifetime.launch.busyInWindow == TraceBuilder.ns(5 + 40))
    }

    @Test("launch-sequence passes, and is violated by didFinishLaunching without willFinishLaunching")
    func launchSequence() {
        #expect(!Self.foreground().rules().contains("launch-sequence"))
        var trace = TraceBuilder()
        trace.mark(0, "start")
        trace.callback(10, "didFinishLaunching", duration: 40)
        trace.callback(60, "didBecomeActive", duration: 2)
        let analysis = trace.analyze()
        #expect(analysis.violations.map(\.rule) == [.launchSequence])
        #expect(analysis.lifetimes[0].launch.inferred)
    }

    @Test("launch-sequence is violated by willFinishLaunching followed by didBecomeActive")
    func launchSequenceSkippedDidFinish() {
        var trace = TraceBuilder()
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(60, "didBecomeActive", duration: 2)
        #expect(trace.analyze().violations.map(\.rule) == [.launchSequence])
    }

    @Test("launch-stall passes a short didFinishLaunching and is violated by a 400 ms one")
    func launchStall() {
        #expect(Self.foreground(didFinish: 200).rules().isEmpty)
        let analysis = Self.foreground(didFinish: 400).analyze()
        #expect(analysis.violations.map(\.rule) == [.launchStall])
        #expect(analysis.violations[0].message.contains("inside the launch window"))
    }

    @Test("launch-watchdog counts from the first event and says the launch time was inferred")
    func launchWatchdog() {
        let trace = Self.foreground()
        #expect(trace.analyze(AnalysisOptions(launchWatchdog: 80_000_000)).violations.isEmpty)
        let violations = trace.analyze(AnalysisOptions(launchWatchdog: 79_000_000)).violations
        #expect(violations.map(\.rule) == [.launchWatchdog])
        #expect(violations[0].message.contains("from the first event (no launch event; launch inferred)"))
    }

    @Test("a trace that starts mid-lifetime gets no launch rules and an unknown launch")
    func midLifetime() {
        var trace = TraceBuilder()
        trace.wake(0)
        trace.callback(1, "willResignActive")
        trace.callback(5, "didEnterBackground", duration: 900)
        trace.sleep(906)
        trace.callback(1000, "didFinishLaunching")
        let analysis = trace.analyze()
        #expect(analysis.lifetimes[0].launch.kind == .unknown)
        #expect(!analysis.lifetimes[0].launch.inferred)
        #expect(analysis.lifetimes[0].launch.timestamp == nil)
        #expect(!analysis.violations.contains { $0.rule == .launchSequence || $0.rule == .launchStall })
    }
}

/// Endings inferred from the trace: an `exit` with neither code nor signal (docs/LIFECYCLE.md,
/// `unexpected-exit`, Inferred endings).
struct InferredEndingTests {
    @Test("an inferred exit in Background is the normal silent end")
    func silentEndInBackground() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.toBackground(1000, states: false)
        trace.signpostBegin(1010, "Upload")
        trace.exit(1020)
        let analysis = trace.analyze()
        #expect(analysis.violations.isEmpty)
        #expect(analysis.lifetimes[0].end.kind == .killedInBackground)
        #expect(analysis.lifetimes[0].end.facts.contains { $0.contains("the exit is inferred") })
    }

    @Test("an inferred exit in the foreground is a kill, explained by the facts")
    func foregroundKill() throws {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.wake(200)
        trace.begin(200, "didReceiveMemoryWarning")
        trace.signpostBegin(201, "DecodeImages")
        trace.exit(900)
        let analysis = trace.analyze()
        // A kill: what was open is no nesting violation. The main thread stuck until the kill,
        // while Active, is a hang.
        #expect(analysis.violations.map(\.rule) == [.hang, .unexpectedExit])
        #expect(analysis.lifetimes[0].end.kind == .killedInForeground)
        let message = analysis.violations.first { $0.rule == .unexpectedExit }?.message ?? ""
        #expect(message.contains("ended without notice (the exit is inferred: no code, no signal)"))
        #expect(message.contains("the last callback was callback didReceiveMemoryWarning at +0.200 s"))
        #expect(message.contains("had been open since +0.200 s (1 more callbacks or signposts open)"))
        #expect(message.contains("the main thread had been busy since +0.200 s"))
    }

    @Test("an exit with a code in the foreground still reports what was open")
    func exitWithCode() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.signpostBegin(201, "DecodeImages")
        trace.exit(900, code: 0)
        #expect(trace.rules().isSuperset(of: ["callback-nesting", "unexpected-exit"]))
    }
}
