import LifetraceAnalysis
import LifetraceFormat

/// Where a rule takes its input, and the launch moment of a prewarmed launch.
///
/// A rule that judges the launch (scope `launch`, or `max-duration` of `launch`) starts at the
/// analyzer's launch moment, the one every report counts from (docs/LIFECYCLE.md,
/// `prewarm-resume`): for a prewarmed launch the resume of the user's launch, not the prewarm. The
/// analyzer finds the resume as events come, and a later pause before the first move to the
/// foreground moves it, so until the moment is settled what such a rule finds is kept aside
/// (``RuleCheck/held``): reported once it is, dropped with the stretch when it moves.
extension RuleCheck {
    /// A step other than an occurrence.
    mutating func take(_ step: RuleStep, symbols: SymbolTable, findings: inout RuleFindings) {
        switch step {
        case .launchTimed(let start, let settled, let event):
            launchTimed(from: start, settled: settled, by: event, findings: &findings)
        case .lifetimeBegan:
            held = nil
            apply(step, symbols: symbols, findings: &findings)
        case .lifetimeEnded:
            // The launch moment is final when the lifetime ends.
            if var aside = held.take() {
                apply(step, symbols: symbols, findings: &aside)
                findings.append(contentsOf: aside)
            } else {
                apply(step, symbols: symbols, findings: &findings)
            }
        case .stateChanged, .launchWindowEnded:
            if var aside = held.take() {
                apply(step, symbols: symbols, findings: &aside)
                held = aside
            } else {
                apply(step, symbols: symbols, findings: &findings)
            }
        }
    }

    /// An occurrence.
    @inline(__always)
    mutating func take(_ occurrence: Occurrence, symbols: SymbolTable, findings: inout RuleFindings) {
        guard kinds & occurrence.kind.bit != 0 else { return }
        if held == nil {
            apply(occurrence, symbols: symbols, findings: &findings)
        } else {
            takeAside(occurrence, end: false, symbols: symbols)
        }
    }

    /// An interval that ended without an end event of its own: only `max-duration` takes it.
    mutating func takeIntervalEnd(_ occurrence: Occurrence, symbols: SymbolTable, findings: inout RuleFindings) {
        if held == nil {
            applyIntervalEnd(occurrence, symbols: symbols, findings: &findings)
        } else {
            takeAside(occurrence, end: true, symbols: symbols)
        }
    }

    /// An occurrence while the launch moment may move: what it breaks is kept aside.
    @inline(never)
    private mutating func takeAside(_ occurrence: Occurrence, end: Bool, symbols: SymbolTable) {
        guard var aside = held.take() else { return }
        if end {
            applyIntervalEnd(occurrence, symbols: symbols, findings: &aside)
        } else {
            apply(occurrence, symbols: symbols, findings: &aside)
        }
        held = aside
    }

    /// The launch of a prewarmed lifetime is timed from `start`, found at `event`. A moment that
    /// moved makes what came before it the prewarm: the launch stretch begun at the old moment is
    /// dropped unjudged, with what the rule found in it, and begins again here (unless the launch
    /// window had already closed: the window is then empty, as the analyzer has it), and so does
    /// a `max-duration` of `launch` still running.
    private mutating func launchTimed(from start: Int64, settled: Bool, by event: TraceEvent, findings: inout RuleFindings) {
        guard judgesLaunch else { return }
        if start != launchStart {
            launchStart = start
            if held != nil { held = RuleFindings(onlyCounted: findings.onlyCounted, limit: Self.heldLimit) }
            if scope == .launch {
                previous = nil
                intervals.removeAll()
                if open != nil { open = Stretch(start: start, startEvent: event) }
            }
            if interval == .launch, spanBegin != nil { spanBegin = (start, event) }
        }
        if settled {
            if let aside = held.take() { findings.append(contentsOf: aside) }
        } else if held == nil {
            held = RuleFindings(onlyCounted: findings.onlyCounted, limit: Self.heldLimit)
        }
    }
}
