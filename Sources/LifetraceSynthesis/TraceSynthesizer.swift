import LifetraceFormat
/// Generates the reference workload: a deterministic, realistic trace of an app's life cycle.
///
/// The trace holds several process lifetimes of a scene-based (or, sometimes, app-delegate only)
/// app: cold, prewarmed and background launches with their callbacks, a 60 Hz main run loop whose
/// wakes follow vsync with realistic latency and busy durations, signposts nested in busy
/// intervals and on worker threads, marks, frames, foreground/background cycles with background
/// tasks, suspensions (with no app event while suspended), memory warnings, and an end by
/// willTerminate, by a kill while suspended (purge) or by the user. Every lifetime follows the
/// life cycle of the seed documents; the only deliberate anomalies are occasional main-thread
/// stalls after launch. See `docs/PERFORMANCE.md`, "Reference workload".
///
/// Events come out in timestamp order and are generated lazily, a few at a time, so any count
/// runs in constant memory. The output depends only on the event count and the seed, on every
/// platform (see ``SynthesisRandom``). Timestamps are whole microseconds, in nanoseconds.
public struct TraceSynthesizer: TraceEventSource {
    /// The fewest events a synthesized trace can hold: one short background lifetime.
    public static let minimumEventCount = 16

    /// The trace's metadata: app, OS, device, recorder, seed and event count.
    public let metadata: TraceMetadata
    /// Every string the trace uses; complete before the first event.
    public var symbols: SymbolTable { names.table }
    /// The number of strings in ``symbols``.
    public var symbolCount: Int { names.table.count }
    /// Always empty.
    public var issues: [TraceError] { [] }
    /// The number of events the trace holds.
    public let eventCount: Int
    /// The seed it was generated from.
    public let seed: UInt64

    var random: SynthesisRandom
    let names: SynthesisNames
    var queue = SynthesizedEventQueue()
    /// Events generated so far (handed out or waiting in the queue).
    var generated = 0
    /// The main thread's clock: every event generated from now on is at or after it.
    var now: Int64
    var phase: Phase
    var life = Lifetime()
    /// Where the app is in the life cycle, as LifecycleModel's tables move it.
    var lifeCycle = SynthesizedLifeCycle()
    var pid: Int64
    var nextSignpostID: Int64 = 1
    var nextTaskID: Int64 = 1
    /// When the last worker-thread interval scheduled so far ends.
    var workersQuietAt: Int64 = 0

    /// What the app is doing, and until when.
    enum Phase {
        case notRunning(until: Int64)
        case active(until: Int64)
        case inactive(until: Int64)
        case background(until: Int64)
        case suspended(until: Int64)
        case finished
    }

    /// What one process lifetime is like.
    struct Lifetime {
        /// The scenes the app uses; empty for an app-delegate only app.
        var scenes: [Symbol] = []
        /// The scenes connected now.
        var connected: [Symbol] = []
        /// The time of one vsync, and the display's refresh period.
        var vsyncOrigin: Int64 = 0
        var vsyncPeriod: Int64 = 16_666_667
        /// Whether the user is interacting (a frame every vsync) or the app idles, and until when.
        var interactive = false
        var modeUntil: Int64 = 0
        /// The open background task.
        var task: (id: Int64, name: Symbol, end: Int64)?
        /// Worker thread ids and when each is free again.
        var workerThreads: [ThreadID] = []
        var workerFreeAt: [Int64] = []
        /// Whether protected data became unavailable (device locked) while in the background.
        var protectedDataLocked = false
        /// When the app entered the background, to keep background running time short.
        var backgroundSince: Int64 = 0
    }

    /// A synthesizer for a trace of `eventCount` events (at least ``minimumEventCount``) from `seed`.
    public init(eventCount: Int, seed: UInt64) {
        precondition(eventCount >= Self.minimumEventCount, "a synthesized trace holds at least 16 events")
        self.eventCount = eventCount
        self.seed = seed
        random = SynthesisRandom(seed: seed)
        names = SynthesisNames()
        metadata = TraceMetadata([
            ("app", "com.example.Notes"), ("appVersion", "4.2 (1187)"), ("os", "iOS 17.5.1"),
            ("device", "iPhone15,2"), ("recorder", "lifetrace synth"), ("seed", String(seed)),
            ("events", String(eventCount)),
        ])
        // A monotonic clock counts from boot: start somewhere in the device's first day.
        now = Self.microseconds(random.uniform(600, 86_400) * 1e9)
        phase = .notRunning(until: now)
        pid = Int64(random.integer(in: 300...4000))
    }

    /// The next event in timestamp order, or nil once ``eventCount`` events have come out.
    public mutating func next() -> TraceEvent? {
        while true {
            if let first = queue.firstTimestamp, first <= now || isFinished { return queue.removeFirst() }
            if isFinished { return nil }
            step()
        }
    }

    private var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }

    /// Headroom kept for the wind-down; no single step generates more than about half of it.
    static let windDownReserve = 96

    /// Generates the next few events: one run-loop activity or one lifecycle transition.
    private mutating func step() {
        if eventCount - generated <= Self.windDownReserve {
            windDown()
            return
        }
        switch phase {
        case .notRunning(let until):
            now = max(now, until)
            launch()
        case .active(let until):
            if now >= until { leaveActive() } else { activeRunLoopActivity() }
        case .inactive(let until):
            if now >= until { leaveInactive() } else { idleWake(until: until, frames: false) }
        case .background(let until):
            if now >= until { leaveBackground() } else { backgroundWake(until: until) }
        case .suspended(let until):
            now = max(now, until)
            leaveSuspension()
        case .finished:
            break
        }
    }

    /// Ends the trace with exactly the events left: the app goes (or stays) in the background,
    /// runs a few short wakes to use up the count, is suspended and is purged.
    private mutating func windDown() {
        switch phase {
        case .notRunning(let until):
            now = max(now, until)
            emit(.launch(reason: names.fetchReason, background: true, prewarm: false, pid: nextPID()))
            advance(milliseconds: random.uniform(90, 300))
            startLifetime(scenes: [])
            busy {
                $0.callback(.willFinishLaunching, milliseconds: $0.random.uniform(1, 6))
                $0.callback(.didFinishLaunching, milliseconds: $0.random.uniform(10, 60))
            }
        case .active:
            enterInactive()
            enterBackground(allowTask: false)
        case .inactive:
            enterBackground(allowTask: false)
        case .background:
            break
        case .suspended:
            emit(.state(to: .background, scene: .none))
            life.backgroundSince = now
        case .finished:
            return
        }
        if let task = life.task {
            now = max(now, min(task.end, now + 2_000_000_000))
            busy { $0.emit(.bgtaskEnd(id: task.id, name: task.name)) }
            life.task = nil
        }
        var left = eventCount - generated - 2
        precondition(left >= 0, "the wind-down reserve is too small")
        if left % 2 == 1 {
            advance(milliseconds: random.uniform(5, 60))
            emit(.mark(name: random.element(of: names.backgroundSignposts)))
            left -= 1
        }
        while left > 0 {
            advance(milliseconds: random.longTail(minimum: 10, maximum: 90))
            busy { $0.advance(milliseconds: $0.random.uniform(0.1, 2)) }
            left -= 2
        }
        now = max(now, workersQuietAt) + Self.microseconds(random.uniform(1, 40) * 1e6)
        emit(.state(to: .suspended, scene: .none))
        advance(milliseconds: random.uniform(2_000, 60_000))
        emit(.exit(code: nil, signal: 9))
        phase = .finished
    }

    // MARK: Generating events

    /// Rounds nanoseconds to whole microseconds, as the recorder's clock does.
    static func microseconds(_ nanoseconds: Double) -> Int64 {
        Int64(nanoseconds / 1000) * 1000
    }

    /// Moves the main thread's clock on.
    mutating func advance(milliseconds: Double) {
        now += Self.microseconds(milliseconds * 1e6)
    }

    /// A main-thread (or system) event now; it must be a move the life cycle's tables draw.
    mutating func emit(_ payload: EventPayload) {
        lifeCycle.observe(payload, symbols: names.table)
        queue.insert(TraceEvent(timestamp: now, payload: payload))
        generated += 1
    }

    /// A worker-thread event at `time`, which may be ahead of the main thread's clock.
    mutating func schedule(_ payload: EventPayload, at time: Int64, thread: ThreadID) {
        queue.insert(TraceEvent(timestamp: time, payload: payload, thread: thread))
        generated += 1
    }

    /// A main-thread busy interval: the run loop wakes, `body` runs, the run loop sleeps.
    mutating func busy(_ body: (inout TraceSynthesizer) -> Void) {
        emit(.runloopWake)
        body(&self)
        advance(milliseconds: random.uniform(0.01, 0.08))
        emit(.runloopSleep)
    }

    /// A callback that takes about `milliseconds`, with `body` running inside it.
    mutating func callback(
        _ name: CallbackName, scene: Symbol = .none, milliseconds: Double,
        _ body: (inout TraceSynthesizer) -> Void = { _ in }
    ) {
        advance(milliseconds: random.uniform(0.005, 0.05))
        let start = now
        emit(.callbackBegin(name: names.callback(name), scene: scene))
        body(&self)
        now = max(now, start + Self.microseconds(milliseconds * 1e6))
        emit(.callbackEnd(name: names.callback(name), scene: scene))
    }

    /// A main-thread signpost around `body`, lasting at least `milliseconds`.
    mutating func signpost(
        _ name: Symbol, milliseconds: Double, id: Int64? = nil, _ body: (inout TraceSynthesizer) -> Void = { _ in }
    ) {
        advance(milliseconds: random.uniform(0.005, 0.05))
        let start = now
        emit(.signpostBegin(name: name, id: id))
        body(&self)
        now = max(now, start + Self.microseconds(milliseconds * 1e6))
        emit(.signpostEnd(name: name, id: id))
    }

    mutating func nextPID() -> Int64 {
        pid += Int64(random.integer(in: 3...900))
        return pid
    }
}
