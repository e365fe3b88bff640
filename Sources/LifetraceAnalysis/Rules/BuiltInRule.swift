import LifecycleModel

/// A built-in rule. The raw values are the ids users write in `--only` and `--disable` and read
/// in every output format; they are part of the public interface and never change. Violations
/// name their rule as a ``Rule``, which admits the rules of a team's rule files too.
///
/// The cases are declared in the order of the table in docs/LIFECYCLE.md; everything else about a
/// rule is in its ``spec``. The first nine are the
/// lifecycle-ordering rules: they are exclusive, and one offending event is reported under the
/// first of them that applies, in declaration order.
public enum BuiltInRule: String, Sendable, CaseIterable, Hashable, Comparable {
    /// willTerminate is delivered (begins or runs) while the system view is Suspended.
    case noTerminateWhileSuspended = "no-terminate-while-suspended"
    /// An app-side event other than willTerminate while the system view is Suspended.
    case silentWhileSuspended = "silent-while-suspended"
    /// An app-side event after willTerminate returned, in the same lifetime.
    case nothingAfterTerminate = "nothing-after-terminate"
    /// A scene callback for a scene that is not connected.
    case sceneConnection = "scene-connection"
    /// The launch callbacks are not first, not in order, or repeated.
    case launchSequence = "launch-sequence"
    /// Active straight to Background, skipping Inactive.
    case resignBeforeBackground = "resign-before-background"
    /// Background straight to Active, skipping Inactive.
    case foregroundBeforeActive = "foreground-before-active"
    /// didBecomeActive while Active, or willResignActive while not Active.
    case balancedActivation = "balanced-activation"
    /// Any other lifecycle callback with no transition from the current state.
    case legalTransition = "legal-transition"
    /// A lifecycle callback off the main thread.
    case mainThreadCallbacks = "main-thread-callbacks"
    /// An end with no open begin, or a begin still open at a normal end of the lifetime.
    case callbackNesting = "callback-nesting"
    /// A timestamp goes backwards within a stream.
    case timeOrder = "time-order"
    /// The launch takes longer than the watchdog limit.
    case launchWatchdog = "launch-watchdog"
    /// A main-thread stall at or above the threshold starts inside the launch window.
    case launchStall = "launch-stall"
    /// A background task expired, or Background without a task for longer than the limit.
    case backgroundTime = "background-time"
    /// The process exited in the foreground without willTerminate.
    case unexpectedExit = "unexpected-exit"
    /// A main-thread stall at or above the hang threshold starts after the launch window while the
    /// app is in the foreground.
    case hang = "hang"
    /// didEnterBackground, sceneDidEnterBackground or willTerminate runs longer than the limit, or
    /// the main thread stays busy that long after the app left the foreground.
    case backgroundCallback = "background-callback"

    /// The rule's id, as written on the command line and in reports.
    public var id: String { rawValue }

    /// How bad a violation of this rule is.
    public var severity: Severity { spec.severity }

    /// Whether this is one of the exclusive lifecycle-ordering rules.
    public var isOrdering: Bool { order < BuiltInRule.mainThreadCallbacks.order }

    /// The position in the table (the order the cases are declared in, `RuleSpecTests` checks),
    /// which is also the precedence among ordering rules. A switch, not a look-up: the rules'
    /// checks ask for it (hashing a rule hashes its id).
    public var order: Int {
        switch self {
        case .noTerminateWhileSuspended: 0
        case .silentWhileSuspended: 1
        case .nothingAfterTerminate: 2
        case .sceneConnection: 3
        case .launchSequence: 4
        case .resignBeforeBackground: 5
        case .foregroundBeforeActive: 6
        case .balancedActivation: 7
        case .legalTransition: 8
        case .mainThreadCallbacks: 9
        case .callbackNesting: 10
        case .timeOrder: 11
        case .launchWatchdog: 12
        case .launchStall: 13
        case .backgroundTime: 14
        case .unexpectedExit: 15
        case .hang: 16
        case .backgroundCallback: 17
        }
    }

    /// The documented fact this rule rests on.
    public var fact: LifecycleFact { spec.fact }

    /// One line saying when the rule is violated.
    public var summary: String { spec.summary }

    /// The options that tune the rule (the command line's, with their defaults).
    public var options: [RuleOption] { spec.options }

    /// The rule's specification: the one place that says how bad a violation is, the fact the rule
    /// rests on, when it is violated and which options tune it. Docs/LIFECYCLE.md's table,
    /// `--list-rules`, the analysis options' defaults and the catalog are derived from here
    /// (`RuleSpecTests` keeps the docs in step).
    public var spec: RuleSpec {
        switch self {
        case .noTerminateWhileSuspended:
            RuleSpec(
                .error, .noTerminateWhenSuspended,
                "willTerminate is delivered (begins or runs) while the system view is Suspended")
        case .silentWhileSuspended:
            RuleSpec(.error, .suspendedRunsNoCode, "any other app-side event while the system view is Suspended")
        case .nothingAfterTerminate:
            RuleSpec(.error, .terminateIsTheEnd, "an app-side event after willTerminate returned, in the same lifetime")
        case .sceneConnection:
            RuleSpec(.error, .scenesConnect, "a scene callback for a scene that is not connected")
        case .launchSequence:
            RuleSpec(
                .error, .launchFirst,
                "willFinishLaunching and didFinishLaunching are not the first app-delegate lifecycle "
                    + "callbacks, not in that order, or come more than once")
        case .resignBeforeBackground:
            RuleSpec(
                .error, .throughInactive,
                "an Active app or scene moves to Background without passing through Inactive")
        case .foregroundBeforeActive:
            RuleSpec(
                .error, .throughInactive,
                "a Background app or scene becomes Active without passing through Inactive")
        case .balancedActivation:
            RuleSpec(
                .error, .activationPairs,
                "didBecomeActive while already Active, or willResignActive while not Active")
        case .legalTransition:
            RuleSpec(.error, .stateDiagram, "a lifecycle callback from a state that has no such transition")
        case .mainThreadCallbacks:
            RuleSpec(.error, .mainRunLoop, "a lifecycle callback runs on a thread other than the main thread")
        case .callbackNesting:
            RuleSpec(
                .error, .serialEvents,
                "an end with no open begin on its thread, or a begin still open at a normal end")
        case .timeOrder:
            RuleSpec(.error, .monotonicClock, "a timestamp goes backwards within a stream")
        case .launchWatchdog:
            RuleSpec(
                .error, .watchdog,
                "the launch takes longer than the watchdog limit, or the process is killed near it while still launching",
                options: [.launchWatchdog])
        case .launchStall:
            RuleSpec(
                .error, .launchMainThread,
                "a main-thread stall at or above the launch stall threshold starts inside the launch window",
                options: [.launchStallThreshold])
        case .backgroundTime:
            RuleSpec(
                .warning, .backgroundBriefly,
                "the app does not end a background task the system expired, or runs in Background too long with no task open",
                options: [.backgroundLimit])
        case .unexpectedExit:
            RuleSpec(
                .warning, .terminateWhenRunning,
                "the process exits while Inactive or Active with no willTerminate, or dies of a crash signal in any state")
        case .hang:
            RuleSpec(
                .warning, .lengthyWorkOffMain,
                "a main-thread stall at or above the hang threshold starts after launch while the app is "
                    + "in the foreground (even if the user leaves during it), or as it returns there",
                options: [.hangThreshold])
        case .backgroundCallback:
            RuleSpec(
                .error, .backgroundCallbackLimit,
                "didEnterBackground, sceneDidEnterBackground or willTerminate runs longer than the background callback "
                    + "limit, or the main thread stays busy that long after the app left the foreground",
                options: [.backgroundCallbackLimit])
        }
    }

    /// The rule with this id, or nil.
    public init?(id: String) { self.init(rawValue: id) }

    public static func < (lhs: BuiltInRule, rhs: BuiltInRule) -> Bool { lhs.order < rhs.order }
}

extension BuiltInRule {
    /// The monitors of the built-in rules, one per rule, in the table's order (the order the
    /// analyzer hands each edge to them, and so the order of their findings on it). The one list
    /// of the engine: a rule's monitor is entered here, beside its case and spec, and the analyzer
    /// hands it the edges it declares (``BuiltInMonitor/edges``): the ordering rules' monitors
    /// look at the model's verdicts, the threshold rules' at what the analyzer derived.
    static let monitors: [any BuiltInMonitor.Type] = [
        NoTerminateWhileSuspendedMonitor.self,
        SilentWhileSuspendedMonitor.self,
        NothingAfterTerminateMonitor.self,
        SceneConnectionMonitor.self,
        LaunchSequenceMonitor.self,
        ResignBeforeBackgroundMonitor.self,
        ForegroundBeforeActiveMonitor.self,
        BalancedActivationMonitor.self,
        LegalTransitionMonitor.self,
        MainThreadCallbacksMonitor.self,
        CallbackNestingMonitor.self,
        TimeOrderMonitor.self,
        LaunchWatchdogMonitor.self,
        LaunchStallMonitor.self,
        BackgroundTimeMonitor.self,
        UnexpectedExitMonitor.self,
        HangMonitor.self,
        BackgroundCallbackMonitor.self,
    ]
}

/// How bad a violation is: errors fail `lifetrace check`, warnings only with `--strict`.
public enum Severity: String, Sendable, CaseIterable, Hashable {
    /// The trace breaks the life cycle or its launch budget.
    case error
    /// Suspicious, but the app may be fine.
    case warning
}
