import LifecycleModel
import LifetraceFormat

/// One scene's two views within a lifetime.
struct SceneRecord {
    var name: Symbol
    /// The scene's app view; nil when unknown (a trace that starts mid-lifetime).
    var app: SceneViewState?
    /// The last scene callback that changed the app view.
    var appChange: TraceEvent?
    /// The scene's system view, from `state` events with this scene.
    var system: LifecycleState?
    /// The last `state` event for this scene.
    var systemChange: TraceEvent?
}

/// A stall found in a lifetime, with the event that opened its busy interval.
struct RecordedStall {
    var stall: Stall
    var startEvent: TraceEvent
    /// Whether the app was in the foreground when the busy interval began and still when it
    /// ended (a stall that moved the app to Background was spent in the transition's callbacks).
    var inForeground: Bool
    /// Whether the busy interval began with the app in Background and ended with it in the
    /// foreground: the app's return to the screen (a resume hang, MetricKit's resume time).
    var resumed = false
}

/// The state of the lifetime being replayed. Everything here resets at each `launch`.
struct Lifetime {
    var index: Int
    var launchEvent: TraceEvent?
    var launchTime: Int64?
    /// With no `launch` event: the launch callbacks came first, so the lifetime is a launch
    /// that started at its first event (``firstEvent``).
    var launchInferred = false
    /// The lifetime's first event; the launch's witness when the launch is inferred.
    var firstEvent: TraceEvent?
    /// The time the lifetime started: its launch, or its first event.
    var start: Int64
    var kind: LaunchKind
    var reason: Symbol = .none
    var pid: Int64?
    var lastTimestamp: Int64
    var eventCount = 0
    var dropped: Int64 = 0

    // System view.
    var system: LifecycleState?
    var systemChange: TraceEvent?
    var systemBeforeNotRunning: LifecycleState?
    var hasStateEvents = false
    var systemTimes = [Int64](repeating: 0, count: 5)
    var systemSince: Int64

    // App view, and the effective app view (scenes included).
    var app: AppViewState?
    var appChange: TraceEvent?
    var effective: AppViewState?
    var effectiveChange: TraceEvent?
    var appTimes = [Int64](repeating: 0, count: 6)
    var appSince: Int64
    var scenes: [SceneRecord] = []
    /// Each scene's position in ``scenes``, by name: a scene event finds its record in constant time.
    var sceneIndexes: [Symbol: Int] = [:]
    /// Whether an app-delegate transition callback has come (false in a scene-based app).
    var appDelegateMoved = false

    // Launch sequence: 0 nothing yet, 1 willFinishLaunching seen, 2 launch done (or given up on).
    var launchStep: UInt8 = 0
    var launchWitness: TraceEvent?

    /// The last lifecycle callback that began.
    var lastCallback: TraceEvent?

    // Termination.
    var willTerminateBegin: TraceEvent?
    var willTerminateReported = false
    var terminateEnd: TraceEvent?
    /// Suspended or past willTerminate: every app-side event is then a violation.
    var silent = false

    // Launch window.
    var willFinishBegin: Int64?
    var didFinishEnd: Int64?
    var firstActiveEnd: Int64?
    var firstFrame: Int64?
    var didFinishEndEvent: TraceEvent?
    var firstActiveEndEvent: TraceEvent?
    var firstFrameEvent: TraceEvent?
    /// Whether the edge that closes the launch window went out (``LifecycleEdge/launchWindowClosed(lifetime:at:)``).
    var launchWindowClosedSent = false
    /// The effective app view reached Background before the first activation (an inferred
    /// launch's kind is then background).
    var backgroundBeforeActive = false
    /// The effective app view was Active at some point.
    var wasActive = false

    // Real iOS (the allowances, docs/LIFECYCLE.md "Real iOS").
    /// Where the user's launch of a prewarmed process began (the resume), once found.
    var resumeTime: Int64?
    /// Whether the resume came from a `state` event (a later pause then moves it no more).
    var resumeFromState = false
    /// Whether the launch moment may still move: a prewarmed launch before its resume is settled
    /// (``LifecycleEdge/launchTimed(lifetime:from:settled:)``).
    var launchMomentOpen = false
    /// Main-thread busy time before the resume: the prewarm's work.
    var prewarmBusy: Int64 = 0
    /// A lifecycle callback moved the app (or a scene) to the foreground: willEnterForeground,
    /// didBecomeActive or their scene forms.
    var foregroundMoved = false
    /// The app paused (no app-side event for ``RealIOSTimes/launchPause``) after didFinishLaunching
    /// began and before the first move to the foreground, or ran a BGTaskScheduler task's launch
    /// handler then (the system calls it only when it launches the app in the background).
    var pausedAfterLaunchCallbacks = false
    /// The callbacks said this foreground-recorded launch was a background launch.
    var backgroundLaunchInferred = false
    /// ... from an app-level willEnterForeground alone, with no pause before it.
    var backgroundInferredFromCallbackAlone = false
    /// didEnterBackground came before any activation, in an app view that was known.
    var appDelegateBackgroundBeforeActive = false
    /// When the user left a foreground launch before its first activation.
    var abandonedAt: Int64?
    /// The last app-delegate transition callback.
    var lastAppTransition: CallbackName?
    /// How many suspensions were inferred from silences in Background.
    var inferredSuspensions = 0
    /// The allowances that changed something in this lifetime (listed in its ending's facts).
    var allowancesApplied = AllowanceSet.none

    /// Where the launch window starts: the resume of a prewarmed launch, else the launch.
    var windowStart: Int64? { resumeTime ?? launchTime }

    // Main thread.
    var runLoopSeen = false
    var mainCallbacksSeen = false
    var busyToDidFinishEnd: Int64 = 0
    var busyToFirstActiveEnd: Int64 = 0
    var busyToFrame: Int64 = 0
    /// The first ``CappedCounts/lifetimeStallLimit`` stalls, in full.
    var stalls: [RecordedStall] = []
    /// The stalls past those, as counts.
    var stallsPastLimit = StallsPastLimit()

    // Background time.
    /// The background tasks open, by id (``EdgeInterval/key``), oldest first.
    var openTasks: [EdgeInterval] = []
    /// The background tasks the system expired whose end is awaited (at most
    /// ``ThreadStacks/depthLimit``), oldest first.
    var expiredTasks: [BackgroundTimeMonitor.ExpiredTask] = []
    /// The `background-time` monitor's clock of the stretches in Background with no task open.
    var backgroundTime = BackgroundTimeMonitor()
    /// What it found in each view, reported at the lifetime's end by the view the lifetime trusts.
    var systemBackgroundFound = ViolationList()
    var appBackgroundFound = ViolationList()
    var lastAppActivity: Int64
    /// The time of the lifetime's first app-side event (`Int64.max` before it): a `recordingStart`
    /// after it contradicts the events (the recorder cannot have recorded before it started).
    var firstAppActivity = Int64.max

    init(index: Int, start: Int64) {
        self.index = index
        kind = .unknown
        self.start = start
        lastTimestamp = start
        systemSince = start
        appSince = start
        lastAppActivity = start
    }

    /// The window callback: didFinishLaunching for a background launch, else the first
    /// didBecomeActive or sceneDidBecomeActive.
    var windowCallbackEnd: Int64? { kind == .background ? didFinishEnd : firstActiveEnd }

    /// The event that ended the window callback.
    var windowCallbackEvent: TraceEvent? { kind == .background ? didFinishEndEvent : firstActiveEndEvent }

    /// The launch's witness: the `launch` event, or the first event of an inferred launch.
    var launchWitnessEvent: TraceEvent? { launchEvent ?? (launchInferred ? firstEvent : nil) }

    /// The state the lifetime-level rules read: the system view when the lifetime has `state`
    /// events, else the effective app view.
    var trustedState: LifecycleState? {
        hasStateEvents ? system : effective?.lifecycleState
    }

    /// Whether the app is in the foreground (Inactive or Active) by the state the rules read.
    var inForeground: Bool {
        let state = trustedState
        return state == .inactive || state == .active
    }

    /// The effective app view: terminating once willTerminate is delivered; otherwise, in a
    /// scene-based app, the most active connected scene; otherwise the app delegate's view.
    func computeEffective() -> AppViewState? {
        if app == .terminating { return .terminating }
        var best: AppViewState?
        for scene in scenes {
            let state: AppViewState
            switch scene.app {
            case .active: state = .active
            case .inactive: state = .inactive
            case .background: state = .background
            case .unattached, nil: continue
            }
            if best == nil || Lifetime.rank(state) > Lifetime.rank(best!) { best = state }
        }
        return best ?? app
    }

    private static func rank(_ state: AppViewState) -> Int {
        switch state {
        case .active: 3
        case .inactive: 2
        case .background: 1
        case .terminating: 0
        }
    }

    /// The index of `scene`'s record, creating it (unattached, or unknown without a launch); nil
    /// for a new scene when the lifetime already follows ``CappedCounts/sceneLimit`` scenes.
    mutating func sceneIndex(_ scene: Symbol) -> Int? {
        if let index = sceneIndexes[scene] { return index }
        guard scenes.count < CappedCounts.sceneLimit else { return nil }
        scenes.append(SceneRecord(name: scene, app: launchTime == nil ? nil : .unattached))
        sceneIndexes[scene] = scenes.count - 1
        return scenes.count - 1
    }
}
