import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// One rule of a file at work on one trace: its scope's stretches and its pattern's state.
///
/// The rule is compiled once, when the monitor is made: its scope and pattern become small codes
/// and its selectors ``SelectorTest``s over the monitor's pattern ids, plain values that an
/// occurrence is tested against without copying the rule's enums, strings or name patterns. The
/// ``FileRule`` itself is read only to word a violation.
struct RuleCheck {
    let rule: FileRule
    /// The occurrence kinds the rule looks at (a bit per ``OccurrenceKind``).
    let kinds: UInt32
    /// The rule's scope and pattern, as codes.
    let scope: ScopeCode
    let pattern: PatternCode
    /// What `max-duration` measures (nil for the other patterns).
    let interval: IntervalCode?
    /// `max-duration`'s limit and `response`'s `within` (ns; nil without one), `max-count`'s limit.
    let limit: Int64
    let within: Int64?
    let countLimit: Int
    /// The scope's boundaries (`between`): `from`, and `to` when given.
    var from = SelectorTest.nothing
    var to: SelectorTest?
    /// The pattern's selectors in slot order: `never`, `require`, `max-count`'s and
    /// `precedence`'s `first` or `response`'s `after` in 0; `then` or `expect` in 1.
    var first = SelectorTest.nothing
    var second = SelectorTest.nothing
    /// `max-duration` of a named interval: the id of its name (-1: none).
    var intervalName: Int32 = -1
    /// How each violation's message begins (see ``message``), made once.
    let message: String
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
    /// Whether the rule judges the launch (its scope is `launch`, or it measures `launch`): its
    /// stretch or interval starts at the analyzer's launch moment.
    let judgesLaunch: Bool
    /// The lifetime's launch moment as the analyzer has it so far: its start, or the resume of a
    /// prewarmed launch (``RuleStep/launchTimed(from:settled:by:)``).
    var launchStart: Int64 = 0
    /// What the rule found while the launch moment of a prewarmed launch may still move: kept
    /// aside until it is settled (then reported) or moves (then dropped with the stretch that was
    /// the prewarm); nil otherwise. At most ``heldLimit`` in full, the rest counted.
    var held: RuleFindings?
    /// The ids in the monitor's ``NameIndex`` of the names of its selectors, per slot: 0 and 1
    /// the pattern's (or the `max-duration` interval's), 2 and 3 the scope's; 4 to 7 their scenes.
    var patternIDs = PatternSlots()
    /// A state scope's states, a bit per ``LifecycleState`` raw value (0 for other scopes).
    let scopeStates: UInt32
    /// The state a `max-duration` of `state NAME` watches.
    let watchedState: LifecycleState?

    /// The most intervals followed at once per rule (deeper nesting is not followed).
    static let intervalLimit = 256
    /// The most findings kept aside in full while a launch moment may move (``held``).
    static let heldLimit = 1024

    init(_ rule: FileRule) {
        self.rule = rule
        var kinds: UInt32 = 0
        for selector in rule.selectors { kinds |= selector.kinds }
        if case .between(let from, let to) = rule.scope { kinds |= from.kinds | (to?.kinds ?? 0) }
        if case .maxDuration(let interval, _) = rule.pattern { kinds |= interval.kinds }
        self.kinds = kinds
        switch rule.scope {
        case .lifetime: scope = .lifetime
        case .launch: scope = .launch
        case .states: scope = .states
        case .between: scope = .between
        }
        var limit: Int64 = 0
        var within: Int64?
        var countLimit = 0
        var interval: IntervalCode?
        switch rule.pattern {
        case .never: pattern = .never
        case .require: pattern = .require
        case .precedence: pattern = .precedence
        case .response(_, _, let time):
            pattern = .response
            within = time
        case .maxCount(_, let count):
            pattern = .maxCount
            countLimit = count
        case .maxDuration(let of, let time):
            pattern = .maxDuration
            limit = time
            switch of {
            case .callback: interval = .callback
            case .signpost: interval = .signpost
            case .bgtask: interval = .bgtask
            case .stall: interval = .stall
            case .launch: interval = .launch
            case .state: interval = .state
            }
        }
        self.limit = limit
        self.within = within
        self.countLimit = countLimit
        self.interval = interval
        judgesLaunch = scope == .launch || interval == .launch
        // Read once here rather than out of the rule's enums at each change of state.
        if case .states(let states) = rule.scope {
            scopeStates = states.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
        } else {
            scopeStates = 0
        }
        if case .maxDuration(.state(let watched), _) = rule.pattern { watchedState = watched } else { watchedState = nil }
        // How each violation's message begins: the team's sentence, or the rule's summary, with
        // where the rule is written when no `why` will say it.
        let text = rule.rule.definition?.message ?? rule.rule.summary
        if rule.rule.definition?.why == nil, let location = rule.rule.location {
            message = "\(text) (\(location))"
        } else {
            message = text
        }
    }

    /// Makes the selector tests, once the monitor has given the selectors' names their ids
    /// (``patternIDs``).
    mutating func compile() {
        let selectors = rule.selectors
        if selectors.count > 0 { first = SelectorTest(selectors[0], slot: 0, ids: patternIDs) }
        if selectors.count > 1 { second = SelectorTest(selectors[1], slot: 1, ids: patternIDs) }
        if case .between(let from, let to) = rule.scope {
            self.from = SelectorTest(from, slot: 2, ids: patternIDs)
            self.to = to.map { SelectorTest($0, slot: 3, ids: patternIDs) }
        }
        if pattern == .maxDuration { intervalName = patternIDs[0] }
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

/// A rule's scope, as a code.
enum ScopeCode: UInt8 {
    case lifetime, launch, states, between
}

/// A rule's pattern, as a code.
enum PatternCode: UInt8 {
    case never, require, precedence, response, maxDuration, maxCount
}

/// What a `max-duration` measures, as a code.
enum IntervalCode: UInt8 {
    case callback, signpost, bgtask, stall, launch, state
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

/// A ``Selector`` compiled for matching: its kinds, state and thread as plain values, its name
/// and scene as pattern ids of the monitor's ``NameIndex``. Holds no reference, so testing an
/// occurrence copies and counts nothing.
struct SelectorTest {
    /// The occurrence kinds it takes (0: none, the test of a slot without a selector).
    var kinds: UInt32
    /// The state it takes (`state NAME`); nil: any.
    var state: LifecycleState?
    /// 0: any thread; 1: the main thread; 2: another.
    var thread: UInt8
    /// The id of its name's pattern; nil: any name.
    var name: Int32?
    /// The id of its scene's pattern; nil: any scene, or none.
    var scene: Int32?

    /// The test nothing passes.
    static let nothing = SelectorTest(kinds: 0, state: nil, thread: 0, name: nil, scene: nil)

    /// `selector` in `slot` of a rule whose pattern ids are `ids`.
    init(_ selector: Selector, slot: Int, ids: PatternSlots) {
        kinds = selector.kinds
        state = selector.state
        switch selector.thread {
        case nil: thread = 0
        case .main: thread = 1
        case .other: thread = 2
        }
        name = selector.name == nil ? nil : ids[slot]
        scene = selector.scene == nil ? nil : ids[slot + 4]
    }

    private init(kinds: UInt32, state: LifecycleState?, thread: UInt8, name: Int32?, scene: Int32?) {
        self.kinds = kinds
        self.state = state
        self.thread = thread
        self.name = name
        self.scene = scene
    }

    /// Whether `occurrence` matches.
    @inline(__always)
    func matches(_ occurrence: Occurrence) -> Bool {
        guard kinds & occurrence.kind.bit != 0 else { return false }
        if let state, occurrence.state != state { return false }
        if thread != 0, occurrence.thread.isMain != (thread == 1) { return false }
        if let name, !occurrence.names.contains(name) { return false }
        if let scene {
            guard !occurrence.scene.isNone, occurrence.scenes.contains(scene) else { return false }
        }
        return true
    }
}
