import LifecycleModel
import LifetraceFormat
import Testing

struct AppDelegateTransitionsTests {
    @Test("each transition callback is legal from exactly its row's state, didEnterBackground from Background too")
    func oneLegalState() {
        for callback in CallbackName.allCases {
            guard let row = AppDelegateTransitions.row(for: callback) else { continue }
            let legal = AppViewState.allCases.filter { AppDelegateTransitions.deliver(callback, in: $0).verdict.isLegal }
            // The background execution sequence: a launch or resume into the background.
            let expected: [AppViewState] = callback == .didEnterBackground ? [row.from, .background] : [row.from]
            #expect(legal == expected, "\(callback)")
        }
    }

    @Test("the table follows the seeds' delegate list")
    func table() {
        #expect(AppDelegateTransitions.row(for: .didBecomeActive) == .init(from: .inactive, to: .active))
        #expect(AppDelegateTransitions.row(for: .willResignActive) == .init(from: .active, to: .inactive))
        #expect(AppDelegateTransitions.row(for: .didEnterBackground) == .init(from: .inactive, to: .background))
        #expect(AppDelegateTransitions.row(for: .willEnterForeground) == .init(from: .background, to: .inactive))
        #expect(AppDelegateTransitions.row(for: .willTerminate) == .init(from: .background, to: .terminating))
        #expect(AppDelegateTransitions.row(for: .didFinishLaunching) == nil)
        #expect(AppDelegateTransitions.row(for: .sceneDidBecomeActive) == nil)
    }

    @Test("verdicts name the way a transition is wrong")
    func verdicts() {
        #expect(AppDelegateTransitions.deliver(.didEnterBackground, in: .active) == (.backgroundWithoutResigning, .background))
        #expect(AppDelegateTransitions.deliver(.didBecomeActive, in: .background) == (.activeWithoutForeground, .active))
        #expect(AppDelegateTransitions.deliver(.didBecomeActive, in: .active) == (.unbalancedActivation, .active))
        #expect(AppDelegateTransitions.deliver(.willResignActive, in: .background) == (.unbalancedActivation, .inactive))
        #expect(AppDelegateTransitions.deliver(.willEnterForeground, in: .active) == (.noSuchTransition, .inactive))
        #expect(AppDelegateTransitions.deliver(.didEnterBackground, in: .background) == (.legal, .background))
        #expect(AppDelegateTransitions.deliver(.didEnterBackground, in: .terminating) == (.noSuchTransition, .background))
        #expect(AppDelegateTransitions.deliver(.willTerminate, in: .active) == (.noSuchTransition, .terminating))
    }

    @Test("a launch starts in Inactive, or Background for a background launch")
    func launchState() {
        #expect(AppViewState.atLaunch(background: false) == .inactive)
        #expect(AppViewState.atLaunch(background: true) == .background)
    }
}
