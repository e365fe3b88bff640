import LifetraceFormat

/// What kind of launch a lifetime is, read as the launch goes on (Apple, *About the app launch
/// sequence*): the kind the `launch` event names, relaxed by the allowances real iOS needs to read
/// it right, each named in the verdict of the step it changed:
///
/// - ``Allowance/prewarmResume``: a prewarmed launch is timed from the user's resume (a pause of
///   the main thread, or a `state` event back to the foreground), the prewarm reported apart; one
///   whose resume never comes was held off screen until the system purged it, never opened;
/// - ``Allowance/backgroundLaunch``: a launch recorded as foreground whose callbacks (an app-level
///   willEnterForeground in an app without scenes, a pause, a BGTaskScheduler launch handler)
///   say it was launched into the background;
/// - ``Allowance/abandonedLaunch``: the user left before the first activation.
public struct LaunchKindMachine: Sendable, Hashable {
    /// The launch's kind as read so far.
    public private(set) var kind = LaunchKind.unknown
    /// The allowances that apply to the trace.
    public let allowances: AllowanceSet
    /// A lifecycle callback moved the app (or a scene) to the foreground: willEnterForeground,
    /// didBecomeActive or their scene forms.
    public private(set) var foregroundMoved = false
    /// The app paused (no app-side event for ``RealIOSTimes/launchPause``) after its launch
    /// callbacks began and before the first move to the foreground, or ran a BGTaskScheduler
    /// task's launch handler then (the system calls it only when it launches the app in the background).
    public private(set) var pausedAfterLaunchCallbacks = false
    /// The callbacks said this foreground-recorded launch was a background launch.
    public private(set) var backgroundLaunchInferred = false
    /// ... from an app-level willEnterForeground alone, with no pause before it.
    private var backgroundInferredFromCallbackAlone = false
    /// didEnterBackground came before any activation, in an app view that was known.
    private var appDelegateBackgroundBeforeActive = false
    /// Whether the prewarm's resume came from a `state` event (a later pause then moves it no more).
    public private(set) var resumeFromState = false
    /// Whether a pause after the launch was taken as the prewarm's resume.
    private var resumedAfterPause = false
    /// A prewarmed launch whose resume never came, that never moved to the foreground and ended
    /// with its main thread idle: the system held it off screen and purged it, and the user never
    /// opened it (``Allowance/prewarmResume``, settled at the lifetime's end). It had no launch in
    /// front of the user, so it has no launch window, and its end is judged in Background.
    public private(set) var neverOpened = false
    /// When the user left a foreground launch before its first activation.
    public private(set) var abandonedAt: Int64?

    /// A lifetime not known to be a launch, relaxed by `allowances`.
    public init(allowances: AllowanceSet) {
        self.allowances = allowances
    }

    /// A `launch` event of this kind. Returns whether the launch moment stays open until the
    /// prewarm's resume is found (a prewarmed launch under ``Allowance/prewarmResume``, which names
    /// itself in the verdict of the step that finds the resume).
    public mutating func launched(_ kind: LaunchKind) -> Bool {
        self.kind = kind
        return kind == .prewarmed && allowances.contains(.prewarmResume)
    }

    /// The lifetime turned out to be a launch (its launch callbacks came first): read as cold
    /// until its end tells (``lifetimeEnded(silentFor:launched:mainThreadIdle:launchStarted:inferred:backgroundBeforeActive:)``).
    public mutating func inferred() {
        kind = .cold
    }

    /// The app was silent for at least the launch pause with its main thread idle, before the
    /// first move to the foreground: the resume of a prewarmed launch (``Allowance/prewarmResume``,
    /// returned), and after the launch callbacks began, a sign of a background launch.
    public mutating func paused(launched: Bool, mainThreadIdle: Bool, launchStarted: Bool) -> Allowance? {
        guard !foregroundMoved && launched && mainThreadIdle else { return nil }
        if launchStarted { pausedAfterLaunchCallbacks = true }
        guard kind == .prewarmed && allowances.contains(.prewarmResume) && !resumeFromState else { return nil }
        resumedAfterPause = true
        return .prewarmResume
    }

    /// A `state` event moved the app from `previous` to `state`: from Background or Suspended into
    /// the foreground, before any callback's move, it is the resume of a prewarmed process held in
    /// the background (``Allowance/prewarmResume``, returned; no later pause moves it).
    public mutating func systemMoved(from previous: LifecycleState?, to state: LifecycleState) -> Allowance? {
        defer { _checkInvariants() }
        guard kind == .prewarmed, allowances.contains(.prewarmResume), !foregroundMoved, !resumeFromState,
            previous == .background || previous == .suspended, state == .inactive || state == .active
        else { return nil }
        resumeFromState = true
        return .prewarmResume
    }

    /// The verdict on a callback that moves the app or a scene to the foreground.
    public struct ForegroundVerdict: Sendable, Hashable {
        /// Whether it is the lifetime's first move to the foreground (the launch moment can move no more).
        public var first: Bool
        /// ``Allowance/backgroundLaunch`` when the move says the launch was a background one: the
        /// app delegate was in Background, not Inactive.
        public var allowance: Allowance?
    }

    /// A lifecycle `callback` moving the app or a scene to the foreground, before it is judged. The
    /// first one tells whether a foreground-recorded launch was a background launch: an app
    /// without scenes hears willEnterForeground at a foreground launch never; a scene-based app
    /// hears it at every one, right after the scene connects, so there only a pause after the
    /// launch callbacks says the app sat in Background first.
    public mutating func movingToForeground(_ callback: CallbackName, launched: Bool, hasScenes: Bool) -> ForegroundVerdict {
        defer { _checkInvariants() }
        guard !foregroundMoved else { return ForegroundVerdict(first: false, allowance: nil) }
        foregroundMoved = true
        guard allowances.contains(.backgroundLaunch), kind == .cold, launched,
            callback == .willEnterForeground || callback == .sceneWillEnterForeground
        else { return ForegroundVerdict(first: true, allowance: nil) }
        let appWithoutScenes = callback == .willEnterForeground && !hasScenes
        guard appWithoutScenes || pausedAfterLaunchCallbacks else { return ForegroundVerdict(first: true, allowance: nil) }
        backgroundLaunchInferred = true
        backgroundInferredFromCallbackAlone = !pausedAfterLaunchCallbacks
        kind = .background
        return ForegroundVerdict(first: true, allowance: .backgroundLaunch)
    }

    /// A `bgtask.begin` before the first move to the foreground, named by `name` (asked only when
    /// it matters): a BGTaskScheduler run (`BGProcessingTask:` or `BGAppRefreshTask:`,
    /// docs/RECORDING.md). The system calls a task's launch handler "when it launches the app in
    /// the background" (Apple, BGTaskScheduler, register(forTaskWithIdentifier:using:launchHandler:)),
    /// so the launch was a background one, as after a pause.
    public mutating func taskBegan(launched: Bool, name: () -> String) {
        guard !foregroundMoved, allowances.contains(.backgroundLaunch), launched, kind == .cold else { return }
        let text = name()
        if text.hasPrefix("BGProcessingTask:") || text.hasPrefix("BGAppRefreshTask:") { pausedAfterLaunchCallbacks = true }
    }

    /// A scene connects before the first activation (`scenesInForeground`: a scene is Inactive or
    /// Active): an app-level willEnterForeground that came first, with no pause before it, was
    /// UIKit's cold-launch post in a scene-based app (it can come before the scene's connection, and
    /// so can its app-level didBecomeActive), not the return from a background launch. Returns the
    /// allowance withdrawn, when one was.
    public mutating func sceneConnecting(scenesInForeground: Bool) -> Allowance? {
        defer { _checkInvariants() }
        guard backgroundInferredFromCallbackAlone, !scenesInForeground else { return nil }
        backgroundInferredFromCallbackAlone = false
        backgroundLaunchInferred = false
        kind = .cold
        return .backgroundLaunch
    }

    /// The app delegate's didEnterBackground came (`wasActive`: after an activation or not).
    public mutating func appDelegateEnteredBackground(wasActive: Bool) {
        if !wasActive { appDelegateBackgroundBeforeActive = true }
    }

    /// A callback moving the app or a scene to the background: before the first activation and
    /// the first frame of a foreground launch, the user left, and the launch is abandoned at `time`
    /// (``Allowance/abandonedLaunch``, returned).
    public mutating func enteringBackground(
        _ callback: CallbackName, at time: Int64, wasActive: Bool, firstFrameSeen: Bool, hasLaunchEvent: Bool
    ) -> Allowance? {
        guard allowances.contains(.abandonedLaunch), abandonedAt == nil, !wasActive, !firstFrameSeen, hasLaunchEvent,
            kind != .background, callback == .didEnterBackground || callback == .sceneDidEnterBackground
        else { return nil }
        abandonedAt = time
        return .abandonedLaunch
    }

    /// The lifetime ends: its kind is settled. A silence from the app's last event to the end
    /// (`silentFor`) is a pause too; a launch recorded as foreground that paused after its launch
    /// callbacks and never came to the foreground was a background launch nobody opened; an
    /// inferred launch (`inferred`) takes its kind from the app delegate's view (not a scene's
    /// connection, which is in Background at every launch). Returns ``Allowance/backgroundLaunch``
    /// where it read the kind otherwise than the textbook (`backgroundBeforeActive`: any Background
    /// first), and ``Allowance/prewarmResume`` for a prewarmed launch never opened (``neverOpened``):
    /// the system "may … prewarm your app — launch nonrunning application processes to reduce the
    /// amount of time the user waits before the app is usable" (Apple, *About the app launch
    /// sequence*, "Prepare your app for prewarming"), and a process purged before the user's launch
    /// is no launch and no unexpected end (bugsnag-cocoa pull request 1248).
    public mutating func lifetimeEnded(
        silentFor silence: Int64, launched: Bool, mainThreadIdle: Bool, launchStarted: Bool, inferred: Bool,
        backgroundBeforeActive: Bool
    ) -> Allowance? {
        defer { _checkInvariants() }
        if kind == .prewarmed, allowances.contains(.prewarmResume), !resumedAfterPause, !resumeFromState,
            !foregroundMoved, mainThreadIdle
        {
            neverOpened = true
            return .prewarmResume
        }
        if !foregroundMoved, launched, mainThreadIdle, silence >= RealIOSTimes.launchPause, launchStarted {
            pausedAfterLaunchCallbacks = true
        }
        let textbook: LaunchKind = backgroundBeforeActive ? .background : .cold
        if inferred {
            guard allowances.contains(.backgroundLaunch) else {
                kind = textbook
                return nil
            }
            kind = backgroundLaunchInferred || appDelegateBackgroundBeforeActive
                || (!foregroundMoved && pausedAfterLaunchCallbacks) ? .background : .cold
            return kind != textbook ? .backgroundLaunch : nil
        }
        guard kind == .cold, allowances.contains(.backgroundLaunch), !foregroundMoved, abandonedAt == nil,
            pausedAfterLaunchCallbacks
        else { return nil }
        kind = .background
        backgroundLaunchInferred = true
        return .backgroundLaunch
    }

    /// The state a lifetime's end is judged in, given the state the lifetime trusts (`state`): a
    /// foreground-recorded launch read as a background launch nobody opened
    /// (``Allowance/backgroundLaunch``), and a prewarmed launch never opened
    /// (``Allowance/prewarmResume``), were in Background all along, whatever the app view assumed
    /// at the launch; with `state` events the system view says.
    public func stateAtEnd(_ state: LifecycleState, hasStateEvents: Bool) -> LifecycleState {
        let offScreen = (backgroundLaunchInferred && !foregroundMoved) || neverOpened
        return offScreen && !hasStateEvents && state == .inactive ? .background : state
    }

    /// Asserts the machine's invariants (checked after the steps that change the kind, in debug
    /// builds): a background launch read from the callbacks is a background launch, a reading from
    /// a callback alone is such a reading, and only a prewarmed launch is resumed by a `state` event.
    public func _checkInvariants() {
        assert(!backgroundLaunchInferred || kind == .background, "a background launch read as \(kind)")
        assert(!backgroundInferredFromCallbackAlone || backgroundLaunchInferred, "a reading that is none")
        assert(!resumeFromState || kind == .prewarmed, "a resume of a \(kind) launch")
        assert(!neverOpened || (kind == .prewarmed && !foregroundMoved), "a \(kind) launch never opened")
    }
}
