import LifecycleModel
import LifetraceFormat

/// A view's state as last sent, and since when.
struct SentState<State: Equatable> {
    var state: State?
    var since: Int64 = 0
}

/// The states of a lifetime's views as last sent to the sink.
struct SentViews {
    /// A scene's two views.
    struct Scene {
        var name: Symbol
        var system = SentState<LifecycleState>()
        var app = SentState<SceneViewState>()
    }

    var system = SentState<LifecycleState>()
    var app = SentState<AppViewState>()
    var effective = SentState<AppViewState>()
    var trusted = SentState<LifecycleState>()
    /// In the order of the lifetime's scene records (which only grow within a lifetime).
    var scenes: [Scene] = []
}

extension LifecycleAnalyzer {
    /// Sends a state change for every view whose state differs from the one last sent (for the
    /// rule monitor alone, of the trusted view only). Called
    /// after each event that can move a view, so the views are compared once per such event,
    /// wherever the event moved them.
    mutating func followViews(at time: Int64) {
        guard emitsEdges, inLifetime else { return }
        // The monitor alone reads the trusted state only.
        guard sinkListens else {
            return send(Self.change(&viewsSent.trusted, current.trustedState, view: .trusted, at: time, as: ViewState.system))
        }
        send(Self.change(&viewsSent.system, current.system, view: .system, at: time, as: ViewState.system))
        send(Self.change(&viewsSent.app, current.app, view: .app, at: time, as: ViewState.app))
        send(Self.change(&viewsSent.effective, current.effective, view: .effectiveApp, at: time, as: ViewState.app))
        send(Self.change(&viewsSent.trusted, current.trustedState, view: .trusted, at: time, as: ViewState.system))
        for index in current.scenes.indices {
            let record = current.scenes[index]
            if index == viewsSent.scenes.count { viewsSent.scenes.append(SentViews.Scene(name: record.name)) }
            send(Self.change(
                &viewsSent.scenes[index].system, record.system, view: .sceneSystem(record.name), at: time, as: ViewState.system))
            send(Self.change(
                &viewsSent.scenes[index].app, record.app, view: .sceneApp(record.name), at: time,
                as: ViewState.scene))
        }
    }

    /// Sends the end of every view's state at the end of the lifetime (`to` nil), the scenes'
    /// first, then the app views, then the system and trusted views.
    mutating func closeViews(at time: Int64) {
        guard emitsEdges else { return }
        for index in viewsSent.scenes.indices {
            let name = viewsSent.scenes[index].name
            send(Self.change(&viewsSent.scenes[index].app, nil, view: .sceneApp(name), at: time, as: ViewState.scene))
            send(Self.change(&viewsSent.scenes[index].system, nil, view: .sceneSystem(name), at: time, as: ViewState.system))
        }
        send(Self.change(&viewsSent.app, nil, view: .app, at: time, as: ViewState.app))
        send(Self.change(&viewsSent.effective, nil, view: .effectiveApp, at: time, as: ViewState.app))
        send(Self.change(&viewsSent.system, nil, view: .system, at: time, as: ViewState.system))
        send(Self.change(&viewsSent.trusted, nil, view: .trusted, at: time, as: ViewState.system))
        viewsSent = SentViews()
    }

    private mutating func send(_ edge: LifecycleEdge?) {
        if let edge { emit(edge) }
    }

    /// The change of a view from `sent` to `now`, noted as sent; nil when it did not change.
    private static func change<State: Equatable>(
        _ sent: inout SentState<State>, _ now: State?, view: LifecycleView, at time: Int64, as wrap: (State) -> ViewState
    ) -> LifecycleEdge? {
        guard sent.state != now else { return nil }
        defer { sent = SentState(state: now, since: time) }
        return .stateChanged(
            StateChange(
                view: view, from: sent.state.map(wrap), since: sent.state == nil ? nil : sent.since, to: now.map(wrap),
                timestamp: time))
    }
}
