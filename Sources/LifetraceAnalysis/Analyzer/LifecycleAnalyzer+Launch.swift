import LifecycleModel
import LifetraceFormat

extension LifecycleAnalyzer {
    /// Closes the launch window at the lifetime's end, hands it and the lifetime's stalls to the
    /// threshold monitors that judge them, and returns the launch report.
    mutating func checkLaunch(end: Int64, exit: TraceEvent?, symbols: SymbolTable) -> LaunchReport {
        var milestones = LaunchMilestones()
        // The window starts at the launch, or at the resume of a prewarmed launch; what happened
        // before the resume was the prewarm, reported apart.
        let launch = current.windowStart
        func since(_ time: Int64?) -> Int64? {
            guard let time, let launch, time >= launch || current.resumeTime == nil else { return nil }
            return time - launch
        }
        milestones.willFinishLaunching = since(current.willFinishBegin)
        milestones.didFinishLaunchingEnd = since(current.didFinishEnd)
        milestones.firstActive = since(current.firstActiveEnd)
        milestones.firstFrame = since(current.firstFrame)

        let windowEnd: LaunchWindowEnd
        let windowTime: Int64?
        let windowEvent: TraceEvent?
        let busyInWindow: Int64
        if let abandoned = current.abandonedAt {
            // The user left before the first activation: the launch never finished, and its length
            // says nothing about the app.
            windowTime = nil
            windowEnd = .open
            windowEvent = nil
            busyInWindow = min(current.busyToFirstActiveEnd, abandoned - (launch ?? abandoned))
        } else if current.kind == .background {
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
        var launchReport = LaunchReport(
            timestamp: launch, kind: current.kind, reason: symbols.string(current.reason), pid: current.pid,
            windowEnd: windowEnd, duration: since(windowTime), milestones: milestones,
            busyInWindow: launch == nil ? 0 : busyInWindow, inferred: current.launchInferred)
        launchReport.abandonedAfter = since(current.abandonedAt)
        launchReport.neverOpened = current.launchKind.neverOpened
        if let resume = current.resumeTime, let start = current.launchTime {
            launchReport.prewarm = PrewarmReport(
                start: start, resume: resume, resumeFoundBy: current.resumeFromState ? .state : .pause,
                busy: current.prewarmBusy)
        }
        judgeStallsPastLimit(hasLaunch: launch != nil && current.launchWitnessEvent != nil)
        guard let launch, let launchEvent = current.launchWitnessEvent else {
            judgeStalls(window: nil, symbols: symbols)
            return launchReport
        }

        let windowDescription: String
        switch windowEnd {
        case .firstFrame: windowDescription = "the first frame"
        case .firstActive: windowDescription = "the end of the first didBecomeActive"
        case .didFinishLaunching: windowDescription = "the end of didFinishLaunching"
        case .open: windowDescription = "the end of the lifetime, still launching"
        }
        let launchEnd = windowTime ?? current.abandonedAt ?? end
        // The recorder started after the launch callbacks (`late-recording`): where the launch
        // ended is not in the trace (its first frame may have come before the recording), so its
        // length is unknown and neither the watchdog nor the launch stalls judge it.
        let unknownBy = recording.launchWindowUnknown(
            launch: launch, hasLaunchEvent: current.launchEvent != nil, resumed: current.resumeTime != nil,
            launchCallbacksSeen: current.willFinishBegin != nil || current.didFinishEnd != nil,
            firstAppActivity: current.firstAppActivity)
        // A prewarmed process the user never opened (`prewarm-resume`) had no launch in front of the
        // user: no window to judge either.
        let windowUnknown = unknownBy != nil || current.launchKind.neverOpened
        if let unknownBy { current.allowancesApplied.insert(unknownBy) }
        let window = JudgedLaunchWindow(
            start: launch, end: launchEnd, description: windowDescription, launchEvent: launchEvent, unknown: windowUnknown,
            closed: windowTime != nil, windowEvent: windowEvent, abandoned: current.abandonedAt != nil,
            resumed: current.resumeTime != nil, inferred: current.launchInferred, kind: current.kind)
        if monitoredEdges.contains(.launchWindowEnded) {
            judge(.launchWindowEnded(LaunchWindowEnded(window: window, exit: exit)), symbols: symbols)
        }
        judgeStalls(window: window, symbols: symbols)
        return launchReport
    }

    /// Whether `exit` is a kill without notice (``TerminationSequence/isKill(code:signal:)``).
    static func isKill(_ exit: TraceEvent) -> Bool {
        guard case .exit(let code, let signal) = exit.payload else { return false }
        return TerminationSequence.isKill(code: code, signal: signal)
    }

    /// Hands the lifetime's stalls, and its launch window (nil without a launch), to the monitors
    /// that judge them (`launch-stall`, `hang`).
    private mutating func judgeStalls(window: JudgedLaunchWindow?, symbols: SymbolTable) {
        guard monitoredEdges.contains(.lifetimeStalls) else { return }
        // Before the resume of a prewarmed launch the main thread did the prewarm's work, off screen;
        // in a prewarmed process never opened, all of it.
        let prewarmEnd = current.launchKind.neverOpened ? .max : current.resumeTime ?? .min
        let stalls = LifetimeStalls(stalls: current.stalls, window: window, prewarmEnd: prewarmEnd)
        judge(.lifetimeStalls(stalls), symbols: symbols)
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
        if let allowancesFact { facts.append(allowancesFact) }
        if current.dropped > 0 {
            let atLeast = current.dropped == .max ? "at least " : ""
            facts.append("The recorder lost \(atLeast)\(current.dropped) events in this lifetime; conclusions may miss them.")
        }
        return facts
    }
}
