import LifecycleModel
import LifetraceFormat

/// Where the synthesized app is in the life cycle, moved by LifecycleModel's transition tables:
/// the system view by ``SystemMove``, the app view by ``AppDelegateTransitions`` and each scene's
/// view by ``SceneDelegateTransitions``.
///
/// The synthesizer decides what happens and when; the tables, not the synthesizer, say whether
/// it may. Every main-thread and system event passes through ``observe(_:symbols:)``, which stops
/// the synthesizer on a move the tables do not draw: a synthesized trace cannot leave the life
/// cycle the analyzer checks, and a change to the tables that the synthesizer does not follow
/// fails its tests rather than producing traces the analyzer disagrees with.
struct SynthesizedLifeCycle {
    /// The system view's state.
    private(set) var system: LifecycleState = .notRunning
    /// The app view's state; nil while the app does not run.
    private(set) var app: AppViewState?
    /// Each connected scene's state, by scene name; a scene not here is unattached.
    private var scenes: [Symbol: SceneViewState] = [:]

    /// Moves the views by `payload`, an event about to be emitted; stops on an illegal move.
    mutating func observe(_ payload: EventPayload, symbols: SymbolTable) {
        switch payload {
        case .launch(_, let background, _, _):
            app = .atLaunch(background: background)
            move(to: app!.lifecycleState)
            scenes = [:]
        case .state(let to, let scene) where scene.isNone:
            move(to: to)
        case .exit:
            move(to: .notRunning)
            app = nil
            scenes = [:]
        case .callbackBegin(let name, let scene):
            guard let callback = symbols.callback(name), let app else { return }
            if callback.isSceneCallback {
                let (verdict, next) = SceneDelegateTransitions.deliver(callback, in: scenes[scene] ?? .unattached)
                precondition(verdict == .legal, "synthesized \(callback) for a scene in \(scenes[scene] ?? .unattached): \(verdict)")
                scenes[scene] = next
            } else {
                let (verdict, next) = AppDelegateTransitions.deliver(callback, in: app)
                precondition(verdict == .legal, "synthesized \(callback) in \(app): \(verdict)")
                self.app = next
            }
        case .state, .callbackEnd, .runloopWake, .runloopSleep, .signpostBegin, .signpostEnd, .mark, .frame, .bgtaskBegin,
            .bgtaskEnd, .bgtaskExpire, .dropped:
            // A scene's state, or an event that moves no view.
            break
        }
    }

    private mutating func move(to state: LifecycleState) {
        let move = SystemMove.classify(from: system, to: state)
        precondition(move == .legal, "synthesized a move from \(system) to \(state): \(move)")
        system = state
    }
}
