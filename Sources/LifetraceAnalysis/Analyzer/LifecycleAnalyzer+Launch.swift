import LifecycleModel
import LifetraceFormat

extension LifecycleAnalyzer {
    /// Closes the launch window at the lifetime's end, checks `launch-watchdog`, `launch-stall`
    /// and `hang`, and returns the launch report.
    mutating func checkLaunch(end: Int64, exit: TraceEvent?, symbols: SymbolTable) -> LaunchReport {
        if current.launchInferred {
            // The app view tells the kind: Background before any activation is a background launch.
            current.kind = current.backgroundBeforeActive ? .background : .cold
        }
        var milestones = LaunchMilestones()
        let launch = current.launchTime
        func since(_ time: Int64?) -> Int64? { time.flatMap { t in launch.map { t - $0 } } }
        milestones.willFinishLaunching = since(current.willFinishBegin)
        milestones.didFinishLaunchingEnd = since(current.didFinishEnd)
        milestones.firstActive = since(current.firstActiveEnd)
        milestones.firstFrame = since(current.firstFrame)

        let windowEnd: LaunchWindowEnd
        let windowTime: Int64?
        let windowEvent: TraceEvent?
        let busyInWindow: Int64
        if current.kind == .background {
            windowTime = current.didFinishEnd
            windowEnd = windowTime == nil ? .open : .didFinishLaunching
            windowEvent = current.windowCallbackEvent
            busyInWindow = current.busyToDidFinishEnd
        } else if let frame = current.firstFrame {
            windowTime = frame
            windowEnd = .firstFrame
            windowEvent = current.firstFrameEvent
            busyInWindow = current.busyToFrame
        } else {
            windowTime = current.firstActiveEnd
            windowEnd = windowTime == nil ? .open : .firstActive
            windowEvent = current.windowCallbackEvent
            busyInWindow = current.busyToFirstActiveEnd
        }
        let launchReport = LaunchReport(
            timestamp: launch, kind: current.kind, reason: symbols.string(current.reason), pid: current.pid,
            windowEnd: windowEnd, duration: since(windowTime), milestones: milestones,
            busyInWindow: launch == nil ? 0 : busyInWindow, inferred: current.launchInferred)
        judgeStallsPastLimit(hasLaunch: launch != nil && current.launchWitnessEvent != nil)
        guard let launch, let launchEvent = current.launchWitnessEvent else {
            checkHangs(outside: nil, symbols: symbols)
            return launchReport
        }

        let limit = options.launchWatchdog
        let launchText = current.launchInferred ? "the first event (no launch event; launch inferred)" : "launch"
        let windowDescription: String
        switch windowEnd {
        case .firstFrame: windowDescription = "the first frame"
        case .firstActive: windowDescription = "the end of the first didBecomeActive"
        case .didFinishLaunching: windowDescription = "the end of didFinishLaunching"
        case .open: windowDescription = "the end of the lifetime, still launching"
        }
        let launchEnd = windowTime ?? end
        if launchEnd - launch > limit {
            report(
                .launchWatchdog, at: launch + limit,
                "The launch took \(DurationFormat.fixed.string(launchEnd - launch)), from \(launchText) to "
                    + "\(windowDescription) at \(when(launchEnd)); expected it within the watchdog "
                    + "limit of \(DurationFormat.fixed.string(limit)).",
                witnesses: [launchEvent, windowEvent ?? exit], symbols: symbols)
        }
        for recorded in current.stalls
        where recorded.stall.start >= launch && recorded.stall.start <= launchEnd
            && recorded.stall.duration >= options.stallThreshold
        {
            let stall = recorded.stall
            report(
                .launchStall, at: stall.start,
                stallOpening(stall) + ", inside the launch window (which ends at "
                    + "\(windowDescription))\(stallWork(stall)); expected no main-thread stall of "
                    + "\(DurationFormat.fixed.string(options.stallThreshold)) or more during launch.",
                witnesses: [launchEvent, recorded.startEvent], symbols: symbols)
        }
        // A window end before the launch (timestamps that go backwards) is an empty window.
        checkHangs(outside: launch...max(launch, launchEnd), symbols: symbols)
        return launchReport
    }

    /// `hang`: the stalls of at least the hang threshold that began outside the launch window
    /// while the app was in the foreground.
    private mutating func checkHangs(outside window: ClosedRange<Int64>?, symbols: SymbolTable) {
        guard options.rules.contains(.hang) else { return }
        for recorded in current.stalls
        where recorded.inForeground && recorded.stall.duration >= options.hangThreshold
            && !(window?.contains(recorded.stall.start) ?? false)
        {
            let stall = recorded.stall
            report(
                .hang, at: stall.start,
                stallOpening(stall) + ", after the launch, while the app was in the foreground"
                    + "\(stallWork(stall)); expected no main-thread stall of \(DurationFormat.fixed.string(options.hangThreshold)) "
                    + "or more while the app is on screen (it cannot respond to touches meanwhile).",
                witnesses: [recorded.startEvent], symbols: symbols)
        }
    }

    /// The facts behind a lifetime's ending, one sentence each.
    func endingFacts(
        kind: LifetimeEnd.Kind, at end: Int64, code: Int32?, signal: Int32?, busySince: Int64?, symbols: SymbolTable
    ) -> [String] {
        var facts: [String] = []
        if current.hasStateEvents, let state = current.system {
            let since = current.systemChange.map { when($0.timestamp) } ?? "the launch"
            facts.append("The system view was \(state.name) since \(since).")
            if state == .notRunning, let before = current.systemBeforeNotRunning {
                facts.append("Before not running, the system view was \(before.name).")
            }
        } else if let state = current.effective {
            let since = current.effectiveChange.map { "\(describe($0, symbols: symbols)) at \(when($0.timestamp))" }
            facts.append("No state events; the app view was \(state.name)\(since.map { " since \($0)" } ?? "").")
        } else {
            facts.append("The state of the app is unknown (no launch, state or lifecycle callback).")
        }
        if let begin = current.willTerminateBegin {
            let returned = current.terminateEnd.map { "returned at \(when($0.timestamp))" } ?? "never returned"
            facts.append("willTerminate began at \(when(begin.timestamp)) and \(returned).")
        } else {
            facts.append("No willTerminate was delivered.")
        }
        switch kind {
        case .relaunched:
            facts.append("No exit event; the next launch came after the last event at \(when(end)).")
        case .endOfTrace:
            facts.append("No exit event; the trace ends at \(when(end)).")
        default:
            if let signal {
                facts.append("The process was killed by signal \(signal) at \(when(end)).")
            } else if let code {
                facts.append("The process exited with code \(code) at \(when(end)).")
            } else {
                facts.append(
                    "The process ended at \(when(end)) without notice: the exit is inferred (no code or signal "
                        + "recorded), at the last event's time.")
            }
        }
        if let busySince {
            facts.append("The main thread had been busy since \(when(busySince)) and never went idle.")
        }
        let open = stacks.allOpen
        for interval in open.prefix(3) {
            facts.append("\(describe(interval.begin, symbols: symbols)) began at \(when(interval.begin.timestamp)) and never ended.")
        }
        if open.count > 3 { facts.append("\(open.count - 3) more callbacks or signposts never ended.") }
        if current.dropped > 0 {
            let atLeast = current.dropped == .max ? "at least " : ""
            facts.append("The recorder lost \(atLeast)\(current.dropped) events in this lifetime; conclusions may miss them.")
        }
        return facts
    }

    /// How a stall's violation begins: `The main thread was busy for 451 ms from +0.063 s`.
    private func stallOpening(_ stall: Stall) -> String {
        "The main thread was busy for \(DurationFormat.fixed.string(stall.duration))"
            + (stall.unfinished ? " (until the lifetime ended)" : "")
            + " from \(when(stall.start))"
    }

    /// The work a stall is blamed on, as a clause of its violation (empty when nothing is blamed).
    private func stallWork(_ stall: Stall) -> String {
        stall.workText.map { "; the work on the main thread during it was \($0)" } ?? ""
    }
}
