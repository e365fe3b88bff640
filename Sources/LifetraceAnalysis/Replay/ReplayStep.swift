import LifecycleModel
import LifetraceFormat

/// One event of a replay with both views' states before and after it, for debugging a trace.
public struct ReplayStep: Sendable {
    /// The event.
    public var event: EventSummary
    /// The system view before and after.
    public var system: (before: LifecycleState?, after: LifecycleState?)
    /// The effective app view before and after.
    public var app: (before: AppViewState?, after: AppViewState?)
    /// Each scene's views after the event.
    public var scenes: [(scene: String, system: LifecycleState?, app: SceneViewState?)]
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
        let launch: Int64? = inLifetime ? current.launchTime : reports.last?.launch.timestamp
        return ReplayStep(
            event: EventSummary(event, symbols: symbols, launch: launch),
            system: (systemBefore, systemState), app: (appBefore, effectiveAppState),
            scenes: sceneStates(symbols: symbols), violations: Array(violations[found...]))
    }
}
