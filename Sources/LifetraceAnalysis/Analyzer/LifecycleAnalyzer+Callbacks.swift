import LifecycleModel
import LifetraceFormat
import LifetraceOutput

extension LifecycleAnalyzer {
    /// A `callback.begin`: nesting bookkeeping, the thread it ran on, then the machines' verdicts in
    /// their order of precedence (each not legal one handed on as a verdict edge), then the model
    /// takes the state the callback implies.
    mutating func callbackBegan(_ event: TraceEvent, name: Symbol, scene: Symbol, symbols: SymbolTable) {
        let slot = stacks.slot(for: event.thread)
        if stacks.pushCallback(OpenInterval(begin: event, name: name, key: Int64(scene.rawValue)), slot: slot), emitsEdges,
            namedEdges(.callback, name, symbols: symbols)
        {
            emit(.intervalBegan(stacks.slots[slot].callbacks[stacks.slots[slot].callbacks.count - 1].edge(.callback)))
        }
        if slot == 0 && !current.runLoopSeen && stacks.slots[0].callbacks.count == 1 {
            current.mainCallbacksSeen = true
            openBusy(event)
        }
        let callback = symbols.callback(name)
        if let callback, callback.isLifecycleCallback, !event.thread.isMain, monitoredEdges.contains(.callbackOffMain) {
            judge(.callbackOffMain(CallbackOffMain(event: event, name: name, scene: scene)), symbols: symbols)
        }
        guard event.stream == .app || callback != nil else { return }
        // Suspension and termination silence every app-side event. The verdicts are exclusive: the
        // first machine to find fault with the event decides it, whether or not its rule is on.
        var decided = false
        switch current.termination.callbackBegan(willTerminate: callback == .willTerminate) {
        case .legal:
            break
        case .terminateWhileSuspended:
            decided = true
            if monitoredEdges.contains(.terminateWhileSuspended) {
                judge(
                    .terminateWhileSuspended(TerminateWhileSuspended(event: event, suspension: current.systemChange, returned: false)),
                    symbols: symbols)
            }
        case .silenceBroken:
            decided = true
            silenceBroken(event, symbols: symbols)
        }
        guard let callback else { return }
        current.lastCallback = event
        if callback == .willTerminate && current.willTerminateBegin == nil { current.willTerminateBegin = event }
        switch callback {
        case .willEnterForeground, .didBecomeActive, .sceneWillEnterForeground, .sceneDidBecomeActive:
            movingToForeground(callback, event: event, symbols: symbols)
        case .didEnterBackground, .sceneDidEnterBackground:
            // The app's own move out of the foreground (a scene's connection in Background is not one).
            busy.stateChanged(from: current.trustedState, to: .background, at: event.timestamp)
            noteAbandonment(callback, event: event)
        case .sceneWillConnect:
            sceneConnecting()
        default:
            break
        }
        if callback.isSceneCallback {
            sceneCallback(callback, scene: scene, event: event, decided: decided, symbols: symbols)
        } else if AppDelegateTransitions.isAppDelegateLifecycle(callback) {
            appCallback(callback, event: event, decided: decided, symbols: symbols)
        }
    }

    /// An app-delegate lifecycle callback: the launch sequence's verdict, then the app delegate's.
    private mutating func appCallback(_ callback: CallbackName, event: TraceEvent, decided: Bool, symbols: SymbolTable) {
        var decided = decided
        let firstOfAppDelegate = !current.launchSequence.started && !current.appDelegateMoved
        if let problem = launchSequenceProblem(callback, event: event) {
            if !decided && monitoredEdges.contains(.launchOutOfSequence) {
                let witness = current.launchWitness ?? current.launchWitnessEvent
                judge(
                    .launchOutOfSequence(LaunchOutOfSequence(event: event, callback: callback, problem: problem, witness: witness)),
                    symbols: symbols)
            }
            decided = true
        }
        if callback == .willFinishLaunching || callback == .didFinishLaunching {
            current.launchWitness = event
            return
        }
        if callback == .didEnterBackground { current.launchKind.appDelegateEnteredBackground(wasActive: current.wasActive) }
        let before = current.app
        var machine = current.appDelegate
        let verdict = machine.step(callback, scenes: current.scenesSeen) {
            // The app delegate's state before the recorder started is unknown (`late-recording`).
            firstOfAppDelegate
                ? recording.launchPrecedes(current.launchTime, firstAppActivity: current.firstAppActivity, at: event.timestamp)
                : nil
        }
        current.appDelegate = machine
        if let allowance = verdict.allowance { current.allowancesApplied.insert(allowance) }
        if !decided && verdict.isViolation, let judged = verdict.judgedIn {
            judgeTransition(
                TransitionJudged(
                    verdict: verdict.transition, event: event, witness: current.appChange, scene: nil,
                    move: .appDelegate(callback, in: judged)),
                symbols: symbols)
        }
        appChanged(from: before, event: event, symbols: symbols)
    }

    /// A scene-delegate callback: the scene's verdict (not connected, then the transition's).
    private mutating func sceneCallback(
        _ callback: CallbackName, scene: Symbol, event: TraceEvent, decided: Bool, symbols: SymbolTable
    ) {
        guard let index = current.sceneIndex(scene) else { return capped.sceneEvents &+= 1 }
        var machine = current.scenes[index].machine
        let firstOfScene = current.scenes[index].appChange == nil
        let verdict = machine.step(callback) {
            // The scene connected before the recorder started (`late-recording`).
            firstOfScene
                ? recording.launchPrecedes(current.launchTime, firstAppActivity: current.firstAppActivity, at: event.timestamp)
                : nil
        }
        current.scenes[index].machine = machine
        var decided = decided
        if !decided && verdict.notConnected {
            decided = true
            if monitoredEdges.contains(.sceneNotConnected) {
                let disconnect = current.scenes[index].appChange
                judge(.sceneNotConnected(SceneNotConnected(event: event, scene: scene, disconnect: disconnect)), symbols: symbols)
            }
        }
        // An allowance is used where it decided something: a state learnt, or a verdict not already decided.
        if let allowance = verdict.allowance, verdict.judgedIn == nil || !decided {
            current.allowancesApplied.insert(allowance)
        }
        if !decided && verdict.isViolation, let judged = verdict.judgedIn {
            judgeTransition(
                TransitionJudged(
                    verdict: verdict.transition, event: event, witness: current.scenes[index].appChange, scene: scene,
                    move: .sceneDelegate(callback, in: judged)),
                symbols: symbols)
        }
        current.scenes[index].appChange = event
        updateEffective(event, symbols: symbols)
    }

    /// Hands a view's verdict on an illegal move to the monitors that look at its kind.
    mutating func judgeTransition(_ judged: TransitionJudged, symbols: SymbolTable) {
        guard !monitoredEdges.intersection(RuleEdge.Kinds(judged.verdict)).isEmpty else { return }
        judge(.transition(judged), symbols: symbols)
    }

    /// Steps the launch sequence with `callback`; returns what is wrong, or nil.
    private mutating func launchSequenceProblem(_ callback: CallbackName, event: TraceEvent) -> LaunchSequence.Problem? {
        if current.launchEvent == nil && !current.launchInferred {
            guard current.launchSequence.beginsInferredLaunch(
                callback, appDelegateKnown: current.app != nil || current.appDelegateMoved)
            else {
                current.launchSequence.giveUp()
                return nil
            }
            inferLaunch()
        }
        if callback == .willFinishLaunching && current.willFinishBegin == nil { current.willFinishBegin = event.timestamp }
        var sequence = current.launchSequence
        let verdict = sequence.step(callback) {
            recording.launchPrecedes(current.launchTime, firstAppActivity: current.firstAppActivity, at: event.timestamp)
        }
        current.launchSequence = sequence
        if let allowance = verdict.allowance { current.allowancesApplied.insert(allowance) }
        return verdict.problem
    }

    /// A `callback.end`: nesting, blame, milestones, and the end of willTerminate.
    mutating func callbackEnded(_ event: TraceEvent, name: Symbol, scene: Symbol, symbols: SymbolTable) {
        let existing = stacks.existingSlot(for: event.thread)
        let key = Int64(scene.rawValue)
        if let slot = existing, let top = stacks.slots[slot].callbacks.last, top.name == name, top.key == key {
            stacks.slots[slot].callbacks.removeLast()
            if emitsEdges, namedEdges(.callback, name, symbols: symbols) {
                emit(.intervalEnded(top.edge(.callback), at: event.timestamp, how: .ended))
            }
            callbackIntervalEnded(top, endedAt: event, symbols: symbols)
            if slot == 0 {
                mainIntervalEnded(.callback, top, at: event.timestamp, symbols: symbols)
            } else {
                stacks.release(slot)
            }
        } else if let slot = existing,
            let index = ThreadIntervals.innermost(stacks.slots[slot].callbacks, name: name, key: key)
        {
            let stack = stacks.slots[slot].callbacks
            if monitoredEdges.contains(.nestingBroken) {
                let inner = stack[stack.count - 1].begin
                judge(.nestingBroken(.returnedAroundInner(end: event, name: name, scene: scene, inner: inner)), symbols: symbols)
            }
            let interval = stack[index]
            stacks.slots[slot].callbacks.removeSubrange(index...)
            if emitsEdges {
                for inside in stack[(index + 1)...].reversed() where namedEdges(.callback, inside.name, symbols: symbols) {
                    emit(.intervalEnded(inside.edge(.callback), at: event.timestamp, how: .enclosingEnded))
                }
                if namedEdges(.callback, name, symbols: symbols) {
                    emit(.intervalEnded(interval.edge(.callback), at: event.timestamp, how: .ended))
                }
            }
            callbackIntervalEnded(interval, endedAt: event, symbols: symbols)
            if slot == 0 {
                mainIntervalEnded(.callback, interval, at: event.timestamp, symbols: symbols)
            } else {
                stacks.release(slot)
            }
        } else {
            if monitoredEdges.contains(.nestingBroken) {
                judge(.nestingBroken(.callbackNeverBegan(end: event, name: name, scene: scene)), symbols: symbols)
            }
            if emitsEdges, namedEdges(.callback, name, symbols: symbols) { emitPoint(.unmatchedEnd, event, name: name) }
            return
        }
        guard let callback = symbols.callback(name) else { return }
        switch callback {
        case .didFinishLaunching:
            if current.didFinishEnd == nil {
                current.didFinishEnd = event.timestamp
                current.didFinishEndEvent = event
            }
        case .didBecomeActive, .sceneDidBecomeActive:
            if current.firstActiveEnd == nil {
                current.firstActiveEnd = event.timestamp
                current.firstActiveEndEvent = event
            }
        case .willTerminate:
            if current.termination.willTerminateReturned() == .terminateWhileSuspended,
                monitoredEdges.contains(.terminateWhileSuspended)
            {
                judge(
                    .terminateWhileSuspended(TerminateWhileSuspended(event: event, suspension: current.systemChange, returned: true)),
                    symbols: symbols)
            }
            if current.terminateEnd == nil { current.terminateEnd = event }
        default:
            break
        }
    }

    /// A callback interval ended: by its end event `end`, or with its lifetime (`end` nil, `at`
    /// the lifetime's end). The threshold monitors that judge callback intervals take it; what
    /// they find on the main thread is noted in the busy interval it ran in.
    mutating func callbackIntervalEnded(
        _ interval: OpenInterval, endedAt end: TraceEvent?, at time: Int64? = nil, symbols: SymbolTable
    ) {
        guard monitoredEdges.contains(.callbackEnded) else { return }
        let ended = CallbackEnded(
            interval: interval.edge(.callback), time: end?.timestamp ?? time ?? interval.begin.timestamp,
            begin: interval.begin, end: end)
        var findings = RuleFindings(onlyCounted: found.isFull)
        judge(.callbackEnded(ended), into: &findings, symbols: symbols)
        if interval.begin.thread.isMain {
            for finding in findings.items { busy.foundInCallbacks.insert(RuleSet(finding.rule)) }
        }
        record(findings, symbols: symbols)
    }

    /// The main thread stayed busy past the background callback limit after the app left the
    /// foreground at `moved`: the monitors that judge the move to the background take it.
    @inline(never)
    mutating func judgeMoveToBackground(from moved: Int64, until end: Int64, unfinished: Bool, symbols: SymbolTable) {
        guard monitoredEdges.contains(.busyAfterLeavingForeground), let start = busy.start, let opening = busy.startEvent
        else { return }
        let stillBusy = BusyAfterLeavingForeground(
            busySince: start, opening: opening, movedAt: moved, time: end, unfinished: unfinished,
            foundInCallbacks: busy.foundInCallbacks, openCallbacks: stacks.slots[0].callbacks)
        judge(.busyAfterLeavingForeground(stillBusy), symbols: symbols)
    }

    /// A main-thread callback or signpost ended: blame, and in callback mode the busy interval.
    @inline(__always)
    mutating func mainIntervalEnded<Edges: EdgeEmission>(
        _ kind: BlameEntry.Kind, _ interval: OpenInterval, at end: Int64, symbols: SymbolTable,
        edges: Edges.Type = RuntimeEdgeEmission.self
    ) {
        busy.completed(kind, name: interval.name, begin: interval.begin.timestamp, end: end)
        if kind == .callback && !current.runLoopSeen && stacks.slots[0].callbacks.isEmpty {
            closeBusy(at: end, unfinished: false, symbols: symbols, edges: edges)
        }
    }

    /// A `signpost.end`: matched by name and id on its thread; signposts may overlap.
    mutating func signpostEnded(_ event: TraceEvent, name: Symbol, key: Int64, symbols: SymbolTable) {
        if let slot = stacks.existingSlot(for: event.thread) {
            if let top = stacks.slots[slot].signposts.last, top.name == name, top.key == key {
                stacks.slots[slot].signposts.removeLast()
                if stacks.slots[slot].signposts.isEmpty { stacks.slots[slot].signpostsOverlap = false }
                if emitsEdges, signpostEdges(name, symbols: symbols) {
                    emit(.intervalEnded(top.edge(.signpost), at: event.timestamp, how: .ended))
                }
                if slot == 0 {
                    mainIntervalEnded(.signpost, top, at: event.timestamp, symbols: symbols)
                } else {
                    stacks.release(slot)
                }
                return
            }
            if let index = ThreadIntervals.innermost(stacks.slots[slot].signposts, name: name, key: key) {
                let interval = stacks.slots[slot].removeSignpost(at: index)
                if emitsEdges, signpostEdges(name, symbols: symbols) {
                    emit(.intervalEnded(interval.edge(.signpost), at: event.timestamp, how: .ended))
                }
                if slot == 0 {
                    mainIntervalEnded(.signpost, interval, at: event.timestamp, symbols: symbols)
                } else {
                    stacks.release(slot)
                }
                return
            }
        }
        if monitoredEdges.contains(.nestingBroken) {
            judge(.nestingBroken(.signpostNeverBegan(end: event, name: name, key: key)), symbols: symbols)
        }
        if emitsEdges, signpostEdges(name, symbols: symbols) { emitPoint(.unmatchedEnd, event, name: name) }
    }

    /// The app delegate's machine stepped (from `before`): the change's witness, and the effective view.
    mutating func appChanged(from before: AppViewState?, event: TraceEvent, symbols: SymbolTable) {
        if current.app != before { current.appChange = event }
        updateEffective(event, symbols: symbols)
    }
}

extension TraceEvent {
    /// The callback name symbol of a callback event, else ``Symbol/none``.
    var callbackName: Symbol {
        switch payload {
        case .callbackBegin(let name, _), .callbackEnd(let name, _): name
        case .launch, .state, .runloopWake, .runloopSleep, .signpostBegin, .signpostEnd, .mark, .frame, .bgtaskBegin,
            .bgtaskEnd, .bgtaskExpire, .exit, .dropped:
            .none
        }
    }
}
