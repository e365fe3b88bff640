import Foundation
import LifetraceFormat
import Testing

@testable import LifetraceRecorder

/// The launch facts only the device knows: the decisions behind the platform calls, and what a
/// standalone recorder writes from them.
@Suite struct LaunchFactsTests {
    @Test func theTaskRoleAtStartSaysWhetherTheLaunchIsInTheBackground() {
        func decide(_ role: TaskRole, defaulted: Bool = false, prewarmed: Bool = false) -> Bool? {
            TaskRole.isBackgroundLaunch(role: role.rawValue, defaulted: defaulted, prewarmed: prewarmed)
        }
        #expect(decide(.foregroundApplication) == false)
        #expect(decide(.nonUIApplication) == true)
        #expect(decide(.backgroundApplication) == true)
        #expect(decide(.darwinBackgroundApplication) == true)
        // iOS 15 prewarms with the DarwinBG role: a prewarm ends in the user's foreground launch.
        #expect(decide(.darwinBackgroundApplication, prewarmed: true) == false)
        // A role the kernel defaulted (the simulator), or one that says nothing: unknown.
        #expect(decide(.foregroundApplication, defaulted: true) == nil)
        #expect(decide(.unspecified) == nil)
        #expect(decide(.defaultApplication) == nil)
        #expect(TaskRole.isBackgroundLaunch(role: 42, defaulted: false, prewarmed: false) == nil)
        // <mach/task_policy.h>
        #expect(TaskRole.foregroundApplication.rawValue == 1 && TaskRole.nonUIApplication.rawValue == 6)
        #expect(TaskRole.darwinBackgroundApplication.rawValue == 8)
    }

    @Test func thereIsNoTaskRoleOnLinux() {
        #if os(Linux)
        #expect(TaskRole.current() == nil)
        #expect(BackgroundModes.declared() == nil)
        #expect(LaunchFacts.current(environment: [:]) == LaunchFacts(prewarm: false, background: nil, backgroundModes: nil))
        #endif
    }

    @Test func prewarmIsReadFromActivePrewarm() {
        #expect(LaunchFacts.isPrewarmed(environment: ["ActivePrewarm": "1"]))
        #expect(!LaunchFacts.isPrewarmed(environment: ["ActivePrewarm": "0"]))
        #expect(!LaunchFacts.isPrewarmed(environment: [:]))
        #expect(LaunchFacts.current(environment: ["ActivePrewarm": "1"]).prewarm)
    }

    @Test func backgroundModesComeFromTheInfoPlistInDeclaredOrder() {
        #expect(BackgroundModes.declared(infoDictionary: nil) == nil)
        #expect(BackgroundModes.declared(infoDictionary: ["CFBundleIdentifier": "com.example"]) == [])
        #expect(BackgroundModes.declared(infoDictionary: ["UIBackgroundModes": ["audio", "location", "processing"]])
            == ["audio", "location", "processing"])
        #expect(BackgroundModes.declared(infoDictionary: ["UIBackgroundModes": "audio"]) == nil)
        #expect(BackgroundModes.metadataValue(["audio", " location", "processing"]) == "audio,location,processing")
        #expect(BackgroundModes.metadataValue(["audio", "", "bad,mode", "two words"]) == "audio")
        #expect(BackgroundModes.metadataValue([]) == "")
        #expect(BackgroundModes.parse(metadataValue: "audio,location") == ["audio", "location"])
        #expect(BackgroundModes.parse(metadataValue: "") == [])
    }

    @Test func theMetadataHoldsTheRecordingStartAndTheModesWhenKnown() {
        let unknown = LaunchFacts().metadataFields(recordingStart: 123)
        #expect(unknown.map(\.key) == ["recordingStart"] && unknown.map(\.value) == ["123"])
        let none = LaunchFacts(backgroundModes: []).metadataFields(recordingStart: 5)
        #expect(none.map(\.key) == ["recordingStart", "backgroundModes"] && none.last?.value == "")
        let some = LaunchFacts(backgroundModes: ["location", "audio"]).metadataFields(recordingStart: 5)
        #expect(some.last?.value == "location,audio")
    }

    @Test(arguments: [
        (LaunchFacts(prewarm: true, background: nil), false, true),
        (LaunchFacts(prewarm: false, background: true), true, false),
        (LaunchFacts(prewarm: false, background: nil), false, false),
        (LaunchFacts(prewarm: false, background: false), false, false),
    ])
    func aStandaloneRecorderWritesTheFactsInItsLaunch(_ facts: LaunchFacts, _ background: Bool, _ prewarm: Bool) throws {
        let sink = TraceEventCollection()
        let recorder = try Recorder(
            layout: RegionLayout(ringCount: 2, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(10),
            processFacts: true, launchFacts: facts)
        recorder.mark("Started")
        try recorder.stop()
        let launch = sink.snapshot.events.first
        #expect(launch?.stream == .system)
        guard case .launch(_, let written, let writtenPrewarm, let pid) = launch?.payload else {
            Issue.record("no launch first: \(String(describing: launch))")
            return
        }
        #expect(written == background && writtenPrewarm == prewarm)
        #expect(pid == Int64(getpid()))
    }

    @Test func scheduledTaskRunsAreNamedByKindAndCountUpFromTheTopOfTheIdSpace() throws {
        let sink = TraceEventCollection()
        let recorder = try Recorder(
            layout: RegionLayout(ringCount: 2, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(10))
        let first = recorder.scheduledTaskLaunched(.processing, identifier: "com.example.cleanup")
        let second = recorder.scheduledTaskLaunched(.appRefresh, identifier: "com.example.refresh")
        first.expired()
        first.completed()
        first.completed()
        first.expired()
        second.completed()
        try recorder.stop()
        #expect(first.id >= Recorder.firstScheduledTaskID && second.id > first.id)
        let (events, symbols) = sink.snapshot
        let lines = events.compactMap { event -> String? in
            switch event.payload {
            case .bgtaskBegin(let id, let name): "begin \(id == first.id ? 1 : 2) \(symbols[name])"
            case .bgtaskExpire(let id, let name): "expire \(id == first.id ? 1 : 2) \(symbols[name])"
            case .bgtaskEnd(let id, let name): "end \(id == first.id ? 1 : 2) \(symbols[name])"
            default: nil
            }
        }
        // One end per run, and nothing after it.
        #expect(lines == [
            "begin 1 BGProcessingTask:com.example.cleanup", "begin 2 BGAppRefreshTask:com.example.refresh",
            "expire 1 BGProcessingTask:com.example.cleanup", "end 1 BGProcessingTask:com.example.cleanup",
            "end 2 BGAppRefreshTask:com.example.refresh",
        ])
        #expect(first.isCompleted && second.isCompleted)
    }
}
