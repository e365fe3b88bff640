import LifecycleModel
import LifetraceFormat

/// Where the analyzer steps the model's launch-kind and background-execution machines
/// (``LaunchKindMachine``, ``BackgroundExecutionSequence``), which hold the allowances of
/// ``Allowance/table`` (docs/LIFECYCLE.md, "Real iOS"), and acts on their verdicts: the launch
/// moment's edges and the main thread's accounts. Everything here runs on the rare path: at a
/// lifecycle callback, a `state` event, or the first app-side event after a silence of at least
/// the sequence's ``BackgroundExecutionSequence/silenceThreshold``.
extension LifecycleAnalyzer {
    /// The app-side `event` comes after at least the silence threshold with no app-side event:
    /// before the first move to the foreground it is a pause of the launch (a prewarm's resume, or
    /// the sign of a background launch); in Background without `state` events, a suspension.
    @inline(never)
    mutating func appWasSilent(until event: TraceEvent, symbols: SymbolTable) {
        let silentSince = current.lastAppActivity
        // A silence with the main thread busy (inside a callback, or a run-loop turn) is work, not a pause.
        let resumed = current.launchKind.paused(
            launched: current.launchTime != nil, mainThreadIdle: busy.start == nil,
            launchStarted: current.launchCallbacksBegan)
        if resumed != nil { prewarmResumed(at: event.timestamp, settled: false) }
        let silence = BackgroundExecutionSequence.Silence(
            length: event.timestamp &- silentSince, hasStateEvents: current.hasStateEvents, effective: current.effective,
            mainThreadInCallback: !stacks.slots[0].callbacks.isEmpty)
        guard let allowance = background.silence(silence) else { return }
        // The app ran no code: it was suspended from its last event to this one. A busy interval
        // still open ends where the app went silent, and the stretch in Background restarts here.
        current.allowancesApplied.insert(allowance)
        if busy.start != nil { closeBusy(at: silentSince, unfinished: false, symbols: symbols) }
        judgeBackgroundTime(current.backgroundTime.appSuspended(from: silentSince, until: event), symbols: symbols)
    }

    /// The user's launch of a prewarmed process begins at `time`: what the main thread did before
    /// was the prewarm, and the launch window starts here. `settled`: no later resume can be found.
    mutating func prewarmResumed(at time: Int64, settled: Bool) {
        TraceTime.accumulate(&current.prewarmBusy, max(current.busyToFrame, current.busyToFirstActiveEnd))
        current.busyToDidFinishEnd = 0
        current.busyToFirstActiveEnd = 0
        current.busyToFrame = 0
        current.resumeTime = time
        current.allowancesApplied.insert(.prewarmResume)
        if settled { current.launchMomentOpen = false }
        emit(.launchTimed(lifetime: current.index, from: time, settled: settled))
    }

    /// The launch moment of a prewarmed launch can move no more (its first move to the
    /// foreground): those who judge as events come are told it is final.
    private mutating func settleLaunchMoment() {
        guard current.launchMomentOpen, let start = current.windowStart else { return }
        current.launchMomentOpen = false
        emit(.launchTimed(lifetime: current.index, from: start, settled: true))
    }

    /// A `state` event moved the app from `previous` to `state`: the launch-kind machine says
    /// whether it was the resume of a prewarmed process held in the background.
    mutating func systemMovedToForeground(from previous: LifecycleState?, to state: LifecycleState, at time: Int64) {
        guard current.launchKind.systemMoved(from: previous, to: state) != nil else { return }
        prewarmResumed(at: time, settled: true)
    }

    /// A lifecycle callback that moves the app or a scene to the foreground, before the model
    /// judges it. The first one settles the launch moment, and may tell that a foreground-recorded
    /// launch was a background launch (then the app delegate was in Background).
    mutating func movingToForeground(_ callback: CallbackName, event: TraceEvent, symbols: SymbolTable) {
        let verdict = current.launchKind.movingToForeground(
            callback, launched: current.launchTime != nil, hasScenes: !current.scenes.isEmpty)
        guard verdict.first else { return }
        // No pause or `state` event moves the resume of a prewarmed launch from here on.
        settleLaunchMoment()
        background.launchRead()
        guard let allowance = verdict.allowance else { return }
        current.allowancesApplied.insert(allowance)
        if current.appDelegate.launchedInBackground() { updateEffective(event, symbols: symbols) }
    }

    /// A scene connects: the launch-kind machine may withdraw a background launch it read from
    /// an app-level willEnterForeground alone.
    mutating func sceneConnecting() {
        let inForeground = current.scenes.contains { $0.app == .inactive || $0.app == .active }
        if let withdrawn = current.launchKind.sceneConnecting(scenesInForeground: inForeground) {
            current.allowancesApplied.remove(withdrawn)
        }
    }

    /// The kind of the launch at the lifetime's end, as the launch-kind machine settles it. `end`
    /// is the lifetime's end (called before it closes the busy interval).
    mutating func settleLaunchKind(end: Int64) {
        let allowance = current.launchKind.lifetimeEnded(
            silentFor: end &- current.lastAppActivity, launched: current.launchTime != nil,
            mainThreadIdle: busy.start == nil, launchStarted: current.launchCallbacksBegan,
            inferred: current.launchInferred, backgroundBeforeActive: current.backgroundBeforeActive)
        if let allowance { current.allowancesApplied.insert(allowance) }
        // A prewarmed launch never opened had no launch: its launch moment moves to the lifetime's
        // end, so that whoever judges the launch as events come (a rule file's `launch`) drops
        // what it found during the prewarm, as the built-in rules do.
        if current.launchKind.neverOpened, current.launchMomentOpen {
            current.launchMomentOpen = false
            emit(.launchTimed(lifetime: current.index, from: end, settled: true))
        }
    }

    /// A callback moving the app or a scene to the background: the launch-kind machine says
    /// whether the user left a foreground launch before its first activation.
    mutating func noteAbandonment(_ callback: CallbackName, event: TraceEvent) {
        let allowance = current.launchKind.enteringBackground(
            callback, at: event.timestamp, wasActive: current.wasActive, firstFrameSeen: current.firstFrame != nil,
            hasLaunchEvent: current.launchEvent != nil)
        if let allowance { current.allowancesApplied.insert(allowance) }
    }

    /// The trace's problems that its metadata makes: a `recordingStart` later than an event the
    /// app recorded. Named with every problem of the trace, and never read as an allowance.
    func metadataProblems(path: String) -> [TraceError] {
        guard let event = recording.contradictedAt, let start = recording.time else { return [] }
        return [
            TraceError(
                .invalidValue, file: path,
                "the metadata's recordingStart (\(start) ns) is later than an event the app recorded (at \(event) ns): "
                    + "a recorder cannot record before it starts, so the metadata contradicts the events "
                    + "(no allowance reads it)")
        ]
    }

    /// The lifetime's fact naming the allowances it used, or nil when it used none.
    var allowancesFact: String? {
        let applied = Allowance.allCases.filter { current.allowancesApplied.contains($0) }
        guard !applied.isEmpty else { return nil }
        return "Allowances for real iOS used (docs/LIFECYCLE.md, Real iOS): "
            + applied.map(\.id).joined(separator: ", ") + "."
    }
}
