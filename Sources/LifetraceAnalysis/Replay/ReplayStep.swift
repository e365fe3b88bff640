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

    /// One line: time since launch, the event, then the views (`a -> b` where they changed).
    public var line: String {
        let time = event.sinceLaunch.map(TimeFormat.relative) ?? "\(event.timestamp) ns"
        var parts = [event.label]
        if !event.thread.isMain { parts[0] += " (thread \(event.thread))" }
        // Outside a lifetime (before a launch, after an exit) both views are Not running.
        let notRunning = LifecycleState.notRunning.name
        let before = event.type == .launch ? notRunning : nil
        let after = event.type == .exit ? notRunning : nil
        parts.append("system " + Self.change(system.before?.name ?? before, system.after?.name ?? after))
        parts.append("app " + Self.change(app.before?.name ?? before, app.after?.name ?? after))
        for scene in scenes {
            parts.append("scene \(scene.scene) \(scene.app?.name ?? "?")/\(scene.system?.name ?? "?")")
        }
        return time.padding(to: 12) + "  " + parts.joined(separator: "  |  ")
    }

    static func change(_ before: String?, _ after: String?) -> String {
        before == after ? (after ?? "?") : "\(before ?? "?") -> \(after ?? "?")"
    }
}

extension String {
    /// Pads with spaces on the left to `width`.
    func padding(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
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
