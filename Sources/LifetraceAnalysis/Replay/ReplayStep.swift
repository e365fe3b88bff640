import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// One event of a replay with both views' states before and after it, for debugging a trace.
public struct ReplayStep: Sendable {
    /// The event.
    public var event: EventSummary
    /// The system view before and after.
    public var system: (before: LifecycleState?, after: LifecycleState?)
    /// The effective app view before and after.
    public var app: (before: AppViewState?, after: AppViewState?)
    /// Each scene's views after the event: the first ``ReplayStep/sceneLimit`` scenes of the lifetime.
    public var scenes: [(scene: String, system: LifecycleState?, app: SceneViewState?)]
    /// The scenes of the lifetime past those, counted.
    public var omittedScenes = 0
    /// The most scenes a step shows, so that a line stays short whatever the trace claims.
    public static let sceneLimit = 16
    /// Violations found at this event (end-of-lifetime rules show up at the `exit`).
    public var violations: [Violation]
}

extension LifecycleAnalyzer {
    /// Consumes `event` and returns the replay step for it.
    public mutating func step(_ event: TraceEvent, symbols: SymbolTable) -> ReplayStep {
        let systemBefore = systemState
        let appBefore = effectiveAppState
        let found = violations.count
        consume(event, symbols: symbols)
        // After an `exit` the lifetime just ended is still the current one.
        let launch: Int64? = current.windowStart
        let shown = inLifetime ? current.scenes.prefix(ReplayStep.sceneLimit).map { (symbols.shown($0.name) ?? "", $0.system, $0.app) } : []
        var step = ReplayStep(
            event: EventSummary(event, symbols: symbols, launch: launch, origin: traceOrigin),
            system: (systemBefore, systemState), app: (appBefore, effectiveAppState),
            scenes: shown, violations: Array(violations[found...]))
        if inLifetime { step.omittedScenes = current.scenes.count - shown.count }
        return step
    }
}
