import LifecycleModel
import LifetraceFormat

extension LifecycleAnalyzer {
    /// An `exit`: closes everything at the exit, checks the end-of-lifetime rules, and records
    /// how the lifetime ended.
    mutating func endLifetime(exit event: TraceEvent, code: Int32?, signal: Int32?, symbols: SymbolTable) {
        let end = event.timestamp
        let killed = signal != nil
        if !killed { reportOpenIntervals(at: event, symbols: symbols) }
        let state = endState
        if current.willTerminateBegin == nil, let state, state == .inactive || state == .active {
            let witness = current.hasStateEvents ? current.systemChange : current.effectiveChange
            report(
                .unexpectedExit, at: end,
                "The process \(killed ? "was killed by signal \(signal!)" : "exited") at \(when(end)) while "
                    + "the app was \(state.name), without willTerminate; expected a foreground app to "
                    + "keep running, or to move to Background and be terminated from there (a crash or "
                    + "a watchdog kill ends like this).",
                witnesses: [witness, event], symbols: symbols)
        }
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

    /// Ends the lifetime with no `exit`: the trace ended, or a new `launch` came. Nothing open is
    /// a violation then (the recording may simply have stopped); it is reported as facts.
    mutating func endLifetimeWithoutExit(_ kind: LifetimeEnd.Kind, symbols: SymbolTable) {
        closeLifetime(kind: kind, at: current.lastTimestamp, exit: nil, code: nil, signal: nil, symbols: symbols)
    }

    /// The state the end is judged in: the system view (the state before a final move to
    /// notRunning) or, with no `state` events, the effective app view.
    private var endState: LifecycleState? {
        guard let state = current.trustedState else { return nil }
        if state == .notRunning { return current.systemBeforeNotRunning }
        return state
    }

    /// `callback-nesting` for every begin still open at a normal end.
    private mutating func reportOpenIntervals(at exit: TraceEvent, symbols: SymbolTable) {
        for interval in stacks.allOpen {
            report(
                .callbackNesting, at: exit.timestamp,
                "\(describe(interval.begin, symbols: symbols)) began at \(when(interval.begin.timestamp)) on "
                    + "thread \(interval.begin.thread) and had not ended when the process exited at "
                    + "\(when(exit.timestamp)); expected every begin to end before a normal exit.",
                witnesses: [interval.begin, exit], symbols: symbols)
        }
    }

    private mutating func closeLifetime(
        kind: LifetimeEnd.Kind, at end: Int64, exit: TraceEvent?, code: Int32?, signal: Int32?, symbols: SymbolTable
    ) {
        let unfinishedBusySince = busy.start
        closeBusy(at: end, unfinished: true, symbols: symbols)
        let system = current.systemStretch.stop()
        closeStretch(system, view: .system, end: end, endEvent: exit, symbols: symbols)
        let app = current.appStretch.stop()
        closeStretch(app, view: .app, end: current.lastAppActivity, endEvent: exit, symbols: symbols)
        let launch = checkLaunch(end: end, exit: exit, symbols: symbols)
        if options.rules.contains(.backgroundTime) {
            violations += current.hasStateEvents ? current.systemStretch.findings : current.appStretch.findings
        }
        let facts = endingFacts(kind: kind, at: end, code: code, signal: signal, busySince: unfinishedBusySince, symbols: symbols)
        let report = LifetimeReport(
            index: current.index, launch: launch, stalls: current.stalls.map(\.stall),
            busySource: current.runLoopSeen ? .runLoop : (current.mainCallbacksSeen ? .callbacks : .none),
            timeInStates: timeInStates(until: end),
            end: LifetimeEnd(
                kind: kind, timestamp: end, sinceLaunch: current.launchTime.map { end - $0 }, code: code,
                signal: signal, facts: facts),
            droppedEvents: current.dropped, eventCount: current.eventCount)
        lifetimesEnded += 1
        if options.keepsLifetimes { reports.append(report) }
        if let lifetimeEnded {
            lifetimeEnded(report, violations[violationsHandedOver...])
            violationsHandedOver = violations.count
        }
        stacks.removeAll()
        busy.reset()
        inLifetime = false
    }

    private func timeInStates(until end: Int64) -> StateTimes {
        if current.hasStateEvents {
            var times = current.systemTimes
            if let state = current.system { times[Int(state.rawValue)] += end - current.systemSince }
            let entries = LifecycleState.allCases.compactMap { state in
                times[Int(state.rawValue)] > 0 ? (state.name, times[Int(state.rawValue)]) : nil
            }
            return StateTimes(view: .system, durations: entries)
        }
        var times = current.appTimes
        if let state = current.effective { times[Int(state.rawValue)] += end - current.appSince }
        let entries = AppViewState.allCases.compactMap { state in
            times[Int(state.rawValue)] > 0 ? (state.name, times[Int(state.rawValue)]) : nil
        }
        return StateTimes(view: .app, durations: entries)
    }
}
