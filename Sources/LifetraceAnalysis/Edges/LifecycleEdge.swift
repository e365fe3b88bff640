import LifecycleModel
import LifetraceFormat

/// One thing the analyzer derived while replaying a trace: the single source of lifetimes,
/// states, intervals, main-thread busy time, stalls, launch windows and findings for everything
/// that draws or judges a trace (the HTML timeline, the exports, rule files).
///
/// Edges come in the order the analyzer derives them, which is the order of the events that
/// reveal them: every edge of one event before any edge of the next. Within a lifetime, an
/// interval's or a state's end always comes after its begin; everything still open when a
/// lifetime ends is ended (at the lifetime's end) before ``lifetimeEnded(_:)``.
///
/// Names are the trace's ``Symbol``s: resolve them with the symbol table handed to
/// ``LifecycleEdgeSink/receive(_:symbols:)``.
public enum LifecycleEdge: Sendable {
    /// A lifetime began: at a `launch` event (with its launch facts), or at the first event of
    /// a trace or after an `exit` (no launch facts: ``LifetimeBegin/launch`` is nil until a
    /// ``launchInferred(lifetime:at:)`` edge says the lifetime was a launch after all).
    case lifetimeBegan(LifetimeBegin)
    /// A lifetime without a `launch` event turned out to start with the launch callbacks: it is
    /// taken as a launch at its first event (`at`). Its kind is known when the lifetime ends
    /// (``LaunchReport/kind`` of ``launchWindowEnded(_:)``).
    case launchInferred(lifetime: Int, at: Int64)
    /// The launch of a prewarmed lifetime is timed from `from`: the moment its launch window
    /// starts and every time since its launch counts from (``LaunchReport/timestamp``). Sent when
    /// such a lifetime begins (`from` is its `launch` event), again at each resume of the user's
    /// launch found (docs/LIFECYCLE.md, `prewarm-resume`: a later pause before the first move to
    /// the foreground moves it), and once it can move no more (`settled`: the resume came from a
    /// `state` event, or the app or a scene first moved to the foreground). Sent as soon as known,
    /// for what judges events as they come (rule files); the final moment is also
    /// ``LaunchWindow/start`` in ``launchWindowEnded(_:)``. A lifetime that is not a prewarmed
    /// launch, or is read with the textbook model, has none: its launch moment is its `launch`
    /// event (or its first event, ``launchInferred(lifetime:at:)``).
    case launchTimed(lifetime: Int, from: Int64, settled: Bool)
    /// A view's state changed, or became unknown (``StateChange/to`` nil) when its lifetime ended.
    case stateChanged(StateChange)
    /// A callback, signpost or background task began and is followed by the analyzer (beyond
    /// ``ThreadStacks/depthLimit`` open on one thread a begin is counted, not followed).
    case intervalBegan(EdgeInterval)
    /// A followed interval ended at `at`, and how.
    case intervalEnded(EdgeInterval, at: Int64, how: IntervalEnding)
    /// An instant: launch, exit, mark, frame, first frame, background-task expiry, lost events,
    /// or an end that matched nothing open.
    case point(EdgePoint)
    /// The main thread became busy at `at` (a run-loop wake, or without run-loop events the
    /// outermost main-thread callback's begin).
    case busyBegan(at: Int64)
    /// The main thread's busy interval `[start, end]` ended.
    case busyEnded(start: Int64, end: Int64)
    /// A main-thread stall of at least the stall threshold, as ``LifetimeReport/stalls`` lists
    /// it; sent once it is final (in a lifetime that has not yet shown run-loop events the
    /// stalls found from callbacks wait for its end, as the first run-loop event discards them).
    indirect case stall(Stall, lifetime: Int)
    /// The launch window of a lifetime with a launch closed at `at`, by the event just replayed:
    /// the first frame, or the end of didFinishLaunching in a background launch. Sent as soon as
    /// that event is replayed, for what judges events as they come (rule files); a window that no
    /// such event closes is known only at the lifetime's end, from ``launchWindowEnded(_:)``,
    /// which also carries the final extent and the milestones of every window.
    case launchWindowClosed(lifetime: Int, at: Int64)
    /// The launch window of a lifetime with a launch (given or inferred), with its milestones;
    /// sent when the lifetime ends, where the window is final.
    indirect case launchWindowEnded(LaunchWindow)
    /// A rule violation, as soon as the analyzer finds it (violations past the limit are
    /// counted, not sent).
    indirect case finding(Violation)
    /// A lifetime ended: its report tells how (``LifetimeEnd/kind``: exit, relaunch, end of the
    /// trace). Every interval, state and busy interval of the lifetime has ended before.
    indirect case lifetimeEnded(LifetimeReport)
}

/// The start of a lifetime.
public struct LifetimeBegin: Hashable, Sendable {
    /// The lifetime's position in the trace, counted from 0.
    public var index: Int
    /// When it began: the `launch` event, or its first event.
    public var timestamp: Int64
    /// The launch facts of a `launch` event; nil for a lifetime that began without one.
    public var launch: LaunchFacts?

    /// Creates a lifetime start.
    public init(index: Int, timestamp: Int64, launch: LaunchFacts?) {
        self.index = index
        self.timestamp = timestamp
        self.launch = launch
    }
}

/// What a `launch` event says.
public struct LaunchFacts: Hashable, Sendable {
    /// Cold, prewarmed or background.
    public var kind: LaunchKind
    /// The launch reason (``Symbol/none`` when not given).
    public var reason: Symbol
    /// The process id, when given.
    public var pid: Int64?

    /// Creates launch facts.
    public init(kind: LaunchKind, reason: Symbol, pid: Int64?) {
        self.kind = kind
        self.reason = reason
        self.pid = pid
    }
}

/// The views of a lifetime whose states the analyzer follows.
public enum LifecycleView: Hashable, Sendable {
    /// The system's view, from `state` events without a scene (``ViewState/system(_:)``).
    case system
    /// The app delegate's own view, from its callbacks (``ViewState/app(_:)``).
    case app
    /// The effective app view: terminating once willTerminate is delivered, else the most active
    /// connected scene in a scene-based app, else the app delegate's view (``ViewState/app(_:)``).
    case effectiveApp
    /// The state the lifetime-level rules read: the system view when the lifetime has `state`
    /// events, else the effective app view (``ViewState/system(_:)``).
    case trusted
    /// A scene's system view, from `state` events with the scene (``ViewState/system(_:)``).
    case sceneSystem(Symbol)
    /// A scene's app view, from its scene-delegate callbacks (``ViewState/scene(_:)``).
    case sceneApp(Symbol)
}

/// A state of one of the views.
public enum ViewState: Hashable, Sendable {
    /// A state of the system view (also of the trusted view, and of a scene's system view).
    case system(LifecycleState)
    /// A state of the app delegate's view or the effective app view.
    case app(AppViewState)
    /// A state of a scene's app view.
    case scene(SceneViewState)

    /// The state's code in its own enumeration (`rawValue`).
    public var code: UInt8 {
        switch self {
        case .system(let state): state.rawValue
        case .app(let state): state.rawValue
        case .scene(let state): state.rawValue
        }
    }

    /// The state's name, as the docs and reports write it (`inactive`, `notRunning`...).
    public var name: String {
        switch self {
        case .system(let state): state.name
        case .app(let state): state.name
        case .scene(let state): state.name
        }
    }
}

/// A view entering a state.
public struct StateChange: Hashable, Sendable {
    /// The view.
    public var view: LifecycleView
    /// The state it leaves; nil when it was unknown.
    public var from: ViewState?
    /// When the view entered ``from`` (the time of the change that entered it); nil when `from`
    /// is. The state's span is `[since, timestamp]`: no consumer keeps a clock of its own.
    public var since: Int64?
    /// The state it enters; nil when it becomes unknown (its lifetime ended).
    public var to: ViewState?
    /// When (ns on the trace's clock).
    public var timestamp: Int64

    /// Creates a state change.
    public init(view: LifecycleView, from: ViewState?, since: Int64? = nil, to: ViewState?, timestamp: Int64) {
        self.view = view
        self.from = from
        self.since = since
        self.to = to
        self.timestamp = timestamp
    }
}

/// A callback, signpost or background task the analyzer follows from its begin to its end.
public struct EdgeInterval: Hashable, Sendable {
    /// What kind of interval.
    public enum Kind: UInt8, Hashable, Sendable {
        /// A delegate callback (`callback.begin` to `callback.end` on one thread, same name and scene).
        case callback
        /// A signpost interval (`signpost.begin` to `signpost.end` on one thread, same name and id).
        case signpost
        /// A background task (`bgtask.begin` to `bgtask.end` or `bgtask.expire`, same id).
        case backgroundTask
    }

    /// What kind of interval.
    public var kind: Kind
    /// The thread it began on.
    public var thread: ThreadID
    /// How many intervals of the same kind were open on its thread when it began (0 for the
    /// outermost); for background tasks, how many tasks were open.
    public var depth: Int
    /// The lane it is drawn on, the one definition the page and every export use: the lowest lane
    /// of its kind (on its thread, for callbacks and signposts) that held nothing open when it
    /// began. Intervals that nest get their depth; signposts or tasks that overlap without
    /// nesting each keep a lane of their own for their whole extent.
    public var lane: Int
    /// The callback, signpost or task name (``Symbol/none`` when the task has none).
    public var name: Symbol
    /// What its end must match besides the name: the scene's symbol (callbacks), the id
    /// (signposts, `Int64.min` without one) or the task id.
    public var key: Int64
    /// When it began (ns on the trace's clock).
    public var begin: Int64

    /// Creates an interval.
    public init(kind: Kind, thread: ThreadID, depth: Int, lane: Int? = nil, name: Symbol, key: Int64, begin: Int64) {
        self.kind = kind
        self.thread = thread
        self.depth = depth
        self.lane = lane ?? depth
        self.name = name
        self.key = key
        self.begin = begin
    }

    /// The scene of a callback (``Symbol/none`` for an app-delegate callback and other kinds).
    public var scene: Symbol {
        kind == .callback ? Symbol(rawValue: UInt32(truncatingIfNeeded: key)) : .none
    }

    /// The signpost's id, when it has one.
    public var signpostID: Int64? { kind == .signpost && key != .min ? key : nil }
}

/// How an interval ended.
public enum IntervalEnding: UInt8, Hashable, Sendable {
    /// Its own end event (`callback.end`, `signpost.end`, `bgtask.end`).
    case ended
    /// The system expired the background task (`bgtask.expire`).
    case expired
    /// An enclosing callback returned first (the nesting broken): it ends with it.
    case enclosingEnded
    /// Its lifetime ended with it still open (exit, relaunch or end of the trace).
    case lifetimeEnded
}

/// An instant the analyzer passes on.
public struct EdgePoint: Hashable, Sendable {
    /// What kind of instant.
    public enum Kind: UInt8, Hashable, Sendable {
        /// A `launch` event (a new lifetime began with it).
        case launch
        /// An `exit` event.
        case exit
        /// A `mark` (the name is the mark's).
        case mark
        /// A `frame` after the lifetime's first.
        case frame
        /// The lifetime's first `frame` (a launch milestone).
        case firstFrame
        /// A `bgtask.expire` (the name is the task's, ``EdgePoint/event`` has its id).
        case backgroundTaskExpired
        /// A `dropped` record: the recorder lost events.
        case dropped
        /// A `callback.end`, `signpost.end` or `bgtask.end` that matched nothing open.
        case unmatchedEnd
    }

    /// What kind of instant.
    public var kind: Kind
    /// When (ns on the trace's clock).
    public var timestamp: Int64
    /// The thread of the event.
    public var thread: ThreadID
    /// The mark's, task's or ended interval's name; ``Symbol/none`` otherwise.
    public var name: Symbol
    /// What the instant says beyond its kind, typed: the launch facts, the exit's code and
    /// signal, the lost-event count, the task id, what an unmatched end would have ended.
    public var fact: PointFact
    /// The event itself, kept as the witness (reports name it; nothing re-reads its payload).
    public var event: TraceEvent

    /// Creates an instant; its ``fact`` is read from `event`.
    public init(kind: Kind, timestamp: Int64, thread: ThreadID, name: Symbol, event: TraceEvent) {
        self.kind = kind
        self.timestamp = timestamp
        self.thread = thread
        self.name = name
        self.fact = PointFact(event)
        self.event = event
    }
}

/// What an instant (``EdgePoint``) says beyond its kind.
public enum PointFact: Hashable, Sendable {
    /// Nothing more: a mark, a frame.
    case none
    /// A `launch` event's facts.
    case launch(LaunchFacts)
    /// An `exit` event's code and signal (both nil for an exit without either).
    case exit(code: Int32?, signal: Int32?)
    /// A `dropped` record: how many events the recorder lost.
    case dropped(count: Int64)
    /// A background task's id (its expiry).
    case backgroundTask(id: Int64)
    /// An end that matched nothing open: the kind of interval it would have ended, and the key a
    /// begin would have had to match (``EdgeInterval/key``: the scene, the signpost id or
    /// `Int64.min`, the task id).
    case unmatchedEnd(EdgeInterval.Kind, key: Int64)

    /// The facts of `event`, the one place an instant's payload is read.
    public init(_ event: TraceEvent) {
        switch event.payload {
        case .launch(let reason, let background, let prewarm, let pid):
            self = .launch(LaunchFacts(kind: LaunchKind(background: background, prewarm: prewarm), reason: reason, pid: pid))
        case .exit(let code, let signal):
            self = .exit(code: code, signal: signal)
        case .dropped(let count):
            self = .dropped(count: count)
        case .bgtaskExpire(let id, _):
            self = .backgroundTask(id: id)
        case .callbackEnd(_, let scene):
            self = .unmatchedEnd(.callback, key: Int64(scene.rawValue))
        case .signpostEnd(_, let id):
            self = .unmatchedEnd(.signpost, key: id ?? .min)
        case .bgtaskEnd(let id, _):
            self = .unmatchedEnd(.backgroundTask, key: id)
        case .state, .callbackBegin, .runloopWake, .runloopSleep, .signpostBegin, .mark, .frame, .bgtaskBegin:
            self = .none
        }
    }
}

/// A lifetime's launch window: from the launch (given or inferred) to what ended it, with the
/// milestones reached. The one definition of the window's extent that every view draws.
public struct LaunchWindow: Hashable, Sendable {
    /// The lifetime, counted from 0.
    public var lifetime: Int
    /// The launch, as the lifetime's report has it.
    public var launch: LaunchReport
    /// When the window began: the launch.
    public var start: Int64
    /// When it ended: what closed it, or the lifetime's end when it never closed
    /// (``LaunchReport/windowEnd`` is then ``LaunchWindowEnd/open``).
    public var end: Int64

    /// Creates a window.
    public init(lifetime: Int, launch: LaunchReport, start: Int64, end: Int64) {
        self.lifetime = lifetime
        self.launch = launch
        self.start = start
        self.end = end
    }

    /// Whether something closed the window before the lifetime ended.
    public var finished: Bool { launch.duration != nil }

    /// The milestones reached, in the order of ``LaunchMilestone/allCases``, with their times
    /// (ns on the trace's clock).
    public var milestones: [(milestone: LaunchMilestone, timestamp: Int64)] {
        launch.milestones.reached.map { ($0.milestone, start + $0.sinceLaunch) }
    }
}
