import LifecycleModel
import LifetraceFormat

/// What the analyzer tells a ``RuleMonitor`` as it replays a trace, in the order it learns it.
///
/// These are the derived facts the rules of rule files are judged on: the events themselves,
/// the effective state's changes, stalls, the launch window's end and each lifetime's end.
public enum RuleNotice {
    /// A lifetime began at `timestamp` (its launch, or its first event when it has none).
    case lifetimeBegan(at: Int64)
    /// The lifetime's effective state (the system view once it has `state` events, else the
    /// app view) became `state`; `event` moved it. Told before `event` itself.
    case stateChanged(to: LifecycleState, by: TraceEvent)
    /// An event, after the analyzer replayed it (run-loop and `dropped` events are not told).
    case event(TraceEvent)
    /// A main-thread stall of at least the stall threshold, told when its busy interval closes:
    /// it began at `start` with `opening` and lasted `duration` ns.
    case stall(start: Int64, duration: Int64, opening: TraceEvent)
    /// The launch window ended at `timestamp` (the first frame, the end of didFinishLaunching
    /// for a background launch, or, told at the lifetime's end when no frame came, the end of
    /// the first didBecomeActive).
    case launchWindowEnded(at: Int64)
    /// The lifetime ends at `timestamp`, in the way `kind` says (``LifetimeEnd/Kind/endOfTrace``
    /// when the trace simply stops). Told before the lifetime's report is handed over.
    case lifetimeEnding(at: Int64, kind: LifetimeEnd.Kind)
}

/// Checks rules beyond the built-in ones (a team's rule files) in the analyzer's own pass.
///
/// The analyzer owns one monitor per trace (``UserRules/makeMonitor``), tells it each
/// ``RuleNotice`` and turns what it finds into violations exactly like its own: with the
/// lifetime, the time since launch, the witnesses, and the violation limit. A monitor is a class:
/// the analyzer calls it through a reference, never copying or boxing its state.
public protocol RuleMonitor: AnyObject {
    /// The event types the monitor needs from the analyzer's short path, one bit per
    /// ``EventType`` raw value (frames after the first, main-thread signposts, run-loop events
    /// are never told); 0 keeps the short path free of any call.
    var shortPathTypes: UInt32 { get }

    /// Whether a rule looks at signposts named `name`. Asked once per name and trace; the
    /// signposts no rule names never reach ``notice(_:symbols:findings:)``.
    func looksAtSignpost(named name: Symbol, symbols: SymbolTable) -> Bool

    /// Takes in one notice and adds what it breaks to `findings`.
    func notice(_ notice: RuleNotice, symbols: SymbolTable, findings: inout RuleFindings)
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
}

/// What a ``RuleMonitor`` found while taking in one notice.
public struct RuleFindings {
    /// The findings, in the order found.
    public private(set) var items: [RuleFinding] = []
    /// Whether the analysis keeps no more violations in full: a finding is then only counted,
    /// so `message` is never built.
    public let onlyCounted: Bool

    init(onlyCounted: Bool) { self.onlyCounted = onlyCounted }

    /// Adds a finding; `message` is built only when the violation will be kept in full.
    public mutating func add(
        _ rule: Rule, at timestamp: Int64, witnesses: [TraceEvent], message: () -> String
    ) {
        items.append(RuleFinding(rule: rule, timestamp: timestamp, message: onlyCounted ? "" : message(), witnesses: witnesses))
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
