import LifetraceFormat

/// A deterministic pseudo-random generator (SplitMix64), so that property tests are repeatable.
package struct SeededRandom: RandomNumberGenerator {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One step of a generated trace, before it is turned into events.
package struct WalkItem {
    package enum Kind {
        case launch(background: Bool, prewarm: Bool)
        case state(LifecycleState)
        case callback(String, scene: String?, thread: ThreadID)
        case wake, sleep, frame
        case mark(String)
        case signpost(String)
        case taskBegin(Int64), taskEnd(Int64)
        case exit(code: Int32?, signal: Int32?)
    }

    package var ms: Double
    package var kind: Kind

    package init(ms: Double, kind: Kind) {
        self.ms = ms
        self.kind = kind
    }

    /// The callback name, for callbacks.
    package var callback: String? {
        if case .callback(let name, _, _) = kind { return name }
        return nil
    }
}

/// A random walk over the seeds' state diagram: foreground and background launches, scene-based
/// and app-delegate apps, interruptions, background and foreground moves, suspension, resumption,
/// purge and termination. Every trace it makes follows the life cycle.
package struct LifecycleWalk {
    package var random: SeededRandom
    package var items: [WalkItem] = []
    package var time: Double = 0
    package var backgroundSince: Double = 0
    package let states: Bool
    package let runLoop: Bool

    package init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        states = Bool.random(using: &random)
        runLoop = Bool.random(using: &random)
    }

    /// Makes a trace of `lifetimes` lifetimes.
    package static func make(seed: UInt64, lifetimes: Int = 3) -> LifecycleWalk {
        var walk = LifecycleWalk(seed: seed)
        for _ in 0..<lifetimes { walk.lifetime() }
        return walk
    }

    private mutating func advance(_ low: Double = 2, _ high: Double = 40) {
        time += Double.random(in: low...high, using: &random).rounded()
    }

    private mutating func add(_ kind: WalkItem.Kind) {
        advance()
        items.append(WalkItem(ms: time, kind: kind))
    }

    private mutating func state(_ to: LifecycleState) { if states { add(.state(to)) } }

    private mutating func callback(_ name: String, scene: String? = nil) {
        if runLoop { add(.wake) }
        add(.callback(name, scene: scene, thread: .main))
        if runLoop { add(.sleep) }
    }

    private mutating func work() {
        if runLoop { add(.wake) }
        switch Int.random(in: 0..<3, using: &random) {
        case 0: add(.signpost("render"))
        case 1: add(.mark("tap"))
        default: add(.frame)
        }
        if runLoop { add(.sleep) }
    }

    package mutating func lifetime() {
        advance(500, 2000)
        let foreground = Bool.random(using: &random)
        let scenes = Bool.random(using: &random)
        add(.launch(background: !foreground, prewarm: foreground && Bool.random(using: &random)))
        callback("willFinishLaunching")
        callback("didFinishLaunching")
        if scenes { callback("sceneWillConnect", scene: "main") }
        var app: LifecycleState = foreground ? .inactive : .background
        backgroundSince = time
        if foreground {
            if scenes { callback("sceneWillEnterForeground", scene: "main") }
            activate(scenes: scenes)
            app = .active
        }
        for _ in 0..<Int.random(in: 2...10, using: &random) {
            switch app {
            case .active:
                switch Int.random(in: 0..<3, using: &random) {
                case 0:  // an interruption: a call comes in and goes
                    resign(scenes: scenes)
                    activate(scenes: scenes)
                case 1:
                    resign(scenes: scenes)
                    enterBackground(scenes: scenes)
                    app = .background
                default:
                    work()
                }
            case .background:
                // Without state events suspension is invisible, so a long background stay would
                // look like running: such walks return to the foreground within seconds.
                let choice = !states && time - backgroundSince > 15000 ? 2 : Int.random(in: 0..<4, using: &random)
                switch choice {
                case 0:
                    state(.suspended)
                    advance(1000, states ? 60000 : 8000)
                    state(.background)
                case 1:
                    add(.taskBegin(1))
                    work()
                    add(.taskEnd(1))
                case 2:
                    state(.inactive)
                    callback(scenes ? "sceneWillEnterForeground" : "willEnterForeground", scene: scenes ? "main" : nil)
                    activate(scenes: scenes)
                    app = .active
                default:
                    work()
                }
            default:
                break
            }
        }
        if app == .active {
            resign(scenes: scenes)
            enterBackground(scenes: scenes)
        }
        if Bool.random(using: &random) {
            // The process exits as soon as willTerminate returns: the run loop never sleeps again.
            if runLoop { add(.wake) }
            add(.callback("willTerminate", scene: nil, thread: .main))
            add(.exit(code: 0, signal: nil))
        } else {
            state(.suspended)
            advance(1000, 60000)
            add(.exit(code: nil, signal: 9))
        }
    }

    private mutating func activate(scenes: Bool) {
        state(.active)
        callback(scenes ? "sceneDidBecomeActive" : "didBecomeActive", scene: scenes ? "main" : nil)
        // An active app presents a frame at once; the first one closes the launch window.
        if runLoop { add(.wake) }
        add(.frame)
        if runLoop { add(.sleep) }
    }

    private mutating func resign(scenes: Bool) {
        state(.inactive)
        callback(scenes ? "sceneWillResignActive" : "willResignActive", scene: scenes ? "main" : nil)
    }

    private mutating func enterBackground(scenes: Bool) {
        backgroundSince = time
        state(.background)
        callback(scenes ? "sceneDidEnterBackground" : "didEnterBackground", scene: scenes ? "main" : nil)
    }

    /// The events of the walk: callbacks last 0.5 ms, signposts 0.5 ms.
    package func build() -> TraceBuilder {
        var builder = TraceBuilder()
        for item in items {
            switch item.kind {
            case .launch(let background, let prewarm): builder.launch(item.ms, background: background, prewarm: prewarm)
            case .state(let to): builder.state(item.ms, to)
            case .callback(let name, let scene, let thread):
                builder.callback(item.ms, name, duration: 0.5, scene: scene, thread: thread)
            case .wake: builder.wake(item.ms)
            case .sleep: builder.sleep(item.ms)
            case .frame: builder.frame(item.ms)
            case .mark(let name): builder.mark(item.ms, name)
            case .signpost(let name):
                builder.signpostBegin(item.ms, name)
                builder.signpostEnd(item.ms + 0.5, name)
            case .taskBegin(let id): builder.taskBegin(item.ms, id: id)
            case .taskEnd(let id): builder.taskEnd(item.ms, id: id)
            case .exit(let code, let signal): builder.exit(item.ms, code: code, signal: signal)
            }
        }
        return builder
    }
}
