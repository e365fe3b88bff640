import LifecycleModel
import LifetraceFormat

/// Everything the analysis found about one process lifetime (from `launch` to `exit`).
public struct LifetimeReport: Sendable, Hashable {
    /// The lifetime's position in the trace, counted from 0.
    public var index: Int
    /// How it started and how long the launch took.
    public var launch: LaunchReport
    /// Main-thread stalls, in time order: the first ``CappedCounts/lifetimeStallLimit`` (fewer
    /// when the trace's reports already list ``CappedCounts/traceStallLimit``).
    public var stalls: [Stall]
    /// The stalls of the lifetime not in ``stalls``, counted.
    public var omittedStalls: Int
    /// Where the main-thread busy intervals came from.
    public var busySource: BusySource
    /// How long the app spent in each state of the view the analysis trusts most.
    public var timeInStates: StateTimes
    /// How the lifetime ended, with the facts behind the conclusion.
    public var end: LifetimeEnd
    /// Events the recorder reported lost (`dropped`) in this lifetime; ``Int64/max`` when the
    /// counts added past it (at least that many).
    public var droppedEvents: Int64
    /// How many events the lifetime had.
    public var eventCount: Int

    /// Creates a report.
    public init(
        index: Int, launch: LaunchReport, stalls: [Stall], omittedStalls: Int = 0, busySource: BusySource,
        timeInStates: StateTimes, end: LifetimeEnd, droppedEvents: Int64, eventCount: Int
    ) {
        self.omittedStalls = omittedStalls
        self.index = index
        self.launch = launch
        self.stalls = stalls
        self.busySource = busySource
        self.timeInStates = timeInStates
        self.end = end
        self.droppedEvents = droppedEvents
        self.eventCount = eventCount
    }
}

extension LifetimeReport {
    /// The number of stalls, listed or not.
    public var stallCount: Int { stalls.count + omittedStalls }

    /// The launch window, from the launch (given or inferred; a prewarmed launch's resume) to what
    /// closed it, or to where the user left an abandoned launch, or to the lifetime's end when
    /// nothing did; nil without a launch, or for a prewarmed process never opened. The one
    /// definition every view draws.
    public var launchWindow: LaunchWindow? {
        guard let start = launch.timestamp, !launch.neverOpened else { return nil }
        let until = launch.duration ?? launch.abandonedAfter
        return LaunchWindow(lifetime: index, launch: launch, start: start, end: until.map { start + $0 } ?? end.timestamp)
    }

    /// The listed stalls that began inside the launch window (``launchWindow``), the ones
    /// `launch-stall` judges: a resume hang long after the launch is not one of them.
    public var launchStalls: [Stall] {
        guard let window = launchWindow else { return [] }
        return stalls.filter { $0.start >= window.start && $0.start <= window.end }
    }

    /// Whether the lifetime has a system view: the analysis trusts the system's states only when
    /// the trace recorded them (`state` events); an in-app recording has the app's view alone,
    /// and its time in states is the app view's (``timeInStates``).
    public var hasSystemView: Bool { timeInStates.view == .system }
}

/// Where main-thread busy intervals came from in a lifetime.
public enum BusySource: String, Sendable, Hashable {
    /// `runloop.wake` to the next `runloop.sleep` on the main thread.
    case runLoop
    /// No run-loop events: the outermost main-thread callbacks.
    case callbacks
    /// Neither run-loop events nor main-thread callbacks.
    case none
}

/// The launch of a lifetime.
public struct LaunchReport: Sendable, Hashable {
    /// When `launch` happened (ns on the trace's clock); nil when the trace starts mid-lifetime.
    public var timestamp: Int64?
    /// Cold, prewarmed or background.
    public var kind: LaunchKind
    /// The launch reason, when given.
    public var reason: String?
    /// The process id, when given.
    public var pid: Int64?
    /// What ended the launch window.
    public var windowEnd: LaunchWindowEnd
    /// How long the launch took (ns since launch), or nil when the window never closed.
    public var duration: Int64?
    /// Milestones, in ns since launch.
    public var milestones: LaunchMilestones
    /// Main-thread busy time inside the launch window (ns).
    public var busyInWindow: Int64
    /// Whether the launch time was inferred: no `launch` event, so the launch is taken to start at
    /// the lifetime's first event, and its kind comes from the app view.
    public var inferred: Bool
    /// The prewarm before a prewarmed launch's resume, when the resume was found; ``timestamp`` is
    /// then the resume, where the user's launch (and the launch window) began.
    public var prewarm: PrewarmReport?
    /// When the user left a foreground launch before its first activation (ns since
    /// ``timestamp``): the launch was abandoned, its window never closed, and it is not judged by
    /// its length.
    public var abandonedAfter: Int64?
    /// Whether this prewarmed launch was never opened: the system prewarmed the process and purged
    /// it (or the trace ended) before the user's launch, so it has no launch window and is not
    /// judged as a launch (docs/LIFECYCLE.md, "Real iOS", `prewarm-resume`).
    public var neverOpened = false

    /// Creates a launch report.
    public init(
        timestamp: Int64?, kind: LaunchKind, reason: String?, pid: Int64?, windowEnd: LaunchWindowEnd,
        duration: Int64?, milestones: LaunchMilestones, busyInWindow: Int64, inferred: Bool = false
    ) {
        self.inferred = inferred
        self.timestamp = timestamp
        self.kind = kind
        self.reason = reason
        self.pid = pid
        self.windowEnd = windowEnd
        self.duration = duration
        self.milestones = milestones
        self.busyInWindow = busyInWindow
    }
}

/// The prewarm of a prewarmed launch: the system ran the process ahead of the user's launch and
/// paused it (docs/LIFECYCLE.md, "Real iOS", `prewarm-resume`).
public struct PrewarmReport: Sendable, Hashable {
    /// How the resume was found.
    public enum Evidence: String, Sendable, Hashable {
        /// A `state` event moved the app from Background or Suspended into the foreground.
        case state
        /// The first app-side event after a pause of at least 2 s before the first move to the
        /// foreground (no `state` event said it).
        case pause
    }

    /// When the process started (the `launch` event), ns on the trace's clock.
    public var start: Int64
    /// When the user's launch began (the resume), ns on the trace's clock.
    public var resume: Int64
    /// How the resume was found.
    public var resumeFoundBy: Evidence
    /// Main-thread busy time before the resume: the prewarm's work (ns).
    public var busy: Int64

    /// Creates a prewarm report.
    public init(start: Int64, resume: Int64, resumeFoundBy: Evidence, busy: Int64) {
        self.start = start
        self.resume = resume
        self.resumeFoundBy = resumeFoundBy
        self.busy = busy
    }
}

/// What closed the launch window.
public enum LaunchWindowEnd: String, Sendable, Hashable {
    /// The first `frame`.
    case firstFrame
    /// The end of the first didBecomeActive or sceneDidBecomeActive (no frames in the lifetime).
    case firstActive
    /// The end of didFinishLaunching (background launch).
    case didFinishLaunching
    /// Never closed: the lifetime ended during its launch.
    case open
}

/// The launch milestones, in ns since launch; nil when not reached.
public struct LaunchMilestones: Sendable, Hashable {
    /// willFinishLaunching began.
    public var willFinishLaunching: Int64?
    /// didFinishLaunching returned.
    public var didFinishLaunchingEnd: Int64?
    /// The first didBecomeActive or sceneDidBecomeActive returned.
    public var firstActive: Int64?
    /// The first frame was presented.
    public var firstFrame: Int64?

    /// No milestone reached.
    public init() {}

    /// The time since launch of `milestone`, or nil when it was not reached.
    public subscript(milestone: LaunchMilestone) -> Int64? {
        switch milestone {
        case .willFinishLaunching: willFinishLaunching
        case .didFinishLaunchingEnd: didFinishLaunchingEnd
        case .firstActive: firstActive
        case .firstFrame: firstFrame
        }
    }

    /// The milestones reached, in the order of ``LaunchMilestone/allCases``: the one list every
    /// report and timeline shows.
    public var reached: [(milestone: LaunchMilestone, sinceLaunch: Int64)] {
        LaunchMilestone.allCases.compactMap { milestone in self[milestone].map { (milestone, $0) } }
    }
}

/// A launch milestone.
public enum LaunchMilestone: String, Sendable, Hashable, CaseIterable {
    /// willFinishLaunching began.
    case willFinishLaunching
    /// didFinishLaunching returned.
    case didFinishLaunchingEnd
    /// The first didBecomeActive or sceneDidBecomeActive returned.
    case firstActive
    /// The first frame was presented.
    case firstFrame

    /// The milestone as people read it: `didFinishLaunching returned`, `first frame`.
    public var label: String {
        switch self {
        case .willFinishLaunching: "willFinishLaunching"
        case .didFinishLaunchingEnd: "didFinishLaunching returned"
        case .firstActive: "first active"
        case .firstFrame: "first frame"
        }
    }
}

/// Time spent in each state, from one view.
public struct StateTimes: Sendable, Hashable {
    /// Which view the times come from.
    public enum View: String, Sendable, Hashable {
        /// `state` events.
        case system
        /// Callbacks (scenes included): used when the lifetime has no `state` events.
        case app
    }

    /// The view.
    public var view: View
    /// Nanoseconds per state name, in the order notRunning, inactive, active, background,
    /// suspended (system) or inactive, active, background, terminating (app); zeros left out.
    public var durations: [(state: String, duration: Int64)]

    /// Creates the times.
    public init(view: View, durations: [(state: String, duration: Int64)]) {
        self.view = view
        self.durations = durations
    }

    public static func == (lhs: StateTimes, rhs: StateTimes) -> Bool {
        lhs.view == rhs.view
            && lhs.durations.elementsEqual(rhs.durations, by: { $0.state == $1.state && $0.duration == $1.duration })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(view)
        for entry in durations { hasher.combine(entry.duration) }
    }
}
