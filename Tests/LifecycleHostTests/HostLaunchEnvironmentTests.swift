import Foundation
@testable import LifecycleHost
import LifetraceFormat
import LifetraceRecorder
import Testing

/// The launch options and background modes the host reads from its environment, and the
/// scheduler tasks it runs for the app.
@Suite struct HostLaunchEnvironmentTests {
    @Test func launchOptionsAndModesComeFromTheEnvironment() throws {
        let none = try HostLaunchEnvironment(environment: [:])
        #expect(none.launch == LaunchOptions() && none.backgroundModes == nil)
        let push = try HostLaunchEnvironment(environment: [
            "LIFETRACE_LAUNCH": "background remote-notification", "LIFETRACE_BACKGROUND_MODES": "audio,location",
        ])
        #expect(push.launch == LaunchOptions(reason: "remote-notification", background: true))
        #expect(push.backgroundModes == ["audio", "location"])
        #expect(try HostLaunchEnvironment(environment: ["LIFETRACE_LAUNCH": "background"]).launch.reason == "fetch")
        #expect(try HostLaunchEnvironment(environment: ["LIFETRACE_BACKGROUND_MODES": ""]).backgroundModes == [])
    }

    @Test(arguments: ["sideways", "background fetch now", "Background"])
    func aWrongLaunchIsOneLineNamingTheVariable(_ value: String) {
        #expect {
            try HostLaunchEnvironment(environment: ["LIFETRACE_LAUNCH": value])
        } throws: { error in
            let message = (error as? HostLaunchEnvironmentError)?.message ?? ""
            return message.hasPrefix("LIFETRACE_LAUNCH: ") && !message.contains("\n")
        }
    }

    @Test func theRecorderWritesTheLaunchTheHostPlaysOnlyWithoutASupervisor() throws {
        let environment = ["LIFETRACE_LAUNCH": "background fetch", "LIFETRACE_BACKGROUND_MODES": "processing", "ActivePrewarm": "1"]
        let host = try HostLaunchEnvironment(environment: environment)
        #expect(host.launchFacts(environment: environment, supervised: false)
            == LaunchFacts(prewarm: true, background: true, backgroundModes: ["processing"]))
        // Under `lifetrace record` the supervisor writes the launch.
        #expect(host.launchFacts(environment: environment, supervised: true).background == nil)
    }

    @Test func schedulerCommandsSurviveTheWire() {
        let commands: [HostCommand] = [
            .runScheduledTask(.processing, identifier: "com.example.cleanup"),
            .runScheduledTask(.appRefresh, identifier: "com.example.refresh"), .expireScheduledTasks, .scheduledTaskCount,
        ]
        for command in commands {
            #expect(HostCommand(wireText: command.wireText) == command, "\(command.wireText)")
        }
        for text in ["scheduled-run", "scheduled-run daily com.example", "scheduled-run processing", "scheduled-run processing a b"] {
            #expect(HostCommand(wireText: text) == nil, "\(text)")
        }
    }

    final class Delegate: ApplicationDelegate {
        init() {}
    }

    @Test func aScheduledTaskRunsItsHandlerAndIsRecordedUntilItCompletes() throws {
        let sink = TraceEventCollection()
        let recorder = try Recorder(
            layout: RegionLayout(ringCount: 4, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(10))
        let application = HostApplication(recorder: recorder, delegateType: Delegate.self)
        try application.perform(.launch(LaunchOptions()))
        let handed = SendableTasks()
        #expect(application.registerScheduledTask(identifier: "com.example.cleanup") { task in
            task.expirationHandler = { task.setTaskCompleted(success: false) }
            handed.append(task)
        })
        #expect(!application.registerScheduledTask(identifier: "com.example.cleanup") { _ in })
        try application.perform(.runScheduledTask(.processing, identifier: "com.example.cleanup"))
        #expect(try application.perform(.scheduledTaskCount) == "1")
        try application.perform(.expireScheduledTasks)
        #expect(try application.perform(.scheduledTaskCount) == "0")
        #expect(throws: HostCommandError.self) {
            try application.perform(.runScheduledTask(.appRefresh, identifier: "com.example.unknown"))
        }
        try recorder.stop()
        #expect(handed.tasks.map(\.identifier) == ["com.example.cleanup"])
        let (events, symbols) = sink.snapshot
        let lines = events.compactMap { event -> String? in
            switch event.payload {
            case .bgtaskBegin(_, let name): "begin \(symbols[name])"
            case .bgtaskExpire(_, let name): "expire \(symbols[name])"
            case .bgtaskEnd(_, let name): "end \(symbols[name])"
            default: nil
            }
        }
        #expect(lines == [
            "begin BGProcessingTask:com.example.cleanup", "expire BGProcessingTask:com.example.cleanup",
            "end BGProcessingTask:com.example.cleanup",
        ])
    }
}

/// The tasks a launch handler received.
final class SendableTasks: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [HostScheduledTask] = []
    func append(_ task: HostScheduledTask) { lock.withLock { stored.append(task) } }
    var tasks: [HostScheduledTask] { lock.withLock { stored } }
}
