import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// One rule of a file at work on one trace: its scope's stretches and its pattern's state.
struct RuleCheck {
    let rule: FileRule
    /// The occurrence kinds the rule looks at (a bit per ``OccurrenceKind``).
    let kinds: UInt32
    /// The stretch open now.
    var open: Stretch?
    /// The stretch closed last in this lifetime, for a stall told after its end.
    var previous: Stretch?
    /// `max-duration`: the intervals begun in a stretch and not ended yet.
    var intervals: [OpenInterval] = []
    /// `max-duration` of `launch` or `state`: the begin of the one interval open.
    var spanBegin: (timestamp: Int64, event: TraceEvent?)?
    /// The lifetime's start.
    var lifetimeStart: Int64 = 0
    /// The trace's first event (the first lifetime's start), from which messages count their
    /// moments (`+1.234 s`, ``TraceClock``).
    var traceStart: Int64?
    /// Whether the lifetime's launch window is still open.
    var inLaunch = false
    /// The ids in the monitor's ``NameIndex`` of the names of its selectors, per slot: 0 and 1
    /// the pattern's (or the `max-duration` interval's), 2 and 3 the scope's; 4 to 7 their scenes.
    var patternIDs = PatternSlots()
    /// A state scope's states, a bit per ``LifecycleState`` raw value (0 for other scopes).
    let scopeStates: UInt32
    /// The state a `max-duration` of `state NAME` watches.
    let watchedState: LifecycleState?

    /// The most intervals followed at once per rule (deeper nesting is not followed).
    static let intervalLimit = 256

    init(_ rule: FileRule) {
        self.rule = rule
        var kinds: UInt32 = 0
        for selector in rule.selectors { kinds |= selector.kinds }
        if case .between(let from, let to) = rule.scope { kinds |= from.kinds | (to?.kinds ?? 0) }
        if case .maxDuration(let interval, _) = rule.pattern { kinds |= interval.kinds }
        self.kinds = kinds
        // Read once here rather than out of the rule's enums at each change of state.
        if case .states(let states) = rule.scope {
            scopeStates = states.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
        } else {
            scopeStates = 0
        }
        if case .maxDuration(.state(let watched), _) = rule.pattern { watchedState = watched } else { watchedState = nil }
    }

    /// How each violation's message begins: the team's sentence, or the rule's summary, with
    /// where the rule is written when no `why` will say it.
    var message: String {
        let text = rule.rule.definition?.message ?? rule.rule.summary
        guard rule.rule.definition?.why == nil, let location = rule.rule.location else { return text }
        return "\(text) (\(location))"
    }

    func when(_ timestamp: Int64) -> String { TraceClock.moment(timestamp, origin: traceStart ?? lifetimeStart) }

    /// The stretch, in words: `the active stretch from +1.000 s`.
    func stretchText(_ stretch: Stretch) -> String {
        switch rule.scope {
        case .lifetime: return "the lifetime from \(when(stretch.start))"
        case .launch: return "the launch window from \(when(stretch.start))"
        case .between(let from, _): return "the stretch from \(from) at \(when(stretch.start))"
        case .states: return "the \(rule.scope.text) stretch from \(when(stretch.start))"
        }
    }
}

extension FileRule {
    /// The selectors of the pattern, in slot order.
    var selectors: [Selector] {
        switch pattern {
        case .never(let selector), .require(let selector), .maxCount(let selector, _): [selector]
        case .precedence(let first, let then): [first, then]
        case .response(let after, let expect, _): [after, expect]
        case .maxDuration: []
        }
    }
}

extension RuleInterval {
    /// The occurrence kinds that begin and end the interval.
    var kinds: UInt32 {
        switch self {
        case .callback: OccurrenceKind.callback.bit | OccurrenceKind.callbackEnd.bit
        case .signpost: OccurrenceKind.signpost.bit | OccurrenceKind.signpostEnd.bit
        case .bgtask: OccurrenceKind.bgtaskBegin.bit | OccurrenceKind.bgtaskEnd.bit
        case .stall: OccurrenceKind.stall.bit
        case .launch, .state: 0
        }
    }
}

/// A rule's pattern ids in the monitor's ``NameIndex``, per selector slot (-1: none).
struct PatternSlots {
    private var ids: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1, -1, -1, -1)

    subscript(slot: Int) -> Int32 {
        get { withUnsafeBytes(of: ids) { $0.load(fromByteOffset: slot * 4, as: Int32.self) } }
        set { withUnsafeMutableBytes(of: &ids) { $0.storeBytes(of: newValue, toByteOffset: slot * 4, as: Int32.self) } }
    }
}

extension Selector {
    /// Whether `occurrence` matches; `slot` picks the selector's pattern ids in `ids`.
    func matches(_ occurrence: Occurrence, slot: Int, ids: PatternSlots) -> Bool {
        guard kinds & occurrence.kind.bit != 0 else { return false }
        if let state, occurrence.state != state { return false }
        if let thread, occurrence.thread.isMain != (thread == .main) { return false }
        if name != nil, !occurrence.names.contains(ids[slot]) { return false }
        if scene != nil {
            guard !occurrence.scene.isNone, occurrence.scenes.contains(ids[slot + 4]) else { return false }
        }
        return true
    }
}
