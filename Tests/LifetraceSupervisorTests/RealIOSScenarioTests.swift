import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceTestSupport
import LifetraceFormat
import LifetraceRecorder
import Testing

@testable import LifetraceSupervisor

/// The sequences real iOS produces, each played by its scenario in `Samples/scenarios/` under the
/// supervisor with the sample app: the trace holds the facts the sequence needs, and `check`
/// gives the verdict the sequence deserves. Durations are scenario parameters, scaled down here
/// (a minute becomes a few seconds) with the analyzer's limits scaled to match; where the analyzer
/// reads a fixed time (``RealIOSTimes``), the parameter is set just past it.
@Suite struct RealIOSScenarioTests {
    /// The scenarios of the sequences, in `Samples/scenarios/`.
    static let scenarios = [
        "prewarm-pause", "prewarm-pause-before-launch", "switcher-quit-inactive", "switcher-terminate-inactive",
        "notification-center-pull", "notification-center-pull-ios12", "push-background-launch", "home-and-back-in-app",
        "background-modes", "watchdog-launch-kill", "will-terminate-overrun", "leave-before-activation",
        "scenes-app-callbacks-after-scene", "scenes-app-callbacks-before-scene", "quick-minimise-race",
    ]

    /// Records the sample scenario `name` with `parameters` and the sample app's `arguments`.
    static func record(
        _ name: String, parameters: [String: String] = [:], arguments: [String] = [],
        options: AnalysisOptions = SampleRecording.orderingOnly
    ) throws -> (outcome: RecordOutcome, trace: RecordedTrace, analysis: TraceAnalysis) {
        let path = SampleRecording.packageRoot.appendingPathComponent("Samples/scenarios/\(name).yaml").path
        let scenario = try Scenario.load(path: path, parameters: parameters)
        return try SampleRecording.record(scenario, arguments: arguments, options: options)
    }

    static func describe(_ trace: RecordedTrace, _ analysis: TraceAnalysis) -> String {
        (analysis.violations.map { "\($0.rule): \($0.message)" } + trace.lifecycleLines).joined(separator: "\n")
    }

    /// The `launch` event's facts.
    static func launchFacts(_ trace: RecordedTrace) -> (background: Bool, prewarm: Bool)? {
        guard case .launch(_, let background, let prewarm, _) = trace.events.first(where: { $0.type == .launch })?.payload
        else { return nil }
        return (background, prewarm)
    }

    /// The timestamp of the first event whose line is `line`.
    static func time(of line: String, in trace: RecordedTrace) -> Int64? {
        trace.merged.first { trace.line($0) == line }?.timestamp
    }

    // MARK: Prewarm

    /// A prewarm held 1 s longer than the pause the analyzer reads as one (``RealIOSTimes/launchPause``,
    /// 2 s), and a launch watchdog of 1 s: a launch timed from the process start would breach it;
    /// the user's launch starts at the resume.
    static let prewarmPause = RealIOSTimes.launchPause + 1_000_000_000
    static let prewarmParameters = ["pause": "\(prewarmPause / 1_000_000)ms"]
    static let prewarmOptions = AnalysisOptions(stallThreshold: 5_000_000_000, launchWatchdog: 1_000_000_000)

    @Test(arguments: ["prewarm-pause", "prewarm-pause-before-launch"])
    func prewarmPauseRecordsAPrewarmedLaunchHeldBeforeTheUser(_ name: String) throws {
        let (outcome, trace, analysis) = try Self.record(name, parameters: Self.prewarmParameters, options: Self.prewarmOptions)
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [], "\(Self.describe(trace, analysis))")
        let facts = try #require(Self.launchFacts(trace))
        #expect(facts.prewarm && !facts.background)
        #expect(trace.lifecycleLines.first == "launch prewarm")
        // The pause lies between the process start (or its launch callbacks) and the activation.
        let launch = try #require(trace.events.first { $0.type == .launch }?.timestamp)
        let active = try #require(Self.time(of: "begin didBecomeActive", in: trace))
        #expect(active - launch >= Self.prewarmPause)
        let didFinish = try #require(Self.time(of: "begin didFinishLaunching", in: trace))
        if name == "prewarm-pause" {
            #expect(didFinish - launch < Self.prewarmPause)
        } else {
            #expect(didFinish - launch >= Self.prewarmPause)
        }
        #expect(trace.lifecycleLines.filter { $0 == "begin didBecomeActive" }.count == 1)
        #expect(analysis.lifetimes.first?.launch.kind == .prewarmed)
        // No state event while the system holds the process: the pause is invisible to the app.
        #expect(!trace.lifecycleLines.prefix { $0 != "state active" }.contains { $0.hasPrefix("state ") })
    }

    @Test(arguments: ["prewarm-pause", "prewarm-pause-before-launch"])
    func prewarmPauseIsNoLaunchFinding(_ name: String) throws {
        let (_, trace, analysis) = try Self.record(name, parameters: Self.prewarmParameters, options: Self.prewarmOptions)
        // The user's launch is timed from the resume: no watchdog breach, no launch stall.
        #expect(analysis.errors.map(\.message) == [], "\(Self.describe(trace, analysis))")
        let launch = try #require(analysis.lifetimes.first?.launch)
        #expect((launch.duration ?? .max) < 1_000_000_000, "\(Self.describe(trace, analysis))")
        // The prewarm is reported apart: from the process start to the resume, with its own work.
        let prewarm = try #require(launch.prewarm, "\(Self.describe(trace, analysis))")
        #expect(prewarm.resume - prewarm.start >= Self.prewarmPause)
        #expect(prewarm.busy > 0)
    }

    // MARK: App switcher

    @Test func switcherQuitWhileInactiveIsAKillWithNoBackground() throws {
        let (outcome, trace, analysis) = try Self.record("switcher-quit-inactive")
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [])
        let lines = trace.lifecycleLines
        #expect(lines.contains("begin willResignActive"))
        #expect(!lines.contains("begin didEnterBackground") && !lines.contains("begin willTerminate"))
        #expect(lines.last == "exit signal 9")
        // No error; a warning at most for the kill.
        #expect(analysis.errors.map(\.message) == [], "\(Self.describe(trace, analysis))")
        #expect(Set(analysis.warnings.map(\.rule)).isSubset(of: [.unexpectedExit]))
    }

    @Test func switcherTerminateWhileInactiveCallsWillTerminateWithoutBackground() throws {
        let (outcome, trace, _) = try Self.record("switcher-terminate-inactive")
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [])
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        #expect(callbacks.suffix(2) == ["begin willResignActive", "begin willTerminate"])
        #expect(!callbacks.contains("begin didEnterBackground"))
        #expect(trace.lifecycleLines.last == "exit code 0")
    }

    @Test
    func switcherTerminateWhileInactiveIsClean() throws {
        let (_, trace, analysis) = try Self.record("switcher-terminate-inactive")
        #expect(analysis.violations.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    // MARK: Notification Center

    @Test func notificationCenterPullResignsAndReactivatesWithoutBackground() throws {
        let (outcome, trace, analysis) = try Self.record("notification-center-pull")
        #expect(outcome == .completed)
        let lines = trace.lifecycleLines
        let resign = try #require(lines.firstIndex(of: "begin willResignActive"))
        #expect(lines[resign...].dropFirst().first { $0.hasPrefix("begin ") } == "begin didBecomeActive")
        #expect(analysis.violations.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    @Test func notificationCenterPullOnIOS12RecordsTheOSAndTheSecondActivation() throws {
        let (outcome, trace, _) = try Self.record("notification-center-pull-ios12")
        #expect(outcome == .completed)
        #expect(trace.metadata["os"] == "iOS 12.1.4")
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        let resign = try #require(callbacks.firstIndex(of: "begin willResignActive"))
        #expect(Array(callbacks[(resign + 1)...].prefix(2)) == ["begin didBecomeActive", "begin didBecomeActive"])
        // The system's state does not change for the repeated callback: one `state active` per activation.
        #expect(trace.lifecycleLines.filter { $0 == "state active" }.count == 2)
    }

    @Test
    func notificationCenterPullOnIOS12IsNoError() throws {
        let (_, trace, analysis) = try Self.record("notification-center-pull-ios12")
        // An OS bug is never an error where its source says it occurs.
        #expect(analysis.errors.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    // MARK: Background launch

    @Test func pushLaunchesIntoBackgroundAndTheUserOpensItLater() throws {
        let (outcome, trace, analysis) = try Self.record("push-background-launch", parameters: ["later": "500ms"])
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [])
        #expect(trace.lifecycleLines.first == "launch remote-notification background")
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        let foreground = try #require(callbacks.firstIndex(of: "begin willEnterForeground"))
        #expect(!callbacks[..<foreground].contains("begin didBecomeActive"))
        #expect(callbacks[foreground + 1] == "begin didBecomeActive")
        #expect(analysis.lifetimes.first?.launch.kind == .background)
        #expect(analysis.violations.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    // MARK: Home and back, recorded by the app

    /// A stay in Background scaled to 2 s, with 1 s allowed there.
    static let awayOptions = AnalysisOptions(stallThreshold: 5_000_000_000, backgroundLimit: 1_000_000_000)
    /// A minute away scaled to 1 s more than the silence the analyzer reads as a suspension in a
    /// trace without `state` events (``RealIOSTimes/suspensionSilence``, 10 s; not an option).
    static let away = RealIOSTimes.suspensionSilence + 1_000_000_000
    static let awayParameters = ["away": "\(away / 1_000_000)ms"]

    @Test func homeAndBackRecordedInAppHasNoStateEventsAndASilenceWhileAway() throws {
        let (outcome, trace, _) = try Self.record(
            "home-and-back-in-app", parameters: Self.awayParameters, options: Self.awayOptions)
        #expect(outcome == .completed)
        #expect(!trace.events.contains { $0.type == .state })
        #expect(trace.events.filter { $0.stream == .system }.map(\.type) == [.launch, .exit])
        // The app's own view: it went home, was silent while away, and came back.
        let background = try #require(Self.time(of: "end didEnterBackground", in: trace))
        let foreground = try #require(Self.time(of: "begin willEnterForeground", in: trace))
        #expect(foreground - background >= Self.away)
    }

    @Test
    func homeAndBackRecordedInAppIsSuspensionNotBackgroundTime() throws {
        let (_, trace, analysis) = try Self.record(
            "home-and-back-in-app", parameters: Self.awayParameters, options: Self.awayOptions)
        #expect(!analysis.violations.contains { $0.rule == .backgroundTime }, "\(Self.describe(trace, analysis))")
        #expect(analysis.violations.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    static func recordSlowResume() throws -> (outcome: RecordOutcome, trace: RecordedTrace, analysis: TraceAnalysis) {
        return try Self.record(
            "home-and-back-in-app", parameters: Self.awayParameters,
            arguments: ["--stall-in", "willEnterForeground", "0.6"], options: Self.awayOptions)
    }

    @Test func aSlowResumeRecordedInAppBlocksTheMainThreadInWillEnterForeground() throws {
        let (outcome, trace, _) = try Self.recordSlowResume()
        #expect(outcome == .completed)
        #expect(!trace.events.contains { $0.type == .state })
        let begin = try #require(Self.time(of: "begin willEnterForeground", in: trace))
        let end = try #require(Self.time(of: "end willEnterForeground", in: trace))
        #expect(end - begin >= 600_000_000)
        // The main thread does not wait in between: one busy interval covers the callback.
        #expect(!trace.events.contains { $0.type == .runloopSleep && $0.thread.isMain && $0.timestamp > begin && $0.timestamp < end })
    }

    @Test
    func aSlowResumeRecordedInAppIsAHang() throws {
        let (_, trace, analysis) = try Self.recordSlowResume()
        // MetricKit counts a resume's time as a hang: so does the analyzer, without state events.
        #expect(analysis.violations.contains { $0.rule == .hang }, "\(Self.describe(trace, analysis))")
        #expect(!analysis.violations.contains { $0.rule == .backgroundTime }, "\(Self.describe(trace, analysis))")
    }

    // MARK: Background modes

    @Test func backgroundModesAreInTheMetadataAndTheScheduledTaskRunIsRecorded() throws {
        let (outcome, trace, _) = try Self.record(
            "background-modes", parameters: ["stay": "2s"], options: Self.awayOptions)
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [])
        #expect(trace.metadata[LaunchFacts.backgroundModesKey] == "location,audio,processing")
        let name = "BGProcessingTask:com.example.notes.cleanup"
        let begins = trace.events.compactMap { event -> Int64? in
            if case .bgtaskBegin(let id, let symbol) = event.payload, trace.symbols[symbol] == name { return id }
            return nil
        }
        let ends = trace.events.compactMap { event -> Int64? in
            if case .bgtaskEnd(let id, let symbol) = event.payload, trace.symbols[symbol] == name { return id }
            return nil
        }
        #expect(begins.count == 1 && begins == ends)
        #expect(begins.allSatisfy { $0 >= Recorder.firstScheduledTaskID })
        #expect(trace.lifecycleLines.contains("signpost.begin CompactNotes"))
    }

    @Test
    func minutesInBackgroundWithDeclaredModesAreNoBackgroundTime() throws {
        let (_, trace, analysis) = try Self.record(
            "background-modes", parameters: ["stay": "2s"], options: Self.awayOptions)
        // Minutes in Background with no UIKit task: the declared modes allow it.
        #expect(!analysis.violations.contains { $0.rule == .backgroundTime }, "\(Self.describe(trace, analysis))")
        #expect(analysis.violations.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    @Test func theSameStayWithoutDeclaredModesIsBackgroundTime() throws {
        let path = SampleRecording.packageRoot.appendingPathComponent("Samples/scenarios/background-modes.yaml").path
        var scenario = try Scenario.load(path: path, parameters: ["stay": "2s"])
        scenario.backgroundModes = nil
        let (outcome, trace, analysis) = try SampleRecording.record(scenario, options: Self.awayOptions)
        #expect(outcome == .completed)
        #expect(trace.metadata[LaunchFacts.backgroundModesKey] == nil)
        #expect(analysis.violations.map(\.rule) == [.backgroundTime], "\(Self.describe(trace, analysis))")
    }

    // MARK: Watchdog and termination

    @Test func aLaunchThatNeverDrawsIsKilledByTheWatchdog() throws {
        let options = AnalysisOptions(stallThreshold: 5_000_000_000, launchWatchdog: 1_000_000_000)
        let (outcome, trace, analysis) = try Self.record(
            "watchdog-launch-kill", parameters: ["watchdog": "1s"], arguments: ["--hang-in", "didFinishLaunching"],
            options: options)
        guard case .appUnresponsive(let step, _) = outcome else {
            Issue.record("expected the watchdog kill, got \(outcome)")
            return
        }
        #expect(step == "launch")
        let lines = trace.lifecycleLines
        #expect(lines.contains("begin didFinishLaunching") && !lines.contains("end didFinishLaunching"))
        #expect(!trace.events.contains { $0.type == .frame })
        #expect(lines.last == "exit signal 9")
        let launch = try #require(trace.events.first { $0.type == .launch }?.timestamp)
        let exit = try #require(trace.events.last { $0.type == .exit }?.timestamp)
        #expect(exit - launch >= 1_000_000_000)
        // A watchdog termination, not only a stall.
        #expect(analysis.errors.contains { $0.rule == .launchWatchdog }, "\(Self.describe(trace, analysis))")
    }

    /// willTerminate blocks for 30 s; the grace is scaled to 1 s, the callback limit to 500 ms.
    static func recordWillTerminateOverrun() throws -> (outcome: RecordOutcome, trace: RecordedTrace, analysis: TraceAnalysis) {
        let options = AnalysisOptions(stallThreshold: 5_000_000_000, backgroundCallbackLimit: 500_000_000)
        return try Self.record(
            "will-terminate-overrun", parameters: ["grace": "1s"], arguments: ["--stall-in", "willTerminate", "30"],
            options: options)
    }

    @Test func aWillTerminateThatOverrunsIsKilledInsideIt() throws {
        let (outcome, trace, _) = try Self.recordWillTerminateOverrun()
        #expect(outcome == .completed)
        let lines = trace.lifecycleLines
        #expect(lines.contains("begin willTerminate") && !lines.contains("end willTerminate"))
        #expect(lines.last == "exit signal 9")
        let begin = try #require(Self.time(of: "begin willTerminate", in: trace))
        let exit = try #require(trace.events.last { $0.type == .exit }?.timestamp)
        #expect(exit - begin >= 1_000_000_000)
    }

    @Test
    func aWillTerminateThatOverrunsIsAnError() throws {
        let (_, trace, analysis) = try Self.recordWillTerminateOverrun()
        // An error, like the five-second rule for didEnterBackground.
        #expect(
            analysis.errors.contains { $0.rule == .backgroundCallback && $0.message.contains("willTerminate") },
            "\(Self.describe(trace, analysis))")
    }

    // MARK: Leaving before the first activation

    @Test func leavingBeforeTheFirstActivationEntersBackgroundFromTheLaunch() throws {
        let (outcome, trace, _) = try Self.record("leave-before-activation", parameters: ["later": "500ms"])
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [])
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        #expect(Array(callbacks.prefix(3)) == ["begin willFinishLaunching", "begin didFinishLaunching", "begin didEnterBackground"])
        let foreground = try #require(callbacks.firstIndex(of: "begin willEnterForeground"))
        #expect(!callbacks[..<foreground].contains("begin didBecomeActive"))
    }

    @Test func leavingBeforeTheFirstActivationIsNoLaunchFinding() throws {
        let (_, trace, analysis) = try Self.record("leave-before-activation", parameters: ["later": "500ms"])
        #expect(analysis.violations.map(\.message) == [], "\(Self.describe(trace, analysis))")
        // The launch is reported as abandoned, not judged by its length.
        #expect(analysis.lifetimes.first?.launch.abandonedAfter != nil, "\(Self.describe(trace, analysis))")
    }

    // MARK: Scene-based launches

    @Test(arguments: ["scenes-app-callbacks-after-scene", "scenes-app-callbacks-before-scene"])
    func aSceneBasedLaunchPostsTheAppCallbacksAroundTheScenes(_ name: String) throws {
        let (outcome, trace, _) = try Self.record(name)
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [])
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        let app = try #require(callbacks.firstIndex(of: "begin didBecomeActive"))
        let scene = try #require(callbacks.firstIndex(of: "begin sceneDidBecomeActive main"))
        let appForeground = try #require(callbacks.firstIndex(of: "begin willEnterForeground"))
        if name.hasSuffix("after-scene") {
            // Interleaved: each app-level callback after the scene's of the same move.
            let sceneForeground = try #require(callbacks.firstIndex(of: "begin sceneWillEnterForeground main"))
            #expect(sceneForeground < appForeground && appForeground < scene && scene < app)
        } else {
            #expect(appForeground < app && app < scene)
        }
        // The app-level willEnterForeground comes from Inactive, where the launch left the app:
        // no app `state inactive` for it.
        #expect(!trace.lifecycleLines.prefix { $0 != "end willEnterForeground" }.contains("state inactive"))
    }

    @Test(arguments: ["scenes-app-callbacks-after-scene", "scenes-app-callbacks-before-scene"])
    func aSceneBasedLaunchIsCleanInEitherOrder(_ name: String) throws {
        let (_, trace, analysis) = try Self.record(name)
        #expect(analysis.violations.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    // MARK: Quick minimise

    @Test func aQuickMinimiseEntersTheForegroundBetweenResignAndBackground() throws {
        let (outcome, trace, _) = try Self.record("quick-minimise-race")
        #expect(outcome == .completed)
        let callbacks = trace.lifecycleLines.filter { $0.hasPrefix("begin ") }
        #expect(Array(callbacks.suffix(3)) == ["begin willResignActive", "begin willEnterForeground", "begin didEnterBackground"])
    }

    @Test
    func aQuickMinimiseIsNoError() throws {
        let (_, trace, analysis) = try Self.record("quick-minimise-race")
        #expect(analysis.errors.map(\.message) == [], "\(Self.describe(trace, analysis))")
    }

    // MARK: The textbook model

    /// The same recordings under `--textbook` keep the textbook's verdict: the allowances, not the
    /// recordings, make the difference.
    @Test(arguments: [
        ("switcher-terminate-inactive", BuiltInRule.legalTransition),
        ("notification-center-pull-ios12", BuiltInRule.balancedActivation),
        ("prewarm-pause-before-launch", BuiltInRule.launchWatchdog),
    ])
    func theTextbookModelStillFlagsTheSequence(_ name: String, _ rule: BuiltInRule) throws {
        var options = name.hasPrefix("prewarm") ? Self.prewarmOptions : SampleRecording.orderingOnly
        options.textbook = true
        let parameters = name.hasPrefix("prewarm") ? Self.prewarmParameters : [:]
        let (_, trace, analysis) = try Self.record(name, parameters: parameters, options: options)
        #expect(analysis.errors.contains { $0.rule.builtIn == rule }, "\(Self.describe(trace, analysis))")
    }
}
