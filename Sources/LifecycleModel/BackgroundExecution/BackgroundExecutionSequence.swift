import LifetraceFormat

/// The background execution sequence as a state machine (Apple, *About the background execution
/// sequence*): "System events can cause a suspended app to be returned to the background, or cause
/// a not running app to be launched directly into the background"; UIKit then calls
/// applicationDidEnterBackground(_:) (legal in Background, ``AppDelegateTransitions/entersBackgroundAgain(_:in:)``)
/// and delivers the event, and the system suspends the app when its work is done, without telling
/// it ("The system moves apps to this state automatically and does not notify them before doing
/// so", 000, Table 2-3).
///
/// What an in-app recording cannot see, this machine reads from the app's silences, relaxed by the
/// allowances that read them (each named in its verdict):
///
/// - ``Allowance/inferredSuspension``: no app-side event for ``RealIOSTimes/suspensionSilence``
///   while the app view is in Background, without `state` events, is a suspension;
/// - ``Allowance/backgroundModes``: a declared continuous background mode keeps the app running in
///   Background with no task.
///
/// It also tells the analyzer after how long a silence it has something to say
/// (``silenceThreshold``), so that every shorter silence costs one comparison.
public struct BackgroundExecutionSequence: Sendable, Hashable {
    /// The allowances that apply to the trace.
    public let allowances: AllowanceSet
    /// Whether the app declares a continuous background mode, and ``Allowance/backgroundModes`` applies.
    public let runsInBackground: Bool
    /// The silence of the app-side events (ns) after which ``silence(_:)`` has something to say;
    /// `Int64.max` when no allowance reads silences.
    public private(set) var silenceThreshold = Int64.max
    /// How many suspensions were read from silences in the current lifetime.
    public private(set) var inferredSuspensions = 0

    /// The sequence of a trace with `allowances` and `platform` facts, before its first lifetime.
    public init(allowances: AllowanceSet, platform: PlatformFacts) {
        self.allowances = allowances
        runsInBackground = allowances.contains(.backgroundModes) && !platform.continuousBackgroundModes.isEmpty
    }

    /// A lifetime starts: while a prewarm's resume or a background launch can still be found, a
    /// pause of the launch (``RealIOSTimes/launchPause``) is worth a look; else a suspension.
    public mutating func lifetimeStarted() {
        defer { _checkInvariants() }
        inferredSuspensions = 0
        if allowances.contains(.prewarmResume) || allowances.contains(.backgroundLaunch) {
            silenceThreshold = RealIOSTimes.launchPause
        } else {
            silenceThreshold = afterLaunch
        }
    }

    /// The app moved to the foreground for the first time: the launch is read, and only a
    /// suspension is worth a look.
    public mutating func launchRead() {
        defer { _checkInvariants() }
        silenceThreshold = afterLaunch
    }

    private var afterLaunch: Int64 {
        allowances.contains(.inferredSuspension) ? RealIOSTimes.suspensionSilence : .max
    }

    /// A silence of the app, as the machine reads it.
    public struct Silence: Sendable, Hashable {
        /// How long the app recorded nothing (ns).
        public var length: Int64
        /// Whether the lifetime has `state` events (then the system view says when it suspended).
        public var hasStateEvents: Bool
        /// The effective app view.
        public var effective: AppViewState?
        /// Whether a callback is still running on the main thread (the app stuck at work, not
        /// suspended: a long sceneWillConnect of a launch, say).
        public var mainThreadInCallback: Bool

        /// Creates the facts.
        public init(length: Int64, hasStateEvents: Bool, effective: AppViewState?, mainThreadInCallback: Bool) {
            self.length = length
            self.hasStateEvents = hasStateEvents
            self.effective = effective
            self.mainThreadInCallback = mainThreadInCallback
        }
    }

    /// Steps with a silence of the app: ``Allowance/inferredSuspension`` when the app ran no code
    /// because the system suspended it, from its last event to the next; else nil.
    public mutating func silence(_ silence: Silence) -> Allowance? {
        defer { _checkInvariants() }
        guard allowances.contains(.inferredSuspension), !silence.hasStateEvents,
            silence.length >= RealIOSTimes.suspensionSilence, silence.effective == .background,
            !silence.mainThreadInCallback
        else { return nil }
        inferredSuspensions += 1
        return .inferredSuspension
    }

    /// `background-time` found a stretch in Background with no task past its limit: a declared
    /// continuous background mode makes it legal (``Allowance/backgroundModes``, returned).
    public func stretchPastLimit() -> Allowance? {
        runsInBackground ? .backgroundModes : nil
    }

    /// Asserts the machine's invariants: the threshold is one of the times the allowances read,
    /// and suspensions are read only under their allowance.
    public func _checkInvariants() {
        assert([RealIOSTimes.launchPause, RealIOSTimes.suspensionSilence, .max].contains(silenceThreshold))
        assert(inferredSuspensions == 0 || allowances.contains(.inferredSuspension))
    }
}
