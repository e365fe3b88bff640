import LifetraceFormat

/// A strict, test-only check that a stream of events follows the seed documents' life cycle, used
/// to hold the synthesizer to it. It checks more than the analyzer's rules need (everything must
/// be closed at every exit, background running stays under 30 s) because synthesized traces are
/// meant to be clean apart from stalls after launch.
struct LifeCycleCheck {
    private enum AppState: Equatable { case notRunning, launching, inactive, active, background, terminated }

    private(set) var symbols: SymbolTable
    private(set) var problems: [String] = []
    private(set) var lifetimes = 0
    private(set) var launchKinds: Set<String> = []
    private(set) var suspensions = 0
    private(set) var framesOnMainThread = 0
    private(set) var workerThreadEvents = 0
    private(set) var scenesSeen = false

    private var lastTimestamp = Int64.min
    private var system: LifecycleState = .notRunning
    private var app: AppState = .notRunning
    private var launchedInBackground = false
    private var launchCallbacks: [CallbackName] = []
    private var scenes: [Symbol: LifecycleState] = [:]
    private var open: [ThreadID: [String]] = [:]
    private var tasks: Set<Int64> = []
    private var inLaunchWindow = false
    private var wakeAt: Int64?
    private var backgroundSince: Int64?

    init(symbols: SymbolTable) { self.symbols = symbols }

    private mutating func fail(_ event: TraceEvent, _ message: String) {
        if problems.count < 20 { problems.append("\(event.timestamp) \(event.type.name): \(message)") }
    }

    mutating func observe(_ event: TraceEvent) {
        if event.timestamp < lastTimestamp { fail(event, "time goes backwards") }
        lastTimestamp = event.timestamp
        if event.stream == .system {
            observeSystem(event)
            return
        }
        if app == .notRunning { fail(event, "app event outside a lifetime") }
        if app == .terminated { fail(event, "app event after willTerminate") }
        if system == .suspended { fail(event, "app event while suspended") }
        if event.thread.isMain { observeMainThread(event) } else { workerThreadEvents += 1 }
        switch event.payload {
        case .callbackBegin(let name, let scene):
            open[event.thread, default: []].append("c" + symbols[name])
            if let callback = symbols.callback(name) { observeCallback(callback, scene: scene, event) }
        case .signpostBegin(let name, let id):
            open[event.thread, default: []].append("s\(symbols[name])#\(id ?? -1)")
        case .callbackEnd(let name, _):
            close("c" + symbols[name], event)
            if symbols.callback(name) == .willTerminate { app = .terminated }
        case .signpostEnd(let name, let id):
            close("s\(symbols[name])#\(id ?? -1)", event)
        case .bgtaskBegin(let id, _):
            if !tasks.insert(id).inserted { fail(event, "task \(id) taken twice") }
        case .bgtaskEnd(let id, _):
            if tasks.remove(id) == nil { fail(event, "task \(id) not open") }
        case .bgtaskExpire:
            fail(event, "a background task expired")
        default:
            break
        }
    }

    private mutating func observeMainThread(_ event: TraceEvent) {
        switch event.payload {
        case .runloopWake:
            if wakeAt != nil { fail(event, "run loop woken twice") }
            wakeAt = event.timestamp
        case .runloopSleep:
            guard let wake = wakeAt else { return fail(event, "sleep without wake") }
            if inLaunchWindow && event.timestamp - wake >= 250_000_000 { fail(event, "stall in the launch window") }
            wakeAt = nil
        case .frame:
            framesOnMainThread += 1
            inLaunchWindow = false
        default:
            break
        }
    }

    private mutating func close(_ key: String, _ event: TraceEvent) {
        guard open[event.thread]?.last == key else { return fail(event, "\(key) ends but is not the innermost open") }
        open[event.thread]!.removeLast()
    }

    private mutating func observeSystem(_ event: TraceEvent) {
        switch event.payload {
        case .launch(_, let background, let prewarm, _):
            if app != .notRunning { fail(event, "launch while running") }
            lifetimes += 1
            launchKinds.insert(background ? "background" : prewarm ? "prewarmed" : "cold")
            system = background ? .background : .inactive
            app = .launching
            launchedInBackground = background
            launchCallbacks = []
            scenes = [:]
            inLaunchWindow = !background
            backgroundSince = background ? event.timestamp : nil
        case .state(let to, _):
            if system == .active && (to == .background || to == .suspended) { fail(event, "active to \(to.name)") }
            if (system == .background || system == .suspended) && to == .active { fail(event, "\(system.name) to active") }
            if to == .suspended {
                suspensions += 1
                checkNothingOpen(event, "suspension")
                if !tasks.isEmpty { fail(event, "suspended with a background task open") }
            }
            if let since = backgroundSince, system == .background, to != .background,
                event.timestamp - since > 30_000_000_000
            {
                fail(event, "ran in the background for more than 30 s")
            }
            if to == .background && system != .background { backgroundSince = event.timestamp }
            if to != .background && to != .suspended { backgroundSince = nil }
            system = to
        case .exit(_, let signal):
            if (system == .inactive || system == .active) && app != .terminated { fail(event, "exit in the foreground") }
            if signal == nil && app != .terminated { fail(event, "clean exit without willTerminate") }
            checkNothingOpen(event, "exit")
            app = .notRunning
            system = .notRunning
            tasks = []
        default:
            fail(event, "app event type on the system stream")
        }
    }

    private mutating func checkNothingOpen(_ event: TraceEvent, _ what: String) {
        for (thread, keys) in open where !keys.isEmpty { fail(event, "\(keys) open on thread \(thread) at \(what)") }
        if wakeAt != nil { fail(event, "main run loop awake at \(what)") }
    }

    private mutating func observeCallback(_ callback: CallbackName, scene: Symbol, _ event: TraceEvent) {
        if callback.isLifecycleCallback && !event.thread.isMain { fail(event, "lifecycle callback off the main thread") }
        if callback.isSceneCallback {
            scenesSeen = true
            observeScene(callback, scene: scene, event)
            return
        }
        switch callback {
        case .willFinishLaunching, .didFinishLaunching:
            launchCallbacks.append(callback)
            if launchCallbacks.count > 2 || app != .launching { fail(event, "\(callback) out of place") }
            if callback == .didFinishLaunching {
                if launchCallbacks != [.willFinishLaunching, .didFinishLaunching] { fail(event, "launch sequence") }
                app = launchedInBackground ? .background : .inactive
            }
        case .didBecomeActive: transition(from: .inactive, to: .active, event)
        case .willResignActive: transition(from: .active, to: .inactive, event)
        case .didEnterBackground: transition(from: .inactive, to: .background, event)
        case .willEnterForeground: transition(from: .background, to: .inactive, event)
        case .willTerminate: if app != .background { fail(event, "willTerminate while not in the background") }
        default: break
        }
    }

    private mutating func transition(from: AppState, to: AppState, _ event: TraceEvent) {
        if app != from { fail(event, "app view \(app) is not \(from)") }
        app = to
    }

    private mutating func observeScene(_ callback: CallbackName, scene: Symbol, _ event: TraceEvent) {
        let moves: [CallbackName: (LifecycleState, LifecycleState)] = [
            .sceneWillEnterForeground: (.background, .inactive), .sceneDidBecomeActive: (.inactive, .active),
            .sceneWillResignActive: (.active, .inactive), .sceneDidEnterBackground: (.inactive, .background),
        ]
        switch callback {
        case .sceneWillConnect:
            if scenes[scene] != nil { fail(event, "scene connected twice") }
            scenes[scene] = .background
        case .sceneDidDisconnect:
            if scenes.removeValue(forKey: scene) == nil { fail(event, "scene not connected") }
        default:
            guard let (from, to) = moves[callback] else { return }
            if scenes[scene] != from { fail(event, "\(callback) for a scene in \(String(describing: scenes[scene]))") }
            scenes[scene] = to
        }
    }

    /// Checks the end of the trace.
    mutating func finish() {
        if app != .notRunning {
            problems.append("the trace ends inside a lifetime")
        }
    }
}

extension LifeCycleCheck {
    /// The same check, with a symbol table that has grown since (a reader interns as it goes).
    init(continuing check: LifeCycleCheck, symbols: SymbolTable) {
        self = check
        self.symbols = symbols
    }
}
