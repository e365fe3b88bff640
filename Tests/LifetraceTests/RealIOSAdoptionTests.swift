import Foundation
import Lifetrace
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRecorder
import Testing

/// The acceptance test of the in-app adoption: the adapter, driven with the callback, notification,
/// run-loop and frame sequence of each real-iOS sample (`Samples/real/`, ``AdoptionSample``),
/// produces the sample's own events, and `check` gives the verdict the sample's `meta` line expects.
///
/// The trace an app writes is built as its recorder builds it: the `launch` first, at the
/// process's start, from the launch facts (``LaunchFacts``; an app cannot know the launch reason,
/// so the samples' `reason` is compared as none), the metadata the facts add (`recordingStart`,
/// `backgroundModes`), then the adapter's events; for a process that died without a word, the
/// `exit` that `lifetrace recover` appends at the last event's time.
struct RealIOSAdoptionTests {
    /// The samples an app recording itself cannot produce, and why (a sample added to
    /// `Samples/real/` lands in one list or the other, and this list says which on purpose).
    static let notProducible: [String: String] = [
        "double-activation-ios10.control.jsonl": "state events",
        "home-and-back-state-events.jsonl": "state events",
        "prewarm-state-events.jsonl": "state events",
        "prewarm-through-didfinish-suspended-record.jsonl": "state events",
        "scene-order-app-after-scene-active-record.jsonl": "state events",
        "scene-order-home-and-back-app-before-then-after-record.jsonl": "state events",
        "scene-order-wef-first-dba-between-record.jsonl": "state events",
        "scene-self-recorded-connect-stall.jsonl": "writes a launch first",
        "scene-self-recorded-no-launch-connect-stall.jsonl": "writes a launch first",
        "early-kill-during-launch.control.jsonl": "SIGKILL",
        "switcher-quit-sigkill.jsonl": "SIGKILL",
        "watchdog-kill-during-launch.jsonl": "SIGKILL",
        "willterminate-overrun-killed.jsonl": "SIGKILL",
        "switcher-quit-scene.jsonl": "exit code",
        "switcher-quit-terminate.jsonl": "exit code",
        "switcher-quit-while-active.control.jsonl": "exit code",
        "willterminate-in-time.control.jsonl": "exit code",
        "willterminate-overrun-returns.jsonl": "exit code",
        "background-execution-location-relaunch-record.jsonl": "state events",
        "background-move-observer-stuck-record.jsonl": "state events",
        "background-crash-record.jsonl": "state events",
        "hang-user-left-during-stall-record.jsonl": "state events",
        "willterminate-download-cut-record.jsonl": "state events",
        "willterminate-main-signpost-open.control.jsonl": "state events",
        "background-crash-in-app.jsonl": "crash handler",
        "willterminate-download-cut-in-app.jsonl": "exit code",
        "relaunch-after-background-no-exit-in-app.jsonl": "second launch",
        "watchdog-termination-inferred-on-relaunch-in-app.jsonl": "second launch",
        "background-main-busy-8s-with-task-record.jsonl": "state events",
        "bg-launch-didenterbackground-then-opened-record.jsonl": "state events",
        "bg-resume-twice-4s-apart-record.jsonl": "state events",
        "bgprocessing-expired-ended-in-handler-record.jsonl": "state events",
        "bgprocessing-expired-not-ended-killed-record.jsonl": "SIGKILL",
        "bgapprefresh-launch-crash-in-app.jsonl": "crash handler",
        "bgapprefresh-launch-crash-record.jsonl": "crash handler",
        "silent-push-crash-after-resume-in-app.jsonl": "crash handler",
        "silent-push-crash-after-resume-record.jsonl": "state events",
        "willterminate-crash-in-app.jsonl": "crash handler",
        "willterminate-crash-record.jsonl": "state events",
        "fatal-hang-killed-on-screen-record.jsonl": "state events",
        "hang-while-inactive-under-system-alert-record.jsonl": "state events",
        "jetsam-kill-in-background-after-memory-warning-record.jsonl": "state events",
        "main-turn-open-across-suspension-record.jsonl": "state events",
        "observer-3s-within-limit-record.jsonl": "state events",
        "observer-stuck-with-bgtask-killed-record.jsonl": "state events",
        "memory-kill-while-active-record.jsonl": "state events",
        "prewarm-crash-in-didfinishlaunching-in-app.jsonl": "crash handler",
        "prewarm-crash-in-didfinishlaunching-record.jsonl": "state events",
        "prewarm-never-opened-purged-record.jsonl": "state events",
        "prewarm-premain-never-opened-purged-record.jsonl": "state events",
        "protected-data-lock-unlock-record.jsonl": "state events",
        "scene-app-bg-launch-url-session-record.jsonl": "state events",
        "scene-closed-in-switcher-other-scene-active-record.jsonl": "state events",
        "scene-disconnected-to-reclaim-memory-then-reconnected-record.jsonl": "state events",
        "scene-hang-user-left-record.jsonl": "state events",
        "scene-observer-stuck-killed-record.jsonl": "state events",
        "stall-200ms-in-foreground-then-left-record.jsonl": "state events",
        "state-restoration-between-launch-callbacks-record.jsonl": "state events",
        "switcher-quit-inactive-download-cut-in-app.jsonl": "exit code",
        "switcher-quit-inactive-download-cut-record.jsonl": "state events",
        "watchdog-termination-inferred-on-relaunch-record.jsonl": "state events",
        "willterminate-cuts-delegate-callback-on-other-thread-in-app.jsonl": "exit code",
        "willterminate-cuts-delegate-callback-on-other-thread-record.jsonl": "state events",
        "willterminate-with-bgtask-and-signpost-open-in-app.jsonl": "exit code",
        "willterminate-with-bgtask-and-signpost-open-record.jsonl": "state events",
    ]

    static var producible: [String] { AdoptionSample.files.filter { notProducible[$0] == nil } }

    /// The trace the app's recorder writes when the adapter sees `sample`'s inputs.
    /// With `exitAt`, a sample's exit with no code is placed there (the moment the sample's
    /// recorder knew the process died); without, where `lifetrace recover` places it, at the last
    /// event's time.
    static func produce(
        _ sample: AdoptionSample, exitAt: Int64? = nil
    ) throws -> (events: [TraceEvent], symbols: SymbolTable, metadata: TraceMetadata) {
        let launch = try #require(sample.launch)
        let collected = CollectedEvents()
        let adapter = LifecycleAdapter(destination: collected)
        adapter.start(at: launch.recordingStart, onMainThread: false, progress: sample.progress)
        for input in sample.inputs { adapter.handle(input) }
        var symbols = SymbolTable()
        var events = [
            TraceEvent(
                timestamp: launch.processStart,
                payload: .launch(reason: .none, background: launch.facts.launchesInBackground, prewarm: launch.facts.prewarm, pid: launch.pid))
        ]
        for event in collected.events {
            events.append(TraceEvent(timestamp: event.timestamp, payload: event.kind.payload(&symbols), thread: event.thread))
        }
        if sample.recoveredExit != nil, let last = events.last {
            events.append(TraceEvent(timestamp: exitAt ?? last.timestamp, payload: .exit(code: nil, signal: nil)))
        }
        var fields = sample.metadata.fields.filter { $0.key != LaunchFacts.recordingStartKey && $0.key != LaunchFacts.backgroundModesKey }
        fields += launch.facts.metadataFields(recordingStart: launch.recordingStart)
        return (events, symbols, TraceMetadata(fields))
    }

    /// The sample's events as the app's recorder would write them: the launch without its reason.
    static func expected(_ sample: AdoptionSample) -> [String] {
        var events = sample.events
        if case .launch(_, let background, let prewarm, let pid) = events[0].payload {
            events[0].payload = .launch(reason: .none, background: background, prewarm: prewarm, pid: pid)
        }
        return rendered(events, sample.symbols)
    }

    static func verdict(_ analysis: TraceAnalysis) -> String {
        let found = Set(analysis.violations.map { "\($0.rule.severity.rawValue):\($0.rule.id)" })
        return found.isEmpty ? "ok" : found.sorted().joined(separator: ",")
    }

    static func normalised(_ expect: String) -> String {
        expect == "ok" ? "ok" : expect.split(separator: ",").map(String.init).sorted().joined(separator: ",")
    }

    @Test("the adapter, given a sample's inputs, writes the sample's events and check gives its verdict", arguments: producible)
    func adapterProducesTheSample(name: String) throws {
        let sample = try AdoptionSample(name)
        #expect(sample.notProducible == nil)
        let produced = try Self.produce(sample, exitAt: sample.recoveredExit?.timestamp)
        let lines = rendered(produced.events, produced.symbols)
        let expected = Self.expected(sample)
        #expect(lines == expected, "first difference: \(zip(lines, expected).first { $0 != $1 }.map { "\($0) != \($1)" } ?? "lengths \(lines.count) != \(expected.count)")")
        let analysis = LifecycleAnalyzer.analyze(produced.events, symbols: produced.symbols, path: name, metadata: produced.metadata)
        let expect = try #require(sample.metadata["expect"])
        #expect(Self.verdict(analysis) == Self.normalised(expect), "\(analysis.violations.map(\.message))")
    }

    /// The samples whose process died without a word later than its last event (their recorder
    /// knew when), and of those, the ones whose verdict changes when the exit is where
    /// `lifetrace recover` puts it, at the last event's time.
    static let exitAfterLastEvent: Set<String> = [
        "background-launch-never-opened.jsonl", "bgprocessing-task.jsonl", "bgprocessing-launch-in-app.jsonl",
        "watchdog-kill-scene-in-app.jsonl", "willterminate-overrun-killed-in-app.jsonl",
    ]
    static let verdictNeedsTheMomentOfDeath: [String: String] = [
        "willterminate-overrun-killed-in-app.jsonl": "ok"
    ]

    @Test("an exit recovered at the last event's time changes only the verdicts listed")
    func recoveredExitTiming() throws {
        var later: Set<String> = []
        var changed: [String: String] = [:]
        for name in Self.producible {
            let sample = try AdoptionSample(name)
            guard let exit = sample.recoveredExit, exit.timestamp > sample.events[sample.events.count - 2].timestamp else { continue }
            later.insert(name)
            let produced = try Self.produce(sample)
            let analysis = LifecycleAnalyzer.analyze(produced.events, symbols: produced.symbols, path: name, metadata: produced.metadata)
            let verdict = Self.verdict(analysis)
            if verdict != Self.normalised(sample.metadata["expect"] ?? "") { changed[name] = verdict }
        }
        #expect(later == Self.exitAfterLastEvent)
        #expect(changed == Self.verdictNeedsTheMomentOfDeath)
    }

    @Test("the samples an app cannot produce are exactly the listed ones, each for its reason")
    func notProducibleSamplesAreListed() throws {
        var found: [String: String] = [:]
        for name in AdoptionSample.files {
            if let reason = try AdoptionSample(name).notProducible { found[name] = reason }
        }
        #expect(Set(found.keys) == Set(Self.notProducible.keys))
        for (name, fragment) in Self.notProducible {
            #expect(found[name]?.contains(fragment) == true, "\(name): \(found[name] ?? "producible")")
        }
        #expect(Self.producible.count >= 55)
    }

    /// The callbacks the UIKit adapter sees by their notification only: it does not wrap their
    /// delegate methods (``CallbackDelivery``).
    static let announcedOnly: Set<CallbackName> = [
        .didReceiveMemoryWarning, .significantTimeChange, .protectedDataWillBecomeUnavailable, .protectedDataDidBecomeAvailable,
    ]
    /// The callbacks UIKit neither lets the adapter wrap nor announces: the app reports them.
    static let reportedByApp: Set<CallbackName> = [.openURL, .continueUserActivity, .didReceiveRemoteNotification, .performFetch]

    @Test("one occurrence of a callback, delivered as UIKit delivers it, is one begin and one end", arguments: CallbackName.allCases)
    func oneOccurrenceIsOneRecord(callback: CallbackName) {
        let name = callback.rawValue, scene = callback.isSceneCallback ? "S-1" : nil
        let delivery = CallbackDelivery(name)
        switch delivery {
        case .timed: #expect(!Self.announcedOnly.contains(callback) && !Self.reportedByApp.contains(callback))
        case .notification: #expect(Self.announcedOnly.contains(callback))
        case .reportedByApp: #expect(Self.reportedByApp.contains(callback))
        }
        let inputs = delivery.began(name, scene: scene, at: 10, thread: .main) + delivery.ended(name, scene: scene, at: 20, thread: .main)
        // The UIKit adapter sees a delegate call only of a method it wraps.
        for input in inputs {
            if case .delegateCallbackBegan(let selector, _) = input.observation { #expect(LifecycleAdapter.timedDelegateMethods[selector] != nil) }
            if case .delegateCallbackEnded(let selector, _) = input.observation { #expect(LifecycleAdapter.timedDelegateMethods[selector] != nil) }
        }
        let collected = CollectedEvents()
        let adapter = LifecycleAdapter(destination: collected)
        adapter.handle(ObservedInput(.delegateInstrumented(selectors: CallbackDelivery.instrumentedSelectors), at: 0))
        for input in inputs { adapter.handle(input) }
        // Known from its notification only, it is recorded zero-length at the notification.
        let begin: Int64 = Self.announcedOnly.contains(callback) ? 20 : 10
        #expect(
            collected.events == [
                AdaptedEvent(.callbackBegin(name: name, scene: scene), at: begin), AdaptedEvent(.callbackEnd(name: name, scene: scene), at: 20),
            ])
    }

    @Test("every callback of every sample is recorded once from what its occurrence delivers", arguments: AdoptionSample.files)
    func everySampleCallbackIsRecordedOnce(name: String) throws {
        let sample = try AdoptionSample(name)
        let collected = CollectedEvents()
        let adapter = LifecycleAdapter(destination: collected)
        for input in sample.inputs { adapter.handle(input) }
        let recorded: [String] = collected.events.compactMap { event in
            switch event.kind {
            case .callbackBegin(let callback, let scene): "begin \(callback) \(scene ?? "-")"
            case .callbackEnd(let callback, let scene): "end \(callback) \(scene ?? "-")"
            default: nil
            }
        }
        let occurred: [String] = sample.events.compactMap { event in
            func scene(_ symbol: Symbol) -> String { symbol.isNone ? "-" : sample.symbols[symbol] }
            switch event.payload {
            case .callbackBegin(let callback, let symbol): return "begin \(sample.symbols[callback]) \(scene(symbol))"
            case .callbackEnd(let callback, let symbol): return "end \(sample.symbols[callback]) \(scene(symbol))"
            default: return nil
            }
        }
        #expect(recorded == occurred)
    }

    @Test("the derived inputs hold notifications and display ticks the adapter must not record")
    func derivedInputsExerciseTheDecisions() throws {
        let sample = try AdoptionSample("home-and-back-scene-resume-hang-in-app.jsonl")
        let inputs = sample.inputs
        let notifications = inputs.filter { if case .notification = $0.observation { true } else { false } }.count
        let ticks = inputs.filter { $0.observation == .displayFrame }.count
        let frames = sample.events.filter { $0.type == .frame }.count
        #expect(notifications > 5)
        #expect(ticks > frames)
    }
}
