import LifecycleModel
import LifetraceFormat

/// Checks rules beyond the built-in ones (a team's rule files) on the analyzer's own stream of
/// ``LifecycleEdge``s, in the same pass.
///
/// The analyzer owns one monitor per trace (``UserRules/makeMonitor``). After each event it
/// replays, it hands the monitor the edges that event revealed, and at each lifetime's end the
/// edges that close it, before the lifetime's report is handed over; it turns what the monitor
/// finds into violations exactly like its own: with the lifetime, the time since launch, the
/// witnesses, and the violation limit. Served alone (no sink takes the edges, as in `check`),
/// the analyzer makes only the edges a rule can use: no busy intervals, no findings, and frames
/// after the first, callbacks, signposts, marks and background tasks only under names some rule
/// looks at. A monitor is a class: the analyzer calls it through a reference, never copying or
/// boxing its state.
public protocol RuleMonitor: AnyObject {
    /// Whether a rule looks at frames after a lifetime's first (``EdgePoint/Kind/frame``).
    var looksAtFrames: Bool { get }

    /// Whether a rule looks at `kind` named `name` (their begins, ends, expiries, instants).
    /// Asked once per kind, name and trace; what no rule names makes no edge for the monitor.
    func looks(at kind: NamedKind, named name: Symbol, symbols: SymbolTable) -> Bool

    /// Takes in the edges of one event, in the order derived, and adds what they break to
    /// `findings`. `cause` is the event whose replay derived them (the begin or end of an
    /// interval, what moved a state); the edges that end a lifetime come in one call of their
    /// own, where `cause` is whatever event ended it (or the trace's last).
    func take(_ edges: ArraySlice<LifecycleEdge>, cause: TraceEvent, symbols: SymbolTable, findings: inout RuleFindings)
}

/// The kinds of named things a ``RuleMonitor`` is asked about, name by name.
public enum NamedKind: Int, CaseIterable, Sendable {
    /// Callbacks (``EdgeInterval/Kind/callback``, and their ends without a begin).
    case callback
    /// Signposts (``EdgeInterval/Kind/signpost``, and their ends without a begin).
    case signpost
    /// Marks (``EdgePoint/Kind/mark``).
    case mark
    /// Background tasks (``EdgeInterval/Kind/backgroundTask``, their expiries, their ends
    /// without a begin).
    case backgroundTask
}

/// A rule broken, as a ``RuleMonitor`` reports it to the analyzer.
public struct RuleFinding {
    /// The rule.
    public var rule: Rule
    /// When (ns on the trace's clock).
    public var timestamp: Int64
    /// What happened and what was expected.
    public var message: String
    /// The witness events, in time order.
    public var witnesses: [TraceEvent]
    /// How far past its rule's limit (ns): a stall's duration less the threshold, a callback's
    /// or a launch's time less its limit; nil for a rule without a duration limit.
    public var overrun: Int64? = nil
}

/// What a ``RuleMonitor`` found while taking in the edges of one event.
public struct RuleFindings {
    /// The findings, in the order found.
    public private(set) var items: [RuleFinding] = []
    /// The findings past ``limit``, counted by rule (recorded as violations counted, not kept).
    public private(set) var counted: [Rule: Int] = [:]
    /// Whether the analysis keeps no more violations in full: a finding is then only counted,
    /// so `message` is never built.
    public let onlyCounted: Bool
    /// The most findings kept in ``items``; past it a finding is only counted.
    public let limit: Int
    /// The model's allowances that excused what would otherwise have been findings (a long
    /// stretch in Background under a continuous background mode): the lifetime lists them as
    /// applied.
    public var allowances = AllowanceSet.none

    /// No findings yet; `onlyCounted` as the analysis's (``onlyCounted``), at most `limit` kept
    /// in full (a monitor that keeps findings aside a while bounds them so).
    public init(onlyCounted: Bool, limit: Int = .max) {
        self.onlyCounted = onlyCounted
        self.limit = max(0, limit)
    }

    /// Adds a finding; `message` is built only when the violation will be kept in full.
    public mutating func add(
        _ rule: Rule, at timestamp: Int64, witnesses: [TraceEvent], overrun: Int64? = nil, message: () -> String
    ) {
        guard items.count < limit else {
            counted[rule, default: 0] += 1
            return
        }
        items.append(RuleFinding(
            rule: rule, timestamp: timestamp, message: onlyCounted ? "" : message(), witnesses: witnesses, overrun: overrun))
    }

    /// Adds `other`'s findings and counts after these (past ``limit``, counted).
    public mutating func append(contentsOf other: RuleFindings) {
        for item in other.items {
            if items.count < limit { items.append(item) } else { counted[item.rule, default: 0] += 1 }
        }
        for (rule, count) in other.counted { counted[rule, default: 0] += count }
        allowances.formUnion(other.allowances)
    }
}

/// The rules of rule files an analysis checks besides the built-in ones, and how to check them.
public struct UserRules: Sendable, Hashable {
    /// Every rule of the files, in the order given (those turned off included).
    public let rules: [Rule]
    /// The rules checked (after `--only` and `--disable`).
    public let enabled: Set<Rule>
    /// A fresh monitor for one trace.
    public let makeMonitor: @Sendable () -> any RuleMonitor

    /// Rules and their checker.
    public init(rules: [Rule], enabled: Set<Rule>, makeMonitor: @escaping @Sendable () -> any RuleMonitor) {
        self.rules = rules
        self.enabled = enabled
        self.makeMonitor = makeMonitor
    }

    public static func == (lhs: UserRules, rhs: UserRules) -> Bool {
        lhs.rules == rhs.rules && lhs.enabled == rhs.enabled
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rules) }
}
