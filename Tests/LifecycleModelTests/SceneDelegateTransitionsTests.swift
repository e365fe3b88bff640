import LifecycleModel
import LifetraceFormat
import Testing

struct SceneDelegateTransitionsTests {
    @Test("every scene callback has a row, and only scene callbacks do")
    func rows() {
        for callback in CallbackName.allCases {
            #expect((SceneDelegateTransitions.row(for: callback) != nil) == callback.isSceneCallback, "\(callback)")
        }
    }

    @Test("a scene connects in Background and disconnects from Background")
    func connection() {
        #expect(SceneDelegateTransitions.deliver(.sceneWillConnect, in: .unattached) == (.legal, .background))
        #expect(SceneDelegateTransitions.deliver(.sceneDidDisconnect, in: .background) == (.legal, .unattached))
        #expect(SceneDelegateTransitions.deliver(.sceneWillConnect, in: .active).verdict == .noSuchTransition)
        #expect(SceneDelegateTransitions.deliver(.sceneDidDisconnect, in: .active).verdict == .noSuchTransition)
    }

    @Test("a scene's foreground cycle")
    func cycle() {
        var state = SceneViewState.unattached
        for callback: CallbackName in [
            .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
            .sceneDidEnterBackground, .sceneDidDisconnect,
        ] {
            let (verdict, next) = SceneDelegateTransitions.deliver(callback, in: state)
            #expect(verdict == .legal, "\(callback) from \(state)")
            state = next
        }
        #expect(state == .unattached)
        #expect(SceneDelegateTransitions.deliver(.sceneDidEnterBackground, in: .active).verdict == .backgroundWithoutResigning)
        #expect(SceneDelegateTransitions.deliver(.sceneDidBecomeActive, in: .background).verdict == .activeWithoutForeground)
    }
}
