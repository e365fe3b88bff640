import LifecycleModel
import LifetraceFormat

extension LifecycleAnalyzer {
    /// Both views of `scene` in the current lifetime, or nil outside a lifetime or before the
    /// scene's first event in it.
    ///
    /// Unlike ``sceneStates(symbols:)`` this allocates nothing, so a consumer that follows the
    /// replay event by event (an exporter drawing a lane per scene) can ask after every scene event.
    public func sceneState(_ scene: Symbol) -> (system: LifecycleState?, app: SceneViewState?)? {
        guard inLifetime else { return nil }
        guard let index = current.sceneIndexes[scene] else { return nil }
        return (current.scenes[index].system, current.scenes[index].app)
    }

    /// The position of the current lifetime in the trace, counted from 0; nil outside a lifetime
    /// (before the first event and after an `exit`).
    public var lifetimeIndex: Int? { inLifetime ? current.index : nil }
}
