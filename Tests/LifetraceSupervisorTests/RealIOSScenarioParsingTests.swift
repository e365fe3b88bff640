import Foundation
import LifetraceFormat
import LifetraceRecorder
import Testing

@testable import LifetraceSupervisor

/// The scenario steps and keys the real-iOS sequences need: prewarmed launches, pauses, quits
/// from the app switcher, scheduler tasks, parameters, and what the device says (background
/// modes, OS version, no `state` events).
@Suite struct RealIOSScenarioParsingTests {
    @Test func parsesTheRealIOSStepsAndKeys() throws {
        let scenario = try Scenario.parse(
            yaml: """
                background-modes: [location, audio, processing]
                os: iOS 12.1.4
                state-events: false
                parameters:
                  away: 60s
                steps:
                  - launch:
                      prewarm: true
                      finish-launching: false
                  - pause: $away
                  - finish-launching
                  - activate
                  - reactivate
                  - scheduled-task:
                      type: refresh
                      identifier: com.example.refresh
                      limit: 2s
                  - scheduled-task:
                      identifier: com.example.cleanup
                  - scene-will-enter-foreground: main
                  - scene-did-become-active: main
                  - app-switcher
                  - terminate-inactive
                """, source: "inline", parameters: ["away": "1.5s"])
        #expect(scenario.steps == [
            .prewarmLaunch(finishLaunching: false), .pause(.milliseconds(1500)), .finishLaunching, .activate, .reactivate,
            .scheduledTask(kind: .appRefresh, identifier: "com.example.refresh", limit: .seconds(2)),
            .scheduledTask(kind: .processing, identifier: "com.example.cleanup", limit: .seconds(30)),
            .sceneWillEnterForeground("main"), .sceneDidBecomeActive("main"), .appSwitcher, .terminateInactive,
        ])
        #expect(scenario.backgroundModes == ["location", "audio", "processing"])
        #expect(scenario.os == "iOS 12.1.4")
        #expect(!scenario.writesStateEvents)
        let metadata = RecordSession.metadata(for: .init(executable: "/bin/App", scenario: scenario))
        #expect(metadata[LaunchFacts.backgroundModesKey] == "location,audio,processing")
        #expect(metadata["os"] == "iOS 12.1.4")
    }

    @Test func aPrewarmedLaunchRunsTheLaunchCallbacksUnlessToldNot() throws {
        let scenario = try Scenario.parse(yaml: "steps:\n  - launch:\n      prewarm: true", source: "inline")
        #expect(scenario.steps == [.prewarmLaunch(finishLaunching: true)])
        #expect(Scenario.standard.backgroundModes == nil && Scenario.standard.os == nil && Scenario.standard.writesStateEvents)
    }

    @Test func parametersKeepTheirDeclaredValuesAndScaleTimeouts() throws {
        let yaml = "parameters:\n  watchdog: 20s\ntimeouts:\n  launch: $watchdog\nsteps:\n  - launch\n  - wait: $watchdog"
        let declared = try Scenario.parse(yaml: yaml, source: "inline")
        #expect(declared.launchTimeout == .seconds(20) && declared.steps.last == .wait(.seconds(20)))
        let scaled = try Scenario.parse(yaml: yaml, source: "inline", parameters: ["watchdog": "1s"])
        #expect(scaled.launchTimeout == .seconds(1) && scaled.steps.last == .wait(.seconds(1)))
    }

    @Test(arguments: [
        ("steps:\n  - launch\n  - wait: $later", "step 2: no parameter named `later`"),
        ("parameters:\n  later: soon\nsteps:\n  - launch", "parameters.later: invalid duration \"soon\""),
        ("parameters: 5\nsteps:\n  - launch", "`parameters` must be a mapping"),
        ("steps:\n  - launch:\n      finish-launching: false", "step 1: `finish-launching` needs `prewarm: true`"),
        ("steps:\n  - launch:\n      prewarm: true\n      background: true", "a prewarmed launch takes only `finish-launching`"),
        ("steps:\n  - launch:\n      prewarm: yes please", "launch option `prewarm` is true or false"),
        ("background-modes: audio\nsteps:\n  - launch", "`background-modes` must be a list of mode names"),
        ("background-modes: [\"a,b\"]\nsteps:\n  - launch", "`background-modes` must be a list of mode names"),
        ("state-events: sometimes\nsteps:\n  - launch", "`state-events` is true or false"),
        ("os: [iOS]\nsteps:\n  - launch", "`os` must be one line"),
        ("steps:\n  - launch\n  - scheduled-task: cleanup", "step 2: `scheduled-task` takes a mapping with `identifier`"),
        ("steps:\n  - launch\n  - scheduled-task:\n      type: daily\n      identifier: a", "`type` is `processing` or `refresh`"),
        ("steps:\n  - launch\n  - scheduled-task:\n      identifier: a\n      when: now", "unknown scheduled-task option `when`"),
        ("steps:\n  - launch\n  - pause: forever", "step 2: invalid duration \"forever\""),
        ("steps:\n  - pause: 1s", "the first step must be `launch`"),
    ])
    func rejectsWrongRealIOSStepsNamingTheStep(_ yaml: String, _ message: String) {
        #expect {
            try Scenario.parse(yaml: yaml, source: "bad.yaml")
        } throws: { error in
            let description = (error as? SupervisorError)?.description ?? ""
            return description.hasPrefix("bad scenario: bad.yaml") && description.contains(message)
        }
    }

    @Test func aParameterSetThatTheScenarioDoesNotDeclareIsAnError() {
        #expect {
            try Scenario.parse(yaml: "steps:\n  - launch", source: "bad.yaml", parameters: ["away": "1s"])
        } throws: { error in
            (error as? SupervisorError)?.description.contains("no parameter named `away` to set") == true
        }
        #expect {
            try Scenario.parse(yaml: "parameters:\n  away: 1s\nsteps:\n  - launch", source: "bad.yaml", parameters: ["away": "later"])
        } throws: { error in
            (error as? SupervisorError)?.description.contains("parameter away: invalid duration") == true
        }
    }

    @Test func theIdleWatchFollowsTheAppsMainThreadOnly() throws {
        let collection = TraceEventCollection()
        let watch = MainThreadIdleWatch(target: collection)
        let symbols = SymbolTable()
        #expect(!watch.mainThreadIdle)
        try watch.append(TraceEvent(timestamp: 1, payload: .runloopSleep, stream: .app), symbols: symbols)
        #expect(watch.mainThreadIdle)
        // Another thread, or the system stream, says nothing about the main thread.
        try watch.append(TraceEvent(timestamp: 2, payload: .runloopWake, stream: .app, thread: ThreadID(rawValue: 1)), symbols: symbols)
        try watch.append(TraceEvent(timestamp: 3, payload: .state(to: .active, scene: .none), stream: .system), symbols: symbols)
        #expect(watch.mainThreadIdle)
        try watch.append(TraceEvent(timestamp: 4, payload: .runloopWake, stream: .app), symbols: symbols)
        #expect(!watch.mainThreadIdle)
        #expect(collection.snapshot.events.count == 4)
    }
}
