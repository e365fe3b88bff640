import LifecycleModel
import LifetraceFormat
import Testing

/// The model's machines step as the documents say, and each verdict names the allowance that
/// changed it, only where that allowance applies.
struct LifecycleMachinesTests {
    private static let noScenes = AppDelegateMachine.Scenes(any: false, connected: false, effective: nil, wasActive: false)

    /// The app delegate's verdicts on willResignActive, willEnterForeground (a quick minimise).
    private static func quickMinimise(_ allowances: AllowanceSet) -> AppDelegateMachine.Verdict {
        var machine = AppDelegateMachine(allowances: allowances)
        machine.launch(background: false)
        for callback: CallbackName in [.didBecomeActive, .willResignActive] {
            let verdict = machine.step(callback, scenes: noScenes, learnsFromRecording: { nil })
            #expect(!verdict.isViolation)
        }
        return machine.step(.willEnterForeground, scenes: noScenes, learnsFromRecording: { nil })
    }

    @Test("the app delegate's verdict names the allowance that accepted a quick minimise, and none under the textbook")
    func appDelegateNamesItsAllowance() {
        let allowed = Self.quickMinimise(.all)
        #expect(allowed.transition == .noSuchTransition && allowed.allowance == .quickMinimise && !allowed.isViolation)
        let textbook = Self.quickMinimise(.none)
        #expect(textbook.transition == .noSuchTransition && textbook.allowance == nil && textbook.isViolation)
        #expect(textbook.judgedIn == .inactive && textbook.next == .inactive)
    }

    @Test("the background execution sequence: didEnterBackground in Background is legal in both modes")
    func backgroundExecution() {
        var machine = AppDelegateMachine(allowances: .none)
        machine.launch(background: true)
        let verdict = machine.step(.didEnterBackground, scenes: Self.noScenes, learnsFromRecording: { nil })
        #expect(verdict.transition == .legal && verdict.allowance == nil && machine.state == .background)
    }

    @Test("a state unknown before the recording is learnt from the first callback, naming late-recording")
    func learntFromRecording() {
        var machine = AppDelegateMachine(allowances: .all)
        let verdict = machine.step(.willResignActive, scenes: Self.noScenes, learnsFromRecording: { .lateRecording })
        #expect(verdict.judgedIn == nil && verdict.allowance == .lateRecording && machine.state == .inactive)
        #expect(machine.moved && machine.lastTransition == .willResignActive)
    }

    @Test("a scene disconnecting while Inactive is switcher-quit; a callback for an unattached scene is not connected")
    func scene() {
        var quit = SceneMachine(.unattached, allowances: .all)
        for callback: CallbackName in [.sceneWillConnect, .sceneWillEnterForeground] {
            let verdict = quit.step(callback, learnsFromRecording: { nil })
            #expect(!verdict.isViolation)
        }
        let disconnect = quit.step(.sceneDidDisconnect, learnsFromRecording: { nil })
        #expect(disconnect.allowance == .switcherQuit && !disconnect.isViolation && quit.state == .unattached)
        var textbook = SceneMachine(.unattached, allowances: .none)
        let early = textbook.step(.sceneDidBecomeActive, learnsFromRecording: { nil })
        #expect(early.notConnected && early.isViolation)
    }

    @Test("the launch sequence asks about the recording only for a launch callback that is missing")
    func launchSequence() {
        var asked = 0
        var sequence = LaunchSequence()
        let first = sequence.step(.willFinishLaunching) { asked += 1; return nil }
        #expect(first.problem == nil)
        let again = sequence.step(.willFinishLaunching) { asked += 1; return nil }
        #expect(again.problem == .willFinishLaunchingAgain)
        #expect(asked == 0)
        var late = LaunchSequence()
        let missing = late.step(.didBecomeActive) { asked += 1; return .lateRecording }
        #expect(missing.problem == nil && missing.allowance == .lateRecording && asked == 1)
        var textbook = LaunchSequence()
        let missingFirst = textbook.step(.didFinishLaunching) { nil }
        #expect(missingFirst.problem == .willFinishLaunchingMissing)
    }

    @Test("termination: willTerminate while Suspended is found once; after it returns the app is silent")
    func termination() {
        var running = TerminationSequence()
        let began = running.callbackBegan(willTerminate: true)
        let returned = running.willTerminateReturned()
        #expect(began == .legal && returned == .legal)
        #expect(running.silent && running.cutsOtherThreadsAtExit)
        let after = running.callbackBegan(willTerminate: false)
        #expect(after == .silenceBroken)
        var suspended = TerminationSequence()
        suspended.systemMoved(to: .suspended)
        let whileSuspended = suspended.callbackBegan(willTerminate: true)
        let returnedOnce = suspended.willTerminateReturned()
        #expect(whileSuspended == .terminateWhileSuspended && returnedOnce == .legal)
        #expect(TerminationSequence.isKill(code: nil, signal: 9) && TerminationSequence.isKill(code: nil, signal: nil))
        #expect(!TerminationSequence.isKill(code: 0, signal: nil))
    }

    @Test("a silence in Background is a suspension only under inferred-suspension, without state events")
    func silences() {
        let silence = BackgroundExecutionSequence.Silence(
            length: RealIOSTimes.suspensionSilence, hasStateEvents: false, effective: .background, mainThreadInCallback: false)
        var allowed = BackgroundExecutionSequence(allowances: .all, platform: PlatformFacts())
        allowed.lifetimeStarted()
        #expect(allowed.silenceThreshold == RealIOSTimes.launchPause)
        let suspension = allowed.silence(silence)
        #expect(suspension == .inferredSuspension && allowed.inferredSuspensions == 1)
        allowed.launchRead()
        #expect(allowed.silenceThreshold == RealIOSTimes.suspensionSilence)
        var withStates = silence
        withStates.hasStateEvents = true
        let seen = allowed.silence(withStates)
        #expect(seen == nil)
        var textbook = BackgroundExecutionSequence(allowances: .none, platform: PlatformFacts())
        textbook.lifetimeStarted()
        let unread = textbook.silence(silence)
        #expect(textbook.silenceThreshold == .max && unread == nil)
    }

    @Test("a launch recorded as foreground whose app-level willEnterForeground comes first was a background launch")
    func launchKind() {
        var machine = LaunchKindMachine(allowances: .all)
        let awaitsResume = machine.launched(.cold)
        #expect(!awaitsResume)
        let verdict = machine.movingToForeground(.willEnterForeground, launched: true, hasScenes: false)
        #expect(verdict.first && verdict.allowance == .backgroundLaunch && machine.kind == .background)
        var textbook = LaunchKindMachine(allowances: .none)
        _ = textbook.launched(.cold)
        let textbookVerdict = textbook.movingToForeground(.willEnterForeground, launched: true, hasScenes: false)
        #expect(textbookVerdict.allowance == nil)
        #expect(textbook.kind == .cold)
    }

    /// A prewarmed launch that ends the way it is asked, under the allowances or the textbook.
    private static func prewarmEnded(
        allowances: AllowanceSet, resumed: Bool = false, foreground: Bool = false, mainThreadIdle: Bool = true
    ) -> (machine: LaunchKindMachine, verdict: Allowance?) {
        var machine = LaunchKindMachine(allowances: allowances)
        _ = machine.launched(.prewarmed)
        if resumed { _ = machine.paused(launched: true, mainThreadIdle: true, launchStarted: true) }
        if foreground { _ = machine.movingToForeground(.didBecomeActive, launched: true, hasScenes: false) }
        let verdict = machine.lifetimeEnded(
            silentFor: 0, launched: true, mainThreadIdle: mainThreadIdle, launchStarted: true, inferred: false,
            backgroundBeforeActive: false)
        return (machine, verdict)
    }

    @Test("a prewarmed launch purged before the user's launch was never opened: off screen, no launch")
    func prewarmNeverOpened() {
        let purged = Self.prewarmEnded(allowances: .all)
        #expect(purged.verdict == .prewarmResume && purged.machine.neverOpened)
        #expect(purged.machine.stateAtEnd(.inactive, hasStateEvents: false) == .background)
        #expect(purged.machine.stateAtEnd(.active, hasStateEvents: true) == .active)
        // The textbook has no prewarm: the launch stays in front of the user.
        let textbook = Self.prewarmEnded(allowances: .none)
        #expect(textbook.verdict == nil && !textbook.machine.neverOpened)
        #expect(textbook.machine.stateAtEnd(.inactive, hasStateEvents: false) == .inactive)
        // Opened (a resume, or a move to the foreground), or killed while its main thread worked:
        // a launch, judged as one.
        for opened in [
            Self.prewarmEnded(allowances: .all, resumed: true), Self.prewarmEnded(allowances: .all, foreground: true),
            Self.prewarmEnded(allowances: .all, mainThreadIdle: false),
        ] {
            #expect(!opened.machine.neverOpened && opened.verdict == nil)
            #expect(opened.machine.stateAtEnd(.inactive, hasStateEvents: false) == .inactive)
        }
    }
}
