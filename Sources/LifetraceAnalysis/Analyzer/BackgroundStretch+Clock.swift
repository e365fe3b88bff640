import LifecycleModel
import LifetraceFormat

extension BackgroundStretch {
    /// Which view a stretch belongs to.
    enum View {
        case system
        case app
    }

    /// The view entered Background; a stretch starts unless a background task is open.
    mutating func enter(_ event: TraceEvent, tasksOpen: Bool) {
        inBackground = true
        if !tasksOpen {
            start = event.timestamp
            startEvent = event
        }
    }

    /// The view left Background; returns the stretch that was running, if any.
    mutating func leave() -> (start: Int64, event: TraceEvent)? {
        inBackground = false
        return stop()
    }

    /// A background task opened (or the lifetime ends); returns the stretch that was running.
    mutating func stop() -> (start: Int64, event: TraceEvent)? {
        defer {
            start = nil
            startEvent = nil
        }
        guard let start, let startEvent else { return nil }
        return (start, startEvent)
    }

    /// The last background task closed: a stretch starts again if the view is in Background.
    mutating func resume(_ event: TraceEvent) {
        guard inBackground && start == nil else { return }
        start = event.timestamp
        startEvent = event
    }
}

extension LifecycleAnalyzer {
    /// Checks a finished stretch against the background limit and keeps the finding aside: only
    /// the view the lifetime trusts (system when it has `state` events) reports at its end.
    mutating func closeStretch(
        _ stretch: (start: Int64, event: TraceEvent)?, view: BackgroundStretch.View, end: Int64,
        endEvent: TraceEvent?, symbols: SymbolTable
    ) {
        guard let stretch, end - stretch.start > options.backgroundLimit,
            options.rules.contains(.backgroundTime)
        else { return }
        // A declared continuous background mode (audio, location, ...) keeps the app running legally.
        if runsInBackground {
            current.allowancesApplied.insert(.backgroundModes)
            return
        }
        let limit = options.backgroundLimit
        if found.isFull {
            switch view {
            case .system: current.systemStretch.findings.count(.backgroundTime)
            case .app: current.appStretch.findings.count(.backgroundTime)
            }
            return
        }
        let viewText = view == .system ? "the system view" : "its callbacks (no state events)"
        let finding = makeViolation(
            .backgroundTime, at: stretch.start + limit,
            "The app ran in Background with no background task open from \(when(stretch.start)) to "
                + "\(when(end)) (\(DurationFormat.fixed.string(end - stretch.start)), by \(viewText)); expected at "
                + "most \(DurationFormat.fixed.string(limit)) before suspension unless a background task is open.",
            witnesses: [stretch.event, endEvent], symbols: symbols)
        switch view {
        case .system: current.systemStretch.findings.append(finding)
        case .app: current.appStretch.findings.append(finding)
        }
    }

    /// `bgtask.begin`: the first open task stops both views' stretches.
    mutating func taskBegan(_ id: Int64, event: TraceEvent, symbols: SymbolTable) {
        if current.openTasks.isEmpty {
            let system = current.systemStretch.stop()
            closeStretch(system, view: .system, end: event.timestamp, endEvent: event, symbols: symbols)
            // The app view cannot see suspension: count only up to the app's last event before.
            let app = current.appStretch.stop()
            closeStretch(app, view: .app, end: current.lastAppActivity, endEvent: event, symbols: symbols)
        }
        let name: Symbol
        if case .bgtaskBegin(_, let taskName) = event.payload { name = taskName } else { name = .none }
        if !current.foregroundMoved { scheduledTaskBeforeForeground(name, symbols: symbols) }
        guard current.openTasks.count < ThreadStacks.depthLimit else { return }
        let task = EdgeInterval(
            kind: .backgroundTask, thread: event.thread, depth: current.openTasks.count,
            lane: Int(ThreadIntervals.lowestFreeLane(current.openTasks.lazy.map(\.lane))), name: name, key: id,
            begin: event.timestamp)
        current.openTasks.append(task)
        if emitsEdges, namedEdges(.backgroundTask, name, symbols: symbols) { emit(.intervalBegan(task)) }
    }

    /// `bgtask.end` (or an expiry, `how`): when the last open task closes, stretches start again.
    mutating func taskEnded(_ id: Int64, event: TraceEvent, how: IntervalEnding = .ended, symbols: SymbolTable) {
        guard let index = current.openTasks.lastIndex(where: { $0.key == id }) else {
            if how == .ended, emitsEdges, namedEdges(.backgroundTask, event.payload.taskName, symbols: symbols) {
                emitPoint(.unmatchedEnd, event, name: event.payload.taskName)
            }
            return
        }
        let task = current.openTasks.remove(at: index)
        if emitsEdges, namedEdges(.backgroundTask, task.name, symbols: symbols) {
            emit(.intervalEnded(task, at: event.timestamp, how: how))
        }
        if current.openTasks.isEmpty {
            current.systemStretch.resume(event)
            current.appStretch.resume(event)
        }
    }

    /// `bgtask.expire`: always a `background-time` warning; the task counts as closed.
    mutating func taskExpired(_ id: Int64, name: Symbol, event: TraceEvent, symbols: SymbolTable) {
        let began = current.openTasks.contains { $0.key == id }
        let label = symbols.shown(name).map { "background task \(id) (\"\($0)\")" } ?? "background task \(id)"
        report(
            .backgroundTime, at: event.timestamp,
            "The system expired \(label) at \(when(event.timestamp)); expected the app to end its "
                + "background task before the extra execution time ran out.",
            witnesses: [event], symbols: symbols)
        if began { taskEnded(id, event: event, how: .expired, symbols: symbols) }
    }
}

extension EventPayload {
    /// The task name of a background-task event, else ``Symbol/none``.
    var taskName: Symbol {
        switch self {
        case .bgtaskBegin(_, let name), .bgtaskEnd(_, let name), .bgtaskExpire(_, let name): name
        case .launch, .state, .callbackBegin, .callbackEnd, .runloopWake, .runloopSleep, .signpostBegin, .signpostEnd,
            .mark, .frame, .exit, .dropped:
            .none
        }
    }
}
