import LifecycleModel
import LifetraceFormat

extension LifecycleAnalyzer {
    /// An `exit`: closes everything at the exit, checks the end-of-lifetime rules, and records
    /// how the lifetime ended.
    mutating func endLifetime(exit event: TraceEvent, code: Int32?, signal: Int32?, symbols: SymbolTable) {
        let end = event.timestamp
        // An `exit` with neither code nor signal is inferred (`lifetrace recover`, or another
        // recorder that saw the process vanish): the process was killed without notice.
        let inferred = code == nil && signal == nil
        let killed = signal != nil || inferred
        settleLaunchKind(end: end)
        if !killed { reportOpenIntervals(at: event, symbols: symbols) }
        let state = endState
        if monitoredEdges.contains(.exit) { judgeExit(event, state: state, signal: signal, symbols: symbols) }
        let kind: LifetimeEnd.Kind
        if current.willTerminateBegin != nil {
            kind = .terminated
        } else {
            switch state {
            case .suspended?: kind = .killedWhileSuspended
            case .background?: kind = .killedInBackground
            case .inactive?, .active?: kind = killed ? .killedInForeground : .exitedInForeground
            case .notRunning?, nil: kind = killed ? .killedInBackground : .exitedInForeground
            }
        }
        closeLifetime(kind: kind, at: end, exit: event, code: code, signal: signal, symbols: symbols)
    }

    /// Hands the lifetime's `exit` and how the lifetime stood to the monitors that judge exits.
    @inline(never)
    private mutating func judgeExit(_ event: TraceEvent, state: LifecycleState?, signal: Int32?, symbols: SymbolTable) {
        let crash = signal.flatMap { TerminationSequence.crashName(signal: $0, platform: platform) }
        let point = EdgePoint(kind: .exit, timestamp: event.timestamp, thread: event.thread, name: .none, event: event)
        judge(.exit(point, judgedEnding(state: state, crash: crash)), symbols: symbols)
    }

    /// How the lifetime stands at its end, for the monitors that judge ends.
    private func judgedEnding(state: LifecycleState?, crash: String?) -> JudgedEnding {
        JudgedEnding(
            state: state, terminating: current.willTerminateBegin != nil,
            stateEvent: current.hasStateEvents ? current.systemChange : current.effectiveChange,
            lastCallback: current.lastCallback, open: stacks.allOpen.map(\.begin), busySince: busy.start, crash: crash)
    }

    /// Ends the lifetime with no `exit`: the trace ended, or a new `launch` came (`nextLaunch`).
    /// Nothing open is a violation then (the recording may simply have stopped); it is reported as
    /// facts. A new launch proves the process ended, though: the lifetime is handed to the monitors
    /// that judge ends as an inferred exit at its last event (``RelaunchedEnding``).
    mutating func endLifetimeWithoutExit(_ kind: LifetimeEnd.Kind, nextLaunch: TraceEvent? = nil, symbols: SymbolTable) {
        if let nextLaunch, monitoredEdges.contains(.relaunched) {
            settleLaunchKind(end: current.lastTimestamp)
            let relaunched = RelaunchedEnding(
                end: current.lastTimestamp, nextLaunch: nextLaunch, ending: judgedEnding(state: endState, crash: nil))
            judge(.relaunched(relaunched), symbols: symbols)
        }
        closeLifetime(kind: kind, at: current.lastTimestamp, exit: nil, code: nil, signal: nil, symbols: symbols)
    }

    /// The state the end is judged in: the system view (the state before a final move to
    /// notRunning) or, with no `state` events, the effective app view.
    private var endState: LifecycleState? {
        guard let trusted = current.trustedState else { return nil }
        let state = current.launchKind.stateAtEnd(trusted, hasStateEvents: current.hasStateEvents)
        if state == .notRunning { return current.systemBeforeNotRunning }
        return state
    }

    /// The thread stacks' verdict on every begin still open at a normal end. Once willTerminate has
    /// returned, UIKit ends the process itself (``TerminationSequence``): what is still open on
    /// another thread is cut by the exit, not left open by the app; on the main thread, a begin
    /// still open is a callback or signpost that never returned.
    private mutating func reportOpenIntervals(at exit: TraceEvent, symbols: SymbolTable) {
        guard monitoredEdges.contains(.nestingBroken) else { return }
        let cutsOtherThreads = current.termination.cutsOtherThreadsAtExit
        for interval in stacks.allOpen where !(cutsOtherThreads && !interval.begin.thread.isMain) {
            judge(.nestingBroken(.openAtExit(begin: interval.begin, exit: exit)), symbols: symbols)
        }
    }

    private mutating func closeLifetime(
        kind: LifetimeEnd.Kind, at end: Int64, exit: TraceEvent?, code: Int32?, signal: Int32?, symbols: SymbolTable
    ) {
        settleLaunchKind(end: end)
        // Metadata that contradicts the events is a problem of the trace, in every mode.
        _ = recording.isContradicted(firstAppActivity: current.firstAppActivity, by: .max)
        let unfinishedBusySince = busy.start
        closeBusy(at: end, unfinished: true, symbols: symbols)
        closeBackgroundTime(at: end, exit: exit, traceStopped: kind == .endOfTrace, symbols: symbols)
        let launch = checkLaunch(end: end, exit: exit, symbols: symbols)
        if kind != .endOfTrace {
            for interval in stacks.allOpen {
                callbackIntervalEnded(interval, endedAt: nil, at: end, symbols: symbols)
            }
        }
        recordBackgroundTime()
        let facts = endingFacts(kind: kind, at: end, code: code, signal: signal, busySince: unfinishedBusySince, symbols: symbols)
        let (stalls, omittedStalls) = listedStalls()
        let report = LifetimeReport(
            index: current.index, launch: launch, stalls: stalls, omittedStalls: omittedStalls,
            busySource: current.runLoopSeen ? .runLoop : (current.mainCallbacksSeen ? .callbacks : .none),
            timeInStates: timeInStates(until: end),
            end: LifetimeEnd(
                kind: kind, timestamp: end, sinceLaunch: current.windowStart.map { end - $0 }, code: code,
                signal: signal, facts: facts),
            droppedEvents: current.dropped, eventCount: current.eventCount)
        if emitsEdges {
            sendLifetimeEnd(report, at: end, symbols: symbols)
            // The rules judge the lifetime's end now, so that what they find goes with its report,
            // and to a sink before the lifetime's own end.
            if monitor != nil {
                feedMonitor(symbols: symbols)
                if sinkListens, let ended = pendingEdges.popLast() {
                    sendNewFindings()
                    pendingEdges.append(ended)
                }
            }
        }
        lifetimesEnded += 1
        allowancesUsed.formUnion(current.allowancesApplied)
        if options.keepsLifetimes {
            if reports.count < options.lifetimeLimit { reports.append(report) } else { capped.lifetimes &+= 1 }
        }
        if let lifetimeEnded {
            let omitted = omittedViolations
            var since: [Rule: Int] = [:]
            for (rule, count) in omitted where count != omittedHandedOver[rule, default: 0] {
                since[rule] = count - omittedHandedOver[rule, default: 0]
            }
            lifetimeEnded(report, violations[violationsHandedOver...], since)
            violationsHandedOver = violations.count
            omittedHandedOver = omitted
        }
        stacks.removeAll()
        busy.reset()
        inLifetime = false
    }

    private func timeInStates(until end: Int64) -> StateTimes {
        if current.hasStateEvents {
            var times = current.systemTimes
            if let state = current.system { TraceTime.accumulate(&times[Int(state.rawValue)], end - current.systemSince) }
            let entries = LifecycleState.allCases.compactMap { state in
                times[Int(state.rawValue)] > 0 ? (state.name, times[Int(state.rawValue)]) : nil
            }
            return StateTimes(view: .system, durations: entries)
        }
        var times = current.appTimes
        if let state = current.effective { TraceTime.accumulate(&times[Int(state.rawValue)], end - current.appSince) }
        let entries = AppViewState.allCases.compactMap { state in
            times[Int(state.rawValue)] > 0 ? (state.name, times[Int(state.rawValue)]) : nil
        }
        return StateTimes(view: .app, durations: entries)
    }
}

extension LifecycleAnalyzer {
    /// Ends, as edges, everything of the lifetime still open at `end` (intervals innermost first
    /// per thread, then tasks, then states), sends the stalls that waited for the lifetime's end,
    /// and the lifetime's end itself.
    mutating func sendLifetimeEnd(_ report: LifetimeReport, at end: Int64, symbols: SymbolTable) {
        for slot in stacks.slots.indices {
            for interval in stacks.slots[slot].callbacks.reversed() where namedEdges(.callback, interval.name, symbols: symbols) {
                emit(.intervalEnded(interval.edge(.callback), at: end, how: .lifetimeEnded))
            }
            for interval in stacks.slots[slot].signposts.reversed() where signpostEdges(interval.name, symbols: symbols) {
                emit(.intervalEnded(interval.edge(.signpost), at: end, how: .lifetimeEnded))
            }
        }
        for task in current.openTasks.reversed() where namedEdges(.backgroundTask, task.name, symbols: symbols) {
            emit(.intervalEnded(task, at: end, how: .lifetimeEnded))
        }
        if !current.runLoopSeen {
            for stall in report.stalls { emit(.stall(stall, lifetime: report.index)) }
        }
        closeViews(at: end)
        if let window = report.launchWindow { emit(.launchWindowEnded(window)) }
        emit(.lifetimeEnded(report))
    }
}
