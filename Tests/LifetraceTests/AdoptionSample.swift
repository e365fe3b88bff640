import Foundation
import Lifetrace
import LifetraceFormat
import LifetraceRecorder
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd

/// A sample of `Samples/real/` read as what an in-app adapter observed: the input sequence derived
/// from its events, or the reason an app recording itself cannot produce it.
///
/// The derivation models a UIKit app whose delegates are instrumented (they implement every timed
/// method) and which UIKit also announces: each callback reaches the adapter as the UIKit adapter
/// would see one occurrence of it (``CallbackDelivery``): a wrapped method's begin and end, then
/// its notification, which the adapter must not record again; a method it does not wrap (a memory
/// warning, protected data) by its notification alone; a callback UIKit does not announce as the
/// app reports it. After each frame the display link keeps ticking at every wake of the main run
/// loop until the next activation, and the adapter must record none of those ticks. Everything
/// else (the run loop, signposts, marks, background tasks) is one input per event, at the event's
/// time and thread.
struct AdoptionSample {
    static let directory = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("real")

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    let name: String
    let metadata: TraceMetadata
    let events: [TraceEvent]
    let symbols: SymbolTable

    init(_ name: String) throws {
        self.name = name
        var source = try TraceInputs.open(path: Self.directory.appendingPathComponent(name).path)
        var events: [TraceEvent] = []
        while let event = try source.next() { events.append(event) }
        self.events = events
        symbols = source.symbols
        metadata = source.metadata
    }

    /// Why an app recording itself cannot produce this sample, or nil when it can.
    var notProducible: String? {
        if events.contains(where: { $0.type == .state }) {
            return "state events are the system's view of the app; only a supervisor writes them"
        }
        guard case .launch? = events.first?.payload else {
            return "the recorder writes a launch first; a trace without one is another recorder's"
        }
        if events.dropFirst().contains(where: { $0.type == .launch }) {
            return "a second launch is another process, whose recorder writes a trace of its own"
        }
        for event in events {
            if case .exit(let code, let signal) = event.payload {
                if signal == 9 { return "SIGKILL is invisible from inside; lifetrace recover writes an exit with no code instead" }
                if signal != nil { return "a crash signal other than SIGKILL is stored by the crash handler, not observed" }
                if code != nil { return "the exit code is not known on iOS (no on_exit; the atexit hook closes the trace without an exit)" }
            }
            if event.type == .runloopWake || event.type == .runloopSleep, !event.thread.isMain {
                return "a run loop other than the main one is not observed"
            }
        }
        return nil
    }

    /// The launch facts and the moment recording started, as the platform would report them.
    var launch: (facts: LaunchFacts, processStart: Int64, pid: Int64, recordingStart: Int64)? {
        guard let first = events.first, case .launch(_, let background, let prewarm, let pid) = first.payload else { return nil }
        let modes = metadata[LaunchFacts.backgroundModesKey].map { BackgroundModes.parse(metadataValue: $0) }
        let recordingStart = metadata[LaunchFacts.recordingStartKey].flatMap { Int64($0) } ?? first.timestamp
        return (
            LaunchFacts(prewarm: prewarm, background: background ? true : nil, backgroundModes: modes),
            first.timestamp, pid ?? 1, recordingStart
        )
    }

    /// The inputs an instrumented UIKit app's adapter observes in this sample.
    var inputs: [ObservedInput] {
        var inputs: [ObservedInput] = []
        var displayLinkTicking = false
        for event in events {
            let at = event.timestamp, thread = event.thread
            func scene(_ symbol: Symbol) -> String? { symbol.isNone ? nil : symbols[symbol] }
            switch event.payload {
            case .callbackBegin(let name, let sceneSymbol):
                let name = symbols[name]
                inputs += CallbackDelivery(name).began(name, scene: scene(sceneSymbol), at: at, thread: thread)
            case .callbackEnd(let name, let sceneSymbol):
                let name = symbols[name]
                inputs += CallbackDelivery(name).ended(name, scene: scene(sceneSymbol), at: at, thread: thread)
                if name == CallbackName.didBecomeActive.rawValue || name == CallbackName.sceneDidBecomeActive.rawValue {
                    displayLinkTicking = false
                }
            case .runloopWake:
                inputs.append(ObservedInput(.mainRunLoopAfterWaiting, at: at, thread: thread))
                if displayLinkTicking { inputs.append(ObservedInput(.displayFrame, at: at, thread: thread)) }
            case .runloopSleep:
                inputs.append(ObservedInput(.mainRunLoopBeforeWaiting, at: at, thread: thread))
            case .frame:
                inputs.append(ObservedInput(.displayFrame, at: at, thread: thread))
                displayLinkTicking = true
            case .signpostBegin(let name, let id):
                inputs.append(ObservedInput(.signpostBegan(name: symbols[name], id: id), at: at, thread: thread))
            case .signpostEnd(let name, let id):
                inputs.append(ObservedInput(.signpostEnded(name: symbols[name], id: id), at: at, thread: thread))
            case .mark(let name):
                inputs.append(ObservedInput(.marked(name: symbols[name]), at: at, thread: thread))
            case .bgtaskBegin(let id, let name):
                inputs.append(ObservedInput(.backgroundTaskBegan(id: id, name: symbols[name]), at: at, thread: thread))
            case .bgtaskEnd(let id, let name):
                inputs.append(ObservedInput(.backgroundTaskEnded(id: id, name: symbols[name]), at: at, thread: thread))
            case .bgtaskExpire(let id, let name):
                inputs.append(ObservedInput(.backgroundTaskExpired(id: id, name: symbols[name]), at: at, thread: thread))
            case .launch, .state, .exit, .dropped:
                break
            }
        }
        let start = events.first?.timestamp ?? 0
        // The app's delegates implement every timed method (as Xcode's templates do), so every
        // callback of theirs is instrumented, whether or not the sample shows it.
        return [ObservedInput(.delegateInstrumented(selectors: CallbackDelivery.instrumentedSelectors), at: start)] + inputs
    }

    /// How far the launch had come at the recording's start, as the UIKit adapter reads it then:
    /// ahead when the recording started with the process (no `recordingStart` after the launch's
    /// first event); during the launch (Inactive, no scene connected) when the first callback
    /// after the start is a launch callback or the app's own didBecomeActive; otherwise unknown.
    var progress: LifecycleAdapter.LaunchProgress {
        guard let launch, launch.recordingStart > launch.processStart else { return .ahead }
        for event in events where event.timestamp >= launch.recordingStart {
            guard case .callbackBegin(let name, _) = event.payload, let callback = CallbackName(rawValue: symbols[name]),
                callback.isLifecycleCallback
            else { continue }
            switch callback {
            case .willFinishLaunching, .didFinishLaunching, .didBecomeActive: return .firstActivationAhead
            default: return .unknown
            }
        }
        return .unknown
    }

    /// The sample's exit with no code and no signal: what `lifetrace recover` appends to the trace
    /// of a process that died without a word, at its last event's time.
    var recoveredExit: TraceEvent? {
        events.last.flatMap { event in
            if case .exit(nil, nil) = event.payload { return event }
            return nil
        }
    }
}

/// Collects the adapter's events, in order.
final class CollectedEvents: LifecycleEventDestination, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AdaptedEvent] = []

    func write(_ event: AdaptedEvent) {
        lock.lock()
        stored.append(event)
        lock.unlock()
    }

    var events: [AdaptedEvent] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}

extension AdaptedEvent.Kind {
    /// The trace payload of this kind, its names interned into `symbols`.
    func payload(_ symbols: inout SymbolTable) -> EventPayload {
        func intern(_ string: String?) -> Symbol { string.map { symbols.intern($0) } ?? .none }
        switch self {
        case .callbackBegin(let name, let scene): return .callbackBegin(name: intern(name), scene: intern(scene))
        case .callbackEnd(let name, let scene): return .callbackEnd(name: intern(name), scene: intern(scene))
        case .runloopWake: return .runloopWake
        case .runloopSleep: return .runloopSleep
        case .frame(let first): return .frame(first: first)
        case .signpostBegin(let name, let id): return .signpostBegin(name: intern(name), id: id)
        case .signpostEnd(let name, let id): return .signpostEnd(name: intern(name), id: id)
        case .mark(let name): return .mark(name: intern(name))
        case .bgtaskBegin(let id, let name): return .bgtaskBegin(id: id, name: intern(name))
        case .bgtaskEnd(let id, let name): return .bgtaskEnd(id: id, name: intern(name))
        case .bgtaskExpire(let id, let name): return .bgtaskExpire(id: id, name: intern(name))
        }
    }
}

/// One line per event, names resolved, for comparing traces whose symbol tables differ.
func rendered(_ events: [TraceEvent], _ symbols: SymbolTable) -> [String] {
    func name(_ symbol: Symbol) -> String { symbol.isNone ? "-" : symbols[symbol] }
    return events.map { event in
        let fields: String
        switch event.payload {
        case .launch(let reason, let background, let prewarm, let pid):
            fields = "reason=\(name(reason)) background=\(background) prewarm=\(prewarm) pid=\(pid.map(String.init) ?? "-")"
        case .callbackBegin(let callback, let scene), .callbackEnd(let callback, let scene):
            fields = "\(name(callback)) scene=\(name(scene))"
        case .signpostBegin(let signpost, let id), .signpostEnd(let signpost, let id):
            fields = "\(name(signpost)) id=\(id.map(String.init) ?? "-")"
        case .mark(let mark): fields = name(mark)
        case .frame(let first): fields = "first=\(first.map(String.init) ?? "-")"
        case .bgtaskBegin(let id, let task), .bgtaskEnd(let id, let task), .bgtaskExpire(let id, let task):
            fields = "\(id) \(name(task))"
        case .exit(let code, let signal): fields = "code=\(code.map(String.init) ?? "-") signal=\(signal.map(String.init) ?? "-")"
        default: fields = ""
        }
        return "\(event.timestamp) \(event.thread) \(event.type.name) \(fields)"
    }
}
