import LifecycleModel
import LifetraceFormat

/// What the analyzer derived that a built-in threshold rule judges: one typed edge per point of
/// the replay where something a limit can be held against ended. The analyzer builds an edge only
/// when a rule that is on looks at its kind (``ThresholdMonitor/edges``), and hands it to each such
/// monitor in the rules' table order (``BuiltInRule/thresholdMonitors``).
enum ThresholdEdge {
    /// A callback interval ended: by its end event, or with its lifetime.
    case callbackEnded(CallbackEnded)
    /// The main thread was still busy past the background callback limit after the app left the
    /// foreground.
    case busyAfterLeavingForeground(BusyAfterLeavingForeground)
    /// The lifetime ended with a launch: its launch window, as judged then.
    case launchWindowEnded(LaunchWindowEnded)
    /// The lifetime ended: its stalls, and the launch window they are judged against.
    case lifetimeStalls(LifetimeStalls)
    /// The process exited (the lifetime's `exit`), and how the lifetime stood then.
    case exit(EdgePoint, JudgedEnding)
    /// A new `launch` ended the lifetime with no `exit` recorded: an inferred exit at its last event.
    case relaunched(RelaunchedEnding)
    /// A stretch of Background with no background task open ended, in one view
    /// (``BackgroundTimeMonitor``'s clock).
    case backgroundStretchEnded(BackgroundTimeMonitor.EndedStretch)
    /// A background task the system expired was not ended in time.
    case expiredTaskNotEnded(BackgroundTimeMonitor.ExpiredTask, BackgroundTimeMonitor.ExpiryOutcome)

    /// The edge's kind, as monitors declare what they look at.
    var kind: Kinds {
        switch self {
        case .callbackEnded: .callbackEnded
        case .busyAfterLeavingForeground: .busyAfterLeavingForeground
        case .launchWindowEnded: .launchWindowEnded
        case .lifetimeStalls: .lifetimeStalls
        case .exit: .exit
        case .relaunched: .relaunched
        case .backgroundStretchEnded: .backgroundStretchEnded
        case .expiredTaskNotEnded: .expiredTaskNotEnded
        }
    }

    /// A set of edge kinds as a bit mask: what a monitor looks at, and what the monitors of the
    /// rules that are on look at together (asked at every point that could build an edge).
    struct Kinds: OptionSet {
        var rawValue: UInt32

        static let callbackEnded = Kinds(rawValue: 1 << 0)
        static let busyAfterLeavingForeground = Kinds(rawValue: 1 << 1)
        static let launchWindowEnded = Kinds(rawValue: 1 << 2)
        static let lifetimeStalls = Kinds(rawValue: 1 << 3)
        static let exit = Kinds(rawValue: 1 << 4)
        static let backgroundStretchEnded = Kinds(rawValue: 1 << 5)
        static let expiredTaskNotEnded = Kinds(rawValue: 1 << 6)
        static let relaunched = Kinds(rawValue: 1 << 7)
        /// How many kinds there are (at most the raw value's 32 bits: a shift past them gives 0).
        static let count = 8

        /// What the monitors of the rules in `rules` look at.
        init(lookedAtBy rules: RuleSet) {
            self = []
            for monitor in BuiltInRule.thresholdMonitors where rules.contains(Rule(monitor.rule)) {
                formUnion(monitor.edges)
            }
        }

        init(rawValue: UInt32) { self.rawValue = rawValue }
    }
}

/// The monitors of the built-in threshold rules that are on, by the edge kind they look at, in
/// the table's order: made once per analysis, so that handing an edge over visits only the
/// monitors that judge it.
struct ThresholdMonitorTable {
    /// What the monitors look at together: an edge of another kind is never built.
    let kinds: ThresholdEdge.Kinds
    /// The options the monitors judge with, held once for the analysis.
    let shared: SharedAnalysisOptions
    private let byKind: [[any ThresholdMonitor.Type]]

    /// The table of the monitors of `rules`, with default limits.
    init(rules: RuleSet) { self.init(options: AnalysisOptions(rules: rules)) }

    /// The table of the monitors of the rules `options` turns on, judging with `options`.
    init(options: AnalysisOptions) {
        let rules = options.rules
        shared = SharedAnalysisOptions(options)
        kinds = ThresholdEdge.Kinds(lookedAtBy: rules)
        var byKind = [[any ThresholdMonitor.Type]](repeating: [], count: ThresholdEdge.Kinds.count)
        for monitor in BuiltInRule.thresholdMonitors where rules.contains(Rule(monitor.rule)) {
            for index in 0..<ThresholdEdge.Kinds.count where monitor.edges.contains(ThresholdEdge.Kinds(rawValue: 1 << index)) {
                byKind[index].append(monitor)
            }
        }
        self.byKind = byKind
    }

    /// The monitors that look at `kind` (a single kind), in the table's order.
    func monitors(lookingAt kind: ThresholdEdge.Kinds) -> [any ThresholdMonitor.Type] {
        byKind[kind.rawValue.trailingZeroBitCount]
    }
}

/// A callback interval that ended at ``time``: by its end event ``end``, or with its lifetime
/// (``end`` nil).
struct CallbackEnded {
    /// The interval.
    var interval: EdgeInterval
    /// When it ended.
    var time: Int64
    /// Its begin event, the first witness.
    var begin: TraceEvent
    /// Its end event; nil when the lifetime ended with it open.
    var end: TraceEvent?
}

/// A main-thread busy interval (since ``busySince``, opened by ``opening``) that went on until
/// ``time`` after the app left the foreground at ``movedAt``.
struct BusyAfterLeavingForeground {
    var busySince: Int64
    var opening: TraceEvent
    var movedAt: Int64
    var time: Int64
    /// Whether the busy interval was cut by the lifetime's end.
    var unfinished: Bool
    /// The built-in rules already found on main-thread callbacks that ended during the busy
    /// interval (a callback judged itself is not judged again as the busy interval).
    var foundInCallbacks: RuleSet
    /// The callbacks still open on the main thread, oldest first.
    var openCallbacks: [OpenInterval]
}

/// A lifetime's launch window as judged when the lifetime ended, and the event that ended the
/// lifetime (``exit``), if one did.
struct LaunchWindowEnded {
    var window: JudgedLaunchWindow
    var exit: TraceEvent?
}

/// A lifetime that a new `launch` (``nextLaunch``) ended with no `exit`: the new process proves the
/// old one ended, without notice, at its last event (``end``), standing as ``ending`` says.
struct RelaunchedEnding {
    var end: Int64
    var nextLaunch: TraceEvent
    var ending: JudgedEnding
}

/// A lifetime's stalls when it ended, and the launch window (nil without a launch); before
/// ``prewarmEnd`` (the resume of a prewarmed launch) the main thread did the prewarm's work.
struct LifetimeStalls {
    var stalls: [RecordedStall]
    var window: JudgedLaunchWindow?
    var prewarmEnd: Int64
}
