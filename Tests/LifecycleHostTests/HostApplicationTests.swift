import Foundation
@testable import LifecycleHost
import LifetraceFormat
import LifetraceRecorder
import Testing

/// The host's application delivers each command's callbacks to the app's delegate in UIKit's
/// order, records a begin and an end around each, and commits the faults it is asked to.
@Suite(.serialized) struct HostApplicationTests {
    /// The callbacks the delegate received, in order (one delegate lives at a time: serialized).
    nonisolated(unsafe) static var received: [String] = []

    final class Delegate: ApplicationDelegate {
        init() {}
        func willFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool {
            HostApplicationTests.received.append("willFinishLaunching")
            return true
        }
        func didFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool {
            HostApplicationTests.received.append("didFinishLaunching")
            return true
        }
        func didBecomeActive(_ application: HostApplication) { HostApplicationTests.received.append("didBecomeActive") }
        func willResignActive(_ application: HostApplication) { HostApplicationTests.received.append("willResignActive") }
        func didEnterBackground(_ application: HostApplication) { HostApplicationTests.received.append("didEnterBackground") }
        func willTerminate(_ application: HostApplication) { HostApplicationTests.received.append("willTerminate") }
    }

    /// Runs `commands` on an application with `faults`; returns the recorded callback lines
    /// (`begin NAME`, `end NAME`) and the application states after each command.
    static func run(_ commands: [HostCommand], faults: Set<HostFault> = []) throws -> (lines: [String], states: [LifecycleState]) {
        received = []
        let sink = TraceEventCollection()
        let recorder = try Recorder(layout: RegionLayout(ringCount: 4, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(10))
        let application = HostApplication(recorder: recorder, delegateType: Delegate.self, faults: faults)
        var states: [LifecycleState] = []
        for command in commands {
            try application.perform(command)
            states.append(application.applicationState)
        }
        try recorder.stop()
        let (events, symbols) = sink.snapshot
        let lines = events.compactMap { event -> String? in
            switch event.payload {
            case .callbackBegin(let name, _): "begin \(symbols[name])"
            case .callbackEnd(let name, _): "end \(symbols[name])"
            default: nil
            }
        }
        return (lines, states)
    }

    @Test("a launch to the foreground and a termination deliver UIKit's sequence, each callback begun and ended")
    func foregroundLifetime() throws {
        let (lines, states) = try Self.run([
            .launch(LaunchOptions()), .activate, .resignActive, .enterBackground, .terminate,
        ])
        let expected = ["willFinishLaunching", "didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground", "willTerminate"]
        #expect(Self.received == expected)
        #expect(lines == expected.flatMap { ["begin \($0)", "end \($0)"] })
        #expect(states == [.inactive, .active, .inactive, .background, .notRunning])
    }

    @Test("a background launch starts in Background")
    func backgroundLaunch() throws {
        let (_, states) = try Self.run([.launch(LaunchOptions(reason: "fetch", background: true))])
        #expect(states == [.background])
        #expect(Self.received == ["willFinishLaunching", "didFinishLaunching"])
    }

    @Test("faults leave out or repeat the callbacks they name")
    func faults() throws {
        let skipped = try Self.run([.launch(LaunchOptions()), .activate, .resignActive], faults: [.skipResignActive, .skipWillFinishLaunching])
        #expect(Self.received == ["didFinishLaunching", "didBecomeActive"])
        #expect(skipped.states.last == .inactive)
        let doubled = try Self.run([.launch(LaunchOptions()), .activate], faults: [.doubleActivate])
        #expect(doubled.lines.filter { $0 == "begin didBecomeActive" }.count == 2)
    }

    @Test("commands before the launch, and a second launch, are refused with the reason")
    func refusals() throws {
        let sink = TraceEventCollection()
        let recorder = try Recorder(layout: RegionLayout(ringCount: 2, ringCapacity: 64), sink: sink, flushInterval: .milliseconds(10))
        defer { try? recorder.stop() }
        let application = HostApplication(recorder: recorder, delegateType: Delegate.self)
        #expect(throws: HostCommandError(command: .activate, reason: "the app is not launched")) { try application.perform(.activate) }
        try application.perform(.launch(LaunchOptions()))
        #expect(throws: HostCommandError(command: .launch(LaunchOptions()), reason: "already launched")) {
            try application.perform(.launch(LaunchOptions()))
        }
        #expect(throws: HostCommandError(command: .sceneConnect("main"), reason: "the app has no scene delegate")) {
            try application.perform(.sceneConnect("main"))
        }
    }
}
