import LifecycleModel
import LifetraceFormat

/// `scene-connection`: the scene machine's verdict that a scene callback came for a scene that is
/// not connected.
struct SceneConnectionMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.sceneConnection
    static let edges: RuleEdge.Kinds = .sceneNotConnected

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .sceneNotConnected(let verdict) = edge else { return }
        let event = verdict.event
        findings.add(Rule(rule), at: event.timestamp, witnesses: [verdict.disconnect, event].compactMap { $0 }) {
            "\(context.callbackText(event.callbackName, scene: verdict.scene)) began at \(context.when(event.timestamp)) "
                + "for a scene that is not connected ("
                + (verdict.disconnect.map { "it disconnected at \(context.when($0.timestamp))" } ?? "no sceneWillConnect before")
                + "); expected sceneWillConnect first, and nothing after sceneDidDisconnect."
        }
    }
}
