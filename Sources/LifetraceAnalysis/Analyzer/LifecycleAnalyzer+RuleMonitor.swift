import LifecycleModel
import LifetraceFormat

/// The analyzer's side of ``RuleMonitor``: what it tells the monitor and how findings become
/// violations. Every call site first checks that there is a monitor, so an analysis without
/// rule files pays one comparison per event at most.
extension LifecycleAnalyzer {
    /// Tells the monitor about `event` after its replay: first a change of the effective state,
    /// then the event, then the end of the launch window when the event ended it.
    @inline(never)
    mutating func noticeReplayed(_ event: TraceEvent, symbols: SymbolTable) {
        guard inLifetime else { return }
        let state = current.trustedState
        if let state, state != noticedState {
            noticedState = state
            notice(.stateChanged(to: state, by: event), symbols: symbols)
        }
        switch event.payload {
        case .signpostBegin(let name, _), .signpostEnd(let name, _):
            if monitorLooksAtSignpost(name, symbols: symbols) { notice(.event(event), symbols: symbols) }
        case .runloopWake, .runloopSleep:
            break
        default:
            notice(.event(event), symbols: symbols)
        }
        if !launchWindowNoticed, current.launchTime != nil {
            let end = current.kind == .background ? current.didFinishEnd : current.firstFrame
            if let end {
                launchWindowNoticed = true
                notice(.launchWindowEnded(at: end), symbols: symbols)
            }
        }
    }

    /// An event of the short path the monitor asked for: a frame, or a main-thread signpost whose
    /// name some rule looks at.
    @inline(never)
    mutating func noticeShortPath(_ event: TraceEvent, symbols: SymbolTable) {
        switch event.payload {
        case .signpostBegin(let name, _), .signpostEnd(let name, _):
            guard monitorLooksAtSignpost(name, symbols: symbols) else { return }
        default:
            break
        }
        notice(.event(event), symbols: symbols)
    }

    /// Whether the monitor looks at signposts named `name`, asked once per name.
    mutating func monitorLooksAtSignpost(_ name: Symbol, symbols: SymbolTable) -> Bool {
        let index = Int(name.rawValue)
        if index < monitorSignposts.count, monitorSignposts[index] != 0 { return monitorSignposts[index] == 1 }
        let answer = monitor!.looksAtSignpost(named: name, symbols: symbols)
        // Symbols are small dense numbers; past a million names the question is asked each time.
        if index < 1 << 20 {
            if index >= monitorSignposts.count {
                monitorSignposts += [UInt8](repeating: 0, count: index + 1 - monitorSignposts.count)
            }
            monitorSignposts[index] = answer ? 1 : 2
        }
        return answer
    }

    /// A new lifetime: its state starts unknown to the monitor.
    mutating func noticeLifetimeBegan(at timestamp: Int64, symbols: SymbolTable) {
        noticedState = nil
        launchWindowNoticed = false
        notice(.lifetimeBegan(at: timestamp), symbols: symbols)
    }

    /// The lifetime ends: the stalls found from callbacks become final (a lifetime without
    /// run-loop events), and a launch window never closed by a frame ends at the first activation.
    mutating func noticeLifetimeEnding(at end: Int64, kind: LifetimeEnd.Kind, symbols: SymbolTable) {
        if !current.runLoopSeen {
            for recorded in current.stalls where recorded.stall.duration >= options.stallThreshold {
                let stall = recorded.stall
                notice(.stall(start: stall.start, duration: stall.duration, opening: recorded.startEvent), symbols: symbols)
            }
        }
        if !launchWindowNoticed, current.launchTime != nil, let active = current.windowCallbackEnd {
            launchWindowNoticed = true
            notice(.launchWindowEnded(at: active), symbols: symbols)
        }
        notice(.lifetimeEnding(at: end, kind: kind), symbols: symbols)
    }

    /// Tells the monitor one notice and records what it found.
    mutating func notice(_ notice: RuleNotice, symbols: SymbolTable) {
        var findings = RuleFindings(onlyCounted: found.isFull)
        monitor?.notice(notice, symbols: symbols, findings: &findings)
        for finding in findings.items {
            if found.isFull {
                found.count(finding.rule)
            } else {
                found.append(
                    makeViolation(finding.rule, at: finding.timestamp, finding.message, witnesses: finding.witnesses, symbols: symbols))
            }
        }
    }
}
