import LifecycleModel
import LifetraceFormat

/// What a built-in rule judges: one typed edge per point of the replay where something a limit can
/// be held against ended (the threshold rules' edges), or where one of the model's machines gave a
/// verdict against the event it was stepped with (the verdict edges, which the ordering rules
/// judge). The analyzer builds an edge only when a rule that is on looks at its kind
/// (``BuiltInMonitor/edges``), and hands it to each such monitor in the rules' table order
/// (``BuiltInRule/monitors``).
enum RuleEdge {
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

    // The verdict edges: rare (each is a violation, if its rule is on), so the larger ones are
    // boxed, keeping the edges of the common path as small as they were.

    /// The termination sequence's verdict: willTerminate delivered while the app was Suspended.
    case terminateWhileSuspended(TerminateWhileSuspended)
    /// The termination sequence's verdict: an app-side event while the app must be silent, Suspended.
    case activeWhileSuspended(SilenceBroken)
    /// The termination sequence's verdict: an app-side event after willTerminate returned.
    case activeAfterTerminate(SilenceBroken)
    /// The scene machine's verdict: a scene callback for a scene that is not connected.
    indirect case sceneNotConnected(SceneNotConnected)
    /// The launch sequence's verdict: a launch callback out of its place.
    indirect case launchOutOfSequence(LaunchOutOfSequence)
    /// A view's verdict on a move that is not a legal transition (kind by ``TransitionJudged/verdict``).
    indirect case transition(TransitionJudged)
    /// A lifecycle callback began off the main thread.
    case callbackOffMain(CallbackOffMain)
    /// The thread stacks' verdict: an end with no open begin, or a begin left open.
    indirect case nestingBroken(NestingBroken)
    /// A timestamp went backwards within its stream.
    case timeBackwards(TimeBackwards)

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
        case .terminateWhileSuspended: .terminateWhileSuspended
        case .activeWhileSuspended: .activeWhileSuspended
        case .activeAfterTerminate: .activeAfterTerminate
        case .sceneNotConnected: .sceneNotConnected
        case .launchOutOfSequence: .launchOutOfSequence
        case .transition(let judged): Kinds(judged.verdict)
        case .callbackOffMain: .callbackOffMain
        case .nestingBroken: .nestingBroken
        case .timeBackwards: .timeBackwards
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
        static let terminateWhileSuspended = Kinds(rawValue: 1 << 8)
        static let activeWhileSuspended = Kinds(rawValue: 1 << 9)
        static let activeAfterTerminate = Kinds(rawValue: 1 << 10)
        static let sceneNotConnected = Kinds(rawValue: 1 << 11)
        static let launchOutOfSequence = Kinds(rawValue: 1 << 12)
        static let backgroundWithoutResigning = Kinds(rawValue: 1 << 13)
        static let activeWithoutForeground = Kinds(rawValue: 1 << 14)
        static let unbalancedActivation = Kinds(rawValue: 1 << 15)
        static let noSuchTransition = Kinds(rawValue: 1 << 16)
        static let callbackOffMain = Kinds(rawValue: 1 << 17)
        static let nestingBroken = Kinds(rawValue: 1 << 18)
        static let timeBackwards = Kinds(rawValue: 1 << 19)
        /// How many kinds there are (at most the raw value's 32 bits: a shift past them gives 0).
        static let count = 20

        /// The kind of a transition edge with `verdict` (none for a legal one).
        init(_ verdict: TransitionVerdict) {
            switch verdict {
            case .legal: self = []
            case .backgroundWithoutResigning: self = .backgroundWithoutResigning
            case .activeWithoutForeground: self = .activeWithoutForeground
            case .unbalancedActivation: self = .unbalancedActivation
            case .noSuchTransition: self = .noSuchTransition
            }
        }

        /// What the monitors of the rules in `rules` look at.
        init(lookedAtBy rules: RuleSet) {
            self = []
            for monitor in BuiltInRule.monitors where rules.contains(Rule(monitor.rule)) {
                formUnion(monitor.edges)
            }
        }

        init(rawValue: UInt32) { self.rawValue = rawValue }
    }
}

/// The monitors of the built-in rules that are on, by the edge kind they look at, in
/// the table's order: made once per analysis, so that handing an edge over visits only the
/// monitors that judge it.
struct BuiltInMonitorTable {
    /// What the monitors look at together: an edge of another kind is never built.
    let kinds: RuleEdge.Kinds
    /// The options the monitors judge with, held once for the analysis.
    let shared: SharedAnalysisOptions
    private let byKind: [[any BuiltInMonitor.Type]]

    /// The table of the monitors of `rules`, with default limits.
    init(rules: RuleSet) { self.init(options: AnalysisOptions(rules: rules)) }

    /// The table of the monitors of the rules `options` turns on, judging with `options`.
    init(options: AnalysisOptions) {
        let rules = options.rules
        shared = SharedAnalysisOptions(options)
        kinds = RuleEdge.Kinds(lookedAtBy: rules)
        var byKind = [[any BuiltInMonitor.Type]](repeating: [], count: RuleEdge.Kinds.count)
        for monitor in BuiltInRule.monitors where rules.contains(Rule(monitor.rule)) {
            for index in 0..<RuleEdge.Kinds.count where monitor.edges.contains(RuleEdge.Kinds(rawValue: 1 << index)) {
                byKind[index].append(monitor)
            }
        }
        self.byKind = byKind
    }

    /// The monitors that look at `kind` (a single kind), in the table's order.
    func monitors(lookingAt kind: RuleEdge.Kinds) -> [any BuiltInMonitor.Type] {
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
