import LifecycleModel
import LifetraceFormat

/// Where the analyzer applies the allowances of ``Allowance/table`` (docs/LIFECYCLE.md, "Real
/// iOS"). Everything here runs on the rare path: at a lifecycle callback, a `state` event, or the
/// first app-side event after a silence of at least ``LifecycleAnalyzer/silenceThreshold``.
extension LifecycleAnalyzer {
    /// The silence threshold for a lifetime that starts now: the launch pause while a prewarm's
    /// resume or a background launch can still be found, else the suspension silence, else never.
    mutating func startSilenceWatch() {
        if allowances.contains(.prewarmResume) || allowances.contains(.backgroundLaunch) {
            silenceThreshold = RealIOSTimes.launchPause
        } else {
            silenceThreshold = allowances.contains(.inferredSuspension) ? RealIOSTimes.suspensionSilence : .max
        }
    }

    /// The app-side `event` comes after at least ``silenceThreshold`` with no app-side event:
    /// before the first move to the foreground it is a pause of the launch (a prewarm's resume, or
    /// the sign of a background launch); in Background without `state` events, a suspension.
    @inline(never)
    mutating func appWasSilent(until event: TraceEvent, symbols: SymbolTable) {
        let silentSince = current.lastAppActivity
        // A silence with the main thread busy (inside a callback, or a run-loop turn) is work, not a pause.
        if !current.foregroundMoved && current.launchTime != nil && busy.start == nil {
            if current.kind == .prewarmed && allowances.contains(.prewarmResume) && !current.resumeFromState {
                prewarmResumed(at: event.timestamp, settled: false)
            }
            if current.launchStep > 0 || current.willFinishBegin != nil || current.didFinishEnd != nil {
                current.pausedAfterLaunchCallbacks = true
            }
        }
        // A callback still running on the main thread (a long sceneWillConnect of a launch, say)
        // is the app at work, silent because it is stuck, not suspended: its stall stays whole.
        guard allowances.contains(.inferredSuspension), !current.hasStateEvents,
            event.timestamp &- silentSince >= RealIOSTimes.suspensionSilence,
            current.effective == .background, stacks.slots[0].callbacks.isEmpty
        else { return }
        // The app ran no code: it was suspended from its last event to this one. A busy interval
        // still open ends where the app went silent, and the stretch in Background restarts here.
        current.inferredSuspensions += 1
        current.allowancesApplied.insert(.inferredSuspension)
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

    /// A `state` event moved the app from Background or Suspended into the foreground: the resume
    /// of a prewarmed process held in the background, when it comes before any callback's move.
    mutating func systemMovedToForeground(from previous: LifecycleState?, to state: LifecycleState, at time: Int64) {
        guard current.kind == .prewarmed, allowances.contains(.prewarmResume), !current.foregroundMoved,
            !current.resumeFromState, previous == .background || previous == .suspended,
            state == .inactive || state == .active
        else { return }
        current.resumeFromState = true
        prewarmResumed(at: time, settled: true)
    }

    /// A lifecycle callback that moves the app or a scene to the foreground, before the model
    /// judges it. The first one tells whether a foreground-recorded launch was a background launch.
    mutating func movingToForeground(_ callback: CallbackName, event: TraceEvent, symbols: SymbolTable) {
        guard !current.foregroundMoved else { return }
        current.foregroundMoved = true
        // No pause or `state` event moves the resume of a prewarmed launch from here on.
        settleLaunchMoment()
        silenceThreshold = allowances.contains(.inferredSuspension) ? RealIOSTimes.suspensionSilence : .max
        guard allowances.contains(.backgroundLaunch), current.kind == .cold, current.launchTime != nil,
            callback == .willEnterForeground || callback == .sceneWillEnterForeground
        else { return }
        // An app without scenes hears willEnterForeground at a foreground launch never; a
        // scene-based app hears it at every one, right after the scene connects, so there only a
        // pause after the launch callbacks says the app sat in Background first.
        let appWithoutScenes = callback == .willEnterForeground && current.scenes.isEmpty
        guard appWithoutScenes || current.pausedAfterLaunchCallbacks else { return }
        current.backgroundLaunchInferred = true
        current.backgroundInferredFromCallbackAlone = !current.pausedAfterLaunchCallbacks
        current.allowancesApplied.insert(.backgroundLaunch)
        current.kind = .background
        if current.app == .inactive && !current.appDelegateMoved {
            current.app = .background
            updateEffective(event, symbols: symbols)
        }
    }

    /// A `bgtask.begin` named for a BGTaskScheduler run (`BGProcessingTask:` or `BGAppRefreshTask:`,
    /// docs/RECORDING.md) before the first move to the foreground: the system calls a task's launch
    /// handler "when it launches the app in the background" (Apple, BGTaskScheduler,
    /// register(forTaskWithIdentifier:using:launchHandler:)), so the launch was a background one,
    /// as after a pause.
    mutating func scheduledTaskBeforeForeground(_ name: Symbol, symbols: SymbolTable) {
        guard allowances.contains(.backgroundLaunch), current.launchTime != nil, current.kind == .cold else { return }
        let text = symbols[name]
        if text.hasPrefix("BGProcessingTask:") || text.hasPrefix("BGAppRefreshTask:") {
            current.pausedAfterLaunchCallbacks = true
        }
    }

    /// A scene connects before the first activation: an app-level willEnterForeground that came
    /// first, with no pause before it, was UIKit's cold-launch post in a scene-based app (it can
    /// come before the scene's connection, and so can its app-level didBecomeActive), not the return
    /// from a background launch.
    mutating func sceneConnecting() {
        guard current.backgroundInferredFromCallbackAlone,
            !current.scenes.contains(where: { $0.app == .inactive || $0.app == .active })
        else { return }
        current.backgroundInferredFromCallbackAlone = false
        current.backgroundLaunchInferred = false
        current.allowancesApplied.remove(.backgroundLaunch)
        current.kind = .cold
    }

    /// The kind of the launch at the lifetime's end, with the allowances: a launch recorded as
    /// foreground that paused after its launch callbacks and never came to the foreground was a
    /// background launch nobody opened. `end` is the lifetime's end.
    mutating func settleLaunchKind(end: Int64) {
        // A silence from the app's last event to the end of the lifetime is a pause too (called
        // before the lifetime's end closes the busy interval).
        if !current.foregroundMoved, current.launchTime != nil, busy.start == nil,
            end &- current.lastAppActivity >= RealIOSTimes.launchPause,
            current.launchStep > 0 || current.willFinishBegin != nil || current.didFinishEnd != nil
        {
            current.pausedAfterLaunchCallbacks = true
        }
        if current.launchInferred {
            if allowances.contains(.backgroundLaunch) {
                // The app delegate's view (not a scene's connection, which is in Background at every
                // launch) tells the kind.
                let kind: LaunchKind = current.backgroundLaunchInferred || current.appDelegateBackgroundBeforeActive
                    || (!current.foregroundMoved && current.pausedAfterLaunchCallbacks) ? .background : .cold
                // Only where the textbook's reading (any Background first) would differ.
                if kind != (current.backgroundBeforeActive ? .background : .cold) { current.allowancesApplied.insert(.backgroundLaunch) }
                current.kind = kind
            } else {
                current.kind = current.backgroundBeforeActive ? .background : .cold
            }
        } else if current.kind == .cold, allowances.contains(.backgroundLaunch), !current.foregroundMoved,
            current.abandonedAt == nil, current.pausedAfterLaunchCallbacks
        {
            current.kind = .background
            current.backgroundLaunchInferred = true
            current.allowancesApplied.insert(.backgroundLaunch)
        }
    }

    /// Whether an app-delegate callback the textbook judges `verdict` in `state` is one of the
    /// sequences real iOS produces, under an allowance that applies here.
    mutating func appCallbackAllowed(_ callback: CallbackName, verdict: TransitionVerdict, in state: AppViewState) -> Bool {
        guard !verdict.isLegal else { return true }
        guard let allowance = appCallbackAllowance(callback, in: state) else { return false }
        current.allowancesApplied.insert(allowance)
        return true
    }

    /// The allowance that accepts an app-delegate callback the textbook forbids in `state`, or nil.
    private func appCallbackAllowance(_ callback: CallbackName, in state: AppViewState) -> Allowance? {
        switch callback {
        case .willTerminate where state == .inactive:
            return allowances.contains(.switcherQuit) ? .switcherQuit : nil
        case .willEnterForeground where state == .inactive && current.lastAppTransition == .willResignActive:
            return allowances.contains(.quickMinimise) ? .quickMinimise : nil
        case .didBecomeActive where state == .active && current.lastAppTransition == .didBecomeActive
            && allowances.contains(.doubleActivation):
            return .doubleActivation
        default:
            break
        }
        guard allowances.contains(.sceneAppOrder), !current.scenes.isEmpty, let row = AppDelegateTransitions.row(for: callback)
        else { return nil }
        // In a scene-based app the app delegate's transitions come before or after the scenes': legal
        // from the app delegate's own state, or from the scenes' (the effective view), or a move the
        // scenes already made and the app delegate has not; and at a cold launch UIKit posts the
        // app-level willEnterForeground although the app delegate was never in Background, before,
        // between or after the scenes' own (so after sceneDidBecomeActive too): the app delegate's
        // first transition, while the scenes are in the foreground.
        let own = current.app
        if let own, AppDelegateTransitions.deliver(callback, in: own).verdict.isLegal { return .sceneAppOrder }
        if let effective = current.effective {
            if AppDelegateTransitions.deliver(callback, in: effective).verdict.isLegal { return .sceneAppOrder }
            if effective == row.to && current.lastAppTransition != callback { return .sceneAppOrder }
        }
        guard callback == .willEnterForeground, own == .inactive else { return nil }
        if !current.wasActive { return .sceneAppOrder }
        let scenesInForeground = current.effective.map { $0 == .inactive || $0 == .active } ?? false
        return current.lastAppTransition == nil && scenesInForeground ? .sceneAppOrder : nil
    }

    /// Whether a scene callback the textbook judges `verdict` in `state` is allowed: the scene
    /// disconnects while Inactive when the user quits from the app switcher.
    mutating func sceneCallbackAllowed(_ callback: CallbackName, verdict: TransitionVerdict, in state: SceneViewState) -> Bool {
        guard !verdict.isLegal else { return true }
        guard callback == .sceneDidDisconnect && state == .inactive && allowances.contains(.switcherQuit) else { return false }
        current.allowancesApplied.insert(.switcherQuit)
        return true
    }

    /// Whether a missing launch callback is unknown rather than missing: the lifetime began before
    /// the recorder started (`recordingStart`), so its launch callbacks cannot be in the trace.
    mutating func launchSequenceUnknown(at event: TraceEvent) -> Bool {
        guard allowances.contains(.lateRecording), let start = platform.recordingStart,
            let launch = current.launchTime, launch < start, !recordingStartContradicted(by: event.timestamp)
        else { return false }
        current.allowancesApplied.insert(.lateRecording)
        return true
    }

    /// A foreground launch whose app enters Background before its first activation and before its
    /// first frame: the user left; the launch is abandoned at `event`.
    mutating func noteAbandonment(_ callback: CallbackName, event: TraceEvent) {
        guard allowances.contains(.abandonedLaunch), current.abandonedAt == nil, !current.wasActive,
            current.firstFrame == nil, current.launchEvent != nil, current.kind != .background,
            callback == .didEnterBackground || callback == .sceneDidEnterBackground
        else { return }
        current.abandonedAt = event.timestamp
        current.allowancesApplied.insert(.abandonedLaunch)
    }

    /// Whether the app delegate's or a scene's state at its first callback is unknown: the lifetime
    /// began before the recorder started (`recordingStart`) and nothing of that delegate was
    /// recorded yet, so its launch callbacks, the scene's connection and any transition before
    /// the recording are not in the trace; its state is learnt from the callback, as for a trace
    /// that starts mid-lifetime.
    mutating func stateUnknownAtRecordingStart(firstOfItsDelegate: Bool, at time: Int64) -> Bool {
        guard firstOfItsDelegate, allowances.contains(.lateRecording), let start = platform.recordingStart,
            let launch = current.launchTime, launch < start, !recordingStartContradicted(by: time)
        else { return false }
        current.allowancesApplied.insert(.lateRecording)
        return true
    }

    /// Whether the metadata's `recordingStart` is later than an app-side event of this lifetime
    /// (its first, or `time`, the event being judged): the recorder cannot have recorded before it
    /// started, so the metadata contradicts the events. `late-recording` never applies on such
    /// metadata; the contradiction is a problem of the trace (``metadataProblems(path:)``).
    mutating func recordingStartContradicted(by time: Int64) -> Bool {
        guard let start = platform.recordingStart else { return false }
        let first = min(current.firstAppActivity, time)
        guard first < start else { return false }
        eventBeforeRecordingStart = min(eventBeforeRecordingStart ?? first, first)
        return true
    }

    /// The trace's problems that its metadata makes: a `recordingStart` later than an event the
    /// app recorded. Named with every problem of the trace, and never read as an allowance.
    func metadataProblems(path: String) -> [TraceError] {
        guard let event = eventBeforeRecordingStart, let start = platform.recordingStart else { return [] }
        return [
            TraceError(
                .invalidValue, file: path,
                "the metadata's recordingStart (\(start) ns) is later than an event the app recorded (at \(event) ns): "
                    + "a recorder cannot record before it starts, so the metadata contradicts the events "
                    + "(no allowance reads it)")
        ]
    }

    /// Whether the launch at `launch` began before the recorder started and none of its launch
    /// callbacks is in the trace: the launch window is unknown.
    mutating func launchWindowUnknown(launch: Int64) -> Bool {
        guard allowances.contains(.lateRecording), let start = platform.recordingStart, launch < start,
            current.launchEvent != nil, current.resumeTime == nil, !recordingStartContradicted(by: .max)
        else { return false }
        guard current.willFinishBegin == nil && current.didFinishEnd == nil else { return false }
        current.allowancesApplied.insert(.lateRecording)
        return true
    }

    /// The lifetime's fact naming the allowances it used, or nil when it used none.
    var allowancesFact: String? {
        let applied = Allowance.allCases.filter { current.allowancesApplied.contains($0) }
        guard !applied.isEmpty else { return nil }
        return "Allowances for real iOS used (docs/LIFECYCLE.md, Real iOS): "
            + applied.map(\.id).joined(separator: ", ") + "."
    }
}
