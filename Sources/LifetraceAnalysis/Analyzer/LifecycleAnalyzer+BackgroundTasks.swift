import LifecycleModel
import LifetraceFormat

extension LifecycleAnalyzer {
    /// `bgtask.begin`: follows the task (up to ``ThreadStacks/depthLimit`` open) and hands it to
    /// the `background-time` monitor.
    mutating func taskBegan(_ id: Int64, event: TraceEvent, symbols: SymbolTable) {
        let name: Symbol
        if case .bgtaskBegin(_, let taskName) = event.payload { name = taskName } else { name = .none }
        guard current.openTasks.count < ThreadStacks.depthLimit else {
            current.launchKind.taskBegan(launched: current.launchTime != nil) { symbols[name] }
            return
        }
        let task = EdgeInterval(
            kind: .backgroundTask, thread: event.thread, depth: current.openTasks.count,
            lane: Int(ThreadIntervals.lowestFreeLane(current.openTasks.lazy.map(\.lane))), name: name, key: id,
            begin: event.timestamp)
        judgeBackgroundTime(
            current.backgroundTime.taskBegan(task, event: event, appActivity: current.lastAppActivity), symbols: symbols)
        current.launchKind.taskBegan(launched: current.launchTime != nil) { symbols[name] }
        current.openTasks.append(task)
        if emitsEdges, namedEdges(.backgroundTask, name, symbols: symbols) { emit(.intervalBegan(task)) }
    }

    /// `bgtask.end` (or an expiry, `how`): the task's interval ends, and the monitor hears of it.
    mutating func taskEnded(_ id: Int64, event: TraceEvent, how: IntervalEnding = .ended, symbols: SymbolTable) {
        if how == .ended && !current.expiredTasks.isEmpty { expiredTaskEnded(id, event: event, symbols: symbols) }
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
        current.backgroundTime.taskEnded(task, event: event)
    }

    /// `bgtask.expire`: the task counts as closed (no longer keeping the app from suspension), and
    /// its end is awaited: a `background-time` warning when it does not come within the grace
    /// (``BackgroundTimeMonitor/expiryGrace``), before the app is suspended or the lifetime ends.
    mutating func taskExpired(_ id: Int64, name: Symbol, event: TraceEvent, symbols: SymbolTable) {
        let began = current.openTasks.contains { $0.key == id }
        let task = BackgroundTimeMonitor.ExpiredTask(id: id, name: name, expiry: event)
        if current.expiredTasks.count < ThreadStacks.depthLimit {
            current.expiredTasks.append(task)
        } else {
            // Past the tasks followed, the end is not awaited: judged as not ended.
            judgeExpiredTask(task, .notFollowed, symbols: symbols)
        }
        if began { taskEnded(id, event: event, how: .expired, symbols: symbols) }
    }

    /// A `bgtask.end` of a task the system expired: in time, or late.
    private mutating func expiredTaskEnded(_ id: Int64, event: TraceEvent, symbols: SymbolTable) {
        guard let index = current.expiredTasks.firstIndex(where: { $0.id == id }) else { return }
        let task = current.expiredTasks.remove(at: index)
        if event.timestamp > task.deadline { judgeExpiredTask(task, .endedLate(event), symbols: symbols) }
    }

    /// The app is suspended (`event`): the expired tasks it had not ended were not ended in time.
    mutating func suspendedWithExpiredTasks(_ event: TraceEvent, symbols: SymbolTable) {
        guard !current.expiredTasks.isEmpty else { return }
        for task in current.expiredTasks { judgeExpiredTask(task, .suspended(event), symbols: symbols) }
        current.expiredTasks.removeAll()
    }

    private mutating func judgeExpiredTask(
        _ task: BackgroundTimeMonitor.ExpiredTask, _ outcome: BackgroundTimeMonitor.ExpiryOutcome, symbols: SymbolTable
    ) {
        guard monitoredEdges.contains(.expiredTaskNotEnded) else { return }
        judge(.expiredTaskNotEnded(task, outcome), symbols: symbols)
    }

    /// Judges the stretches a step of the `background-time` monitor's clock ended, and keeps what
    /// it found with the view that found it, as violations made now, until the lifetime ends
    /// (``recordBackgroundTime()``).
    /// Most stretches end within the limit, where the monitor finds nothing: those cost a
    /// comparison each, and no context is built.
    @inline(__always)
    mutating func judgeBackgroundTime(_ ended: BackgroundTimeMonitor.Ended, symbols: SymbolTable) {
        let limit = options.backgroundLimit
        if BackgroundTimeMonitor.exceeds(ended.system, limit) || BackgroundTimeMonitor.exceeds(ended.app, limit) {
            judgeEndedStretches(ended, symbols: symbols)
        }
    }

    @inline(never)
    private mutating func judgeEndedStretches(_ ended: BackgroundTimeMonitor.Ended, symbols: SymbolTable) {
        guard monitoredEdges.contains(.backgroundStretchEnded) else { return }
        judgeEndedStretch(ended.system, in: \.systemBackgroundFound, symbols: symbols)
        judgeEndedStretch(ended.app, in: \.appBackgroundFound, symbols: symbols)
    }

    private mutating func judgeEndedStretch(
        _ stretch: BackgroundTimeMonitor.EndedStretch?, in list: WritableKeyPath<Lifetime, ViolationList>,
        symbols: SymbolTable
    ) {
        guard let stretch else { return }
        var findings = RuleFindings(onlyCounted: found.isFull)
        judge(.backgroundStretchEnded(stretch), into: &findings, symbols: symbols)
        keepAside(findings, in: list, symbols: symbols)
    }

    /// The lifetime ends at `end`: the monitor's clock ends both views' stretches, and the expired
    /// tasks not ended yet were not ended in time, unless the trace stopped (`traceStopped`)
    /// before their grace ran out.
    mutating func closeBackgroundTime(at end: Int64, exit: TraceEvent?, traceStopped: Bool, symbols: SymbolTable) {
        judgeBackgroundTime(
            current.backgroundTime.lifetimeEnded(at: end, exit: exit, appActivity: current.lastAppActivity), symbols: symbols)
        for task in current.expiredTasks where !traceStopped || end > task.deadline {
            judgeExpiredTask(task, .lifetimeEnded(at: end, exit: exit, traceStopped: traceStopped), symbols: symbols)
        }
        current.expiredTasks.removeAll()
    }

    /// Records the trusted view's findings on the stretches in Background of the lifetime.
    mutating func recordBackgroundTime() {
        found.append(contentsOf: current.hasStateEvents ? current.systemBackgroundFound : current.appBackgroundFound)
    }

    /// Makes violations of `findings` as ``record(_:symbols:)`` does, into one of the lists kept
    /// until the lifetime's end.
    private mutating func keepAside(
        _ findings: RuleFindings, in list: WritableKeyPath<Lifetime, ViolationList>, symbols: SymbolTable
    ) {
        for finding in findings.items where options.rules.contains(finding.rule) {
            if findings.onlyCounted {
                current[keyPath: list].count(finding.rule)
            } else {
                let violation = makeViolation(
                    finding.rule, at: finding.timestamp, finding.message, witnesses: finding.witnesses, symbols: symbols)
                current[keyPath: list].append(violation)
            }
        }
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
