import LifecycleModel
import LifetraceFormat

/// One scene's two views within a lifetime.
struct SceneRecord {
    var name: Symbol
    /// The scene's app view, a machine of the model.
    var machine: SceneMachine
    /// The last scene callback that changed the app view.
    var appChange: TraceEvent?
    /// The scene's system view, from `state` events with this scene.
    var systemView = SystemViewMachine()
    /// The last `state` event for this scene.
    var systemChange: TraceEvent?

    /// The scene's app view; nil when unknown (a trace that starts mid-lifetime).
    var app: SceneViewState? { machine.state }
    /// The scene's system view.
    var system: LifecycleState? { systemView.state }
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
    /// The launch's kind, read by the model as the launch goes on.
    var launchKind: LaunchKindMachine
    var reason: Symbol = .none
    var pid: Int64?
    var lastTimestamp: Int64
    var eventCount = 0
    var dropped: Int64 = 0

    /// The allowances for real iOS that apply to the trace: the model's machines are built with them.
    let allowances: AllowanceSet

    // System view.
    var systemView = SystemViewMachine()
    var systemChange: TraceEvent?
    var systemBeforeNotRunning: LifecycleState?
    var hasStateEvents = false
    var systemTimes = [Int64](repeating: 0, count: 5)
    var systemSince: Int64

    // App view, and the effective app view (scenes included).
    var appDelegate: AppDelegateMachine
    var appChange: TraceEvent?
    var effective: AppViewState?
    var effectiveChange: TraceEvent?
    var appTimes = [Int64](repeating: 0, count: 6)
    var appSince: Int64
    var scenes: [SceneRecord] = []
    /// Each scene's position in ``scenes``, by name: a scene event finds its record in constant time.
    var sceneIndexes: [Symbol: Int] = [:]

    // Launch sequence.
    var launchSequence = LaunchSequence()
    var launchWitness: TraceEvent?

    /// The last lifecycle callback that began.
    var lastCallback: TraceEvent?

    // Termination.
    var willTerminateBegin: TraceEvent?
    var terminateEnd: TraceEvent?
    /// The model's termination sequence.
    var termination = TerminationSequence()

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
    /// Whether the launch moment may still move: a prewarmed launch before its resume is settled
    /// (``LifecycleEdge/launchTimed(lifetime:from:settled:)``).
    var launchMomentOpen = false
    /// Main-thread busy time before the resume: the prewarm's work.
    var prewarmBusy: Int64 = 0
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

    init(index: Int, start: Int64, allowances: AllowanceSet) {
        self.index = index
        self.allowances = allowances
        appDelegate = AppDelegateMachine(allowances: allowances)
        launchKind = LaunchKindMachine(allowances: allowances)
        self.start = start
        lastTimestamp = start
        systemSince = start
        appSince = start
        lastAppActivity = start
    }

    /// The launch's kind.
    var kind: LaunchKind { launchKind.kind }
    /// Whether a lifecycle callback moved the app (or a scene) to the foreground.
    var foregroundMoved: Bool { launchKind.foregroundMoved }
    /// When the user left a foreground launch before its first activation.
    var abandonedAt: Int64? { launchKind.abandonedAt }
    /// Whether the prewarm's resume came from a `state` event.
    var resumeFromState: Bool { launchKind.resumeFromState }
    /// Whether the launch's callbacks began (the launch sequence moved, or a launch callback's
    /// moment is known).
    var launchCallbacksBegan: Bool { launchSequence.started || willFinishBegin != nil || didFinishEnd != nil }

    /// Suspended or past willTerminate: every app-side event is then a violation.
    var silent: Bool { termination.silent }

    /// The system view's state.
    var system: LifecycleState? { systemView.state }
    /// The app delegate's view.
    var app: AppViewState? { appDelegate.state }
    /// Whether an app-delegate transition callback has come (false in a scene-based app).
    var appDelegateMoved: Bool { appDelegate.moved }
    /// The last app-delegate transition callback.
    var lastAppTransition: CallbackName? { appDelegate.lastTransition }

    /// What the app delegate's machine reads of the scenes now.
    var scenesSeen: AppDelegateMachine.Scenes {
        AppDelegateMachine.Scenes(
            any: !scenes.isEmpty, connected: scenes.contains { $0.app?.isConnected == true }, effective: effective,
            wasActive: wasActive)
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
        AppViewState.effective(app: app, scenes: scenes.lazy.map(\.app))
    }

    /// The index of `scene`'s record, creating it (unattached, or unknown without a launch); nil
    /// for a new scene when the lifetime already follows ``CappedCounts/sceneLimit`` scenes.
    mutating func sceneIndex(_ scene: Symbol) -> Int? {
        if let index = sceneIndexes[scene] { return index }
        guard scenes.count < CappedCounts.sceneLimit else { return nil }
        scenes.append(SceneRecord(name: scene, machine: SceneMachine(launchTime == nil ? nil : .unattached, allowances: allowances)))
        sceneIndexes[scene] = scenes.count - 1
        return scenes.count - 1
    }
}
