import LifecycleModel
import LifetraceFormat
import LifetraceOutput

extension LifecycleAnalyzer {
    /// A `launch`: ends the lifetime before it (if it had no `exit`) and starts a new one.
    mutating func beginLifetime(
        _ event: TraceEvent, reason: Symbol, background: Bool, prewarm: Bool, pid: Int64?, symbols: SymbolTable
    ) {
        if inLifetime { endLifetimeWithoutExit(.relaunched, nextLaunch: event, symbols: symbols) }
        startLifetime(at: event.timestamp)
        current.launchEvent = event
        current.firstEvent = event
        current.launchTime = event.timestamp
        let awaitsResume = current.launchKind.launched(LaunchKind(background: background, prewarm: prewarm))
        current.reason = reason
        current.pid = pid
        current.eventCount = 1
        emit(.lifetimeBegan(LifetimeBegin(
            index: current.index, timestamp: event.timestamp,
            launch: LaunchFacts(kind: current.kind, reason: reason, pid: pid))))
        if awaitsResume {
            // Timed from the launch until a resume is found (LifecycleAnalyzer+RealIOS.swift);
            // told before anything the launch event itself reveals.
            current.launchMomentOpen = true
            emit(.launchTimed(lifetime: current.index, from: event.timestamp, settled: false))
        }
        emitPoint(.launch, event)
        let state = SystemViewMachine.stateAtLaunch(background: background)
        current.systemView = SystemViewMachine(state)
        current.systemChange = event
        current.appDelegate.launch(background: background)
        let appState = AppViewState.atLaunch(background: background)
        current.appChange = event
        current.effective = appState
        current.effectiveChange = event
        let system = StateChange(view: .system, from: nil, to: .system(state), timestamp: event.timestamp)
        let app = StateChange(view: .effectiveApp, from: nil, to: .app(appState), timestamp: event.timestamp)
        judgeBackgroundTime(current.backgroundTime.stateChanged(system, event: event, appActivity: event.timestamp), symbols: symbols)
        judgeBackgroundTime(current.backgroundTime.stateChanged(app, event: event, appActivity: event.timestamp), symbols: symbols)
    }

    /// Starts a lifetime with no `launch` (the trace starts mid-lifetime, or goes on after an
    /// `exit`): both views start unknown and are learnt from the first events.
    mutating func beginLifetime(at event: TraceEvent) {
        startLifetime(at: event.timestamp)
        current.firstEvent = event
        emit(.lifetimeBegan(LifetimeBegin(index: current.index, timestamp: event.timestamp, launch: nil)))
    }

    /// Takes the lifetime, which has no `launch`, as a launch that began at its first event:
    /// the launch rules apply from there, and its kind comes from the app view (see
    /// ``LifecycleAnalyzer/inferredLaunchKind``).
    mutating func inferLaunch() {
        current.launchInferred = true
        current.launchTime = current.start
        current.launchKind.inferred()
        emit(.launchInferred(lifetime: current.index, at: current.start))
        for index in current.scenes.indices { current.scenes[index].machine.lifetimeLaunched() }
    }

    private mutating func startLifetime(at timestamp: Int64) {
        // The first event of a trace always starts its first lifetime.
        if traceOrigin == nil { traceOrigin = timestamp }
        current = Lifetime(index: lifetimeCount, start: timestamp, allowances: allowances)
        lifetimeCount += 1
        inLifetime = true
        background.lifetimeStarted()
        stacks.removeAll()
        busy.reset()
    }

    /// A `state` event for the app: the system view's verdict on the move (one that skips Inactive
    /// is handed on as a transition edge); time in states; background time.
    mutating func moveSystem(to state: LifecycleState, event: TraceEvent, symbols: SymbolTable) {
        current.hasStateEvents = true
        let since = current.systemSince
        let verdict = current.systemView.step(state)
        let previous = verdict.from
        if let previous {
            judgeSystemMove(verdict.move, from: previous, to: state, scene: nil, witness: current.systemChange, event: event,
                            symbols: symbols)
            TraceTime.accumulate(&current.systemTimes[Int(previous.rawValue)], event.timestamp - current.systemSince)
        }
        current.systemSince = event.timestamp
        systemMovedToForeground(from: previous, to: state, at: event.timestamp)
        if state == .notRunning && previous != .notRunning { current.systemBeforeNotRunning = previous }
        current.systemChange = event
        busy.stateChanged(from: previous, to: state, at: event.timestamp)
        current.termination.systemMoved(to: state)
        // A suspended app runs no code: a run-loop busy interval still open ends here, rather
        // than stretching over the whole suspension.
        if state == .suspended && current.runLoopSeen {
            closeBusy(at: event.timestamp, unfinished: false, symbols: symbols)
        }
        if state == .suspended { suspendedWithExpiredTasks(event, symbols: symbols) }
        let change = StateChange(
            view: .system, from: previous.map(ViewState.system), since: previous == nil ? nil : since, to: .system(state),
            timestamp: event.timestamp)
        judgeBackgroundTime(
            current.backgroundTime.stateChanged(change, event: event, appActivity: current.lastAppActivity), symbols: symbols)
    }

    /// A `state` event for a scene: the same verdict, of that scene's system view.
    mutating func moveSceneSystem(_ scene: Symbol, to state: LifecycleState, event: TraceEvent, symbols: SymbolTable) {
        guard let index = current.sceneIndex(scene) else { return capped.sceneEvents &+= 1 }
        let verdict = current.scenes[index].systemView.step(state)
        if let previous = verdict.from {
            judgeSystemMove(verdict.move, from: previous, to: state, scene: scene, witness: current.scenes[index].systemChange,
                            event: event, symbols: symbols)
        }
        current.scenes[index].systemChange = event
    }

    /// Hands the system view's verdict on a move (of the app, or of `scene`) on as a transition edge.
    private mutating func judgeSystemMove(
        _ move: SystemMove, from previous: LifecycleState, to state: LifecycleState, scene: Symbol?,
        witness: TraceEvent?, event: TraceEvent, symbols: SymbolTable
    ) {
        guard let verdict = TransitionJudged.verdict(of: move) else { return }
        judgeTransition(
            TransitionJudged(verdict: verdict, event: event, witness: witness, scene: scene, move: .system(from: previous, to: state)),
            symbols: symbols)
    }

    /// Recomputes the effective app view after a callback changed the app's or a scene's view.
    mutating func updateEffective(_ event: TraceEvent, symbols: SymbolTable) {
        let state = current.computeEffective()
        guard state != current.effective else { return }
        let previous = current.effective
        let since = current.appSince
        if let previous {
            TraceTime.accumulate(&current.appTimes[Int(previous.rawValue)], event.timestamp - current.appSince)
        }
        current.appSince = event.timestamp
        current.effective = state
        current.effectiveChange = event
        if state == .active { current.wasActive = true }
        if state == .background && !current.wasActive { current.backgroundBeforeActive = true }
        let change = StateChange(
            view: .effectiveApp, from: previous.map(ViewState.app), since: previous == nil ? nil : since,
            to: state.map(ViewState.app), timestamp: event.timestamp)
        judgeBackgroundTime(
            current.backgroundTime.stateChanged(change, event: event, appActivity: current.lastAppActivity), symbols: symbols)
    }
}
