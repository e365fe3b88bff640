import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// The engine of the built-in rules: each rule is a monitor that declares the kinds of
/// ``RuleEdge`` it looks at and reports what it finds through ``RuleFindings``, exactly as a rule
/// file's rules do; the analyzer records both kinds of finding the same way
/// (``LifecycleAnalyzer/record(_:symbols:)``). A threshold rule (`launch-stall`, `hang`,
/// `background-callback`, ...) looks at what the analyzer derived (an interval that ended, the
/// lifetime's stalls and launch window, its exit); an ordering rule (`legal-transition`,
/// `callback-nesting`, ...) looks at the verdicts the model's machines give against an event,
/// which the analyzer hands on as verdict edges, and turns them into the violation and its message.
///
/// The monitors are listed once, in ``BuiltInRule/monitors``. The analyzer asks which
/// edge kinds the monitors of the rules that are on look at, once per trace, and builds an edge
/// only then: a rule switched off costs nothing. Adding a threshold rule is a case, a spec and its
/// monitor's entry in `BuiltInRule.swift`, and a monitor here (CONTRIBUTING.md, "Add a built-in
/// threshold rule").
protocol BuiltInMonitor: Sendable {
    /// The rule the monitor judges.
    static var rule: BuiltInRule { get }

    /// The kinds of edge the monitor looks at; it is handed no other.
    static var edges: RuleEdge.Kinds { get }

    /// Judges `edge` (one of the kinds of ``edges``) and adds what breaks the rule to `findings`,
    /// with a message closure that is only run when the violation is kept.
    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings)
}

/// The options of one analysis, held once and shared by every ``MonitorContext``: a context is made
/// for each edge (every callback that ends), and a copy of the options in each would retain and
/// release every reference they hold, each time.
final class SharedAnalysisOptions {
    let options: AnalysisOptions

    init(_ options: AnalysisOptions) { self.options = options }
}

/// What a built-in rule's monitor reads besides the edges it judges: the limits in force, and the
/// lifetime's clock and the trace's symbols for its messages.
struct MonitorContext {
    /// The limits and rules in force, held once per analysis (``BuiltInMonitorTable/shared``).
    let shared: SharedAnalysisOptions
    /// The current lifetime's launch; nil without one.
    let launch: Int64?
    /// The trace's first event, from which messages count their moments (``TraceClock``).
    let origin: Int64?
    /// The trace's symbols.
    let symbols: SymbolTable
    /// The model's background execution sequence, which says what excuses a long stretch in Background.
    let background: BackgroundExecutionSequence

    /// The limits and rules in force.
    var options: AnalysisOptions { shared.options }

    /// The moment `timestamp`, `+1.234 s` since the trace's first event, as every message writes it.
    func when(_ timestamp: Int64) -> String { LifecycleAnalyzer.when(timestamp, origin: origin) }

    /// A duration as messages write it: `451 ms`, `5.000 s`.
    func duration(_ nanoseconds: Int64) -> String { DurationFormat.fixed.string(nanoseconds) }

    /// A duration past its limit, and the limit, as messages write them: the limit as it was given
    /// (`20 s`, `1.5 s`) and the value never reading as the limit it passed (`5.000 s` over `5 s`
    /// reads `5.0004 s`), ``DurationFormat/strings(limit:value:)``.
    func durations(_ value: Int64, over limit: Int64) -> (value: String, limit: String) {
        let written = DurationFormat.fixed.strings(limit: limit, value: value)
        return (written.value, written.limit)
    }

    /// A callback's name with its scene: `sceneDidEnterBackground (scene "main")`.
    func callbackText(_ name: Symbol, scene: Symbol) -> String {
        LifecycleAnalyzer.callbackText(name, scene: scene, symbols: symbols)
    }

    /// `callback didEnterBackground`, `signpost "load"`, `frame`: an event as messages name it.
    func describe(_ event: TraceEvent) -> String { LifecycleAnalyzer.describe(event, symbols: symbols) }
}

extension LifecycleAnalyzer {
    /// The context the built-in rules' monitors judge in, now.
    func monitorContext(symbols: SymbolTable) -> MonitorContext {
        MonitorContext(
            shared: builtInMonitors.shared, launch: inLifetime ? current.windowStart : nil, origin: traceOrigin, symbols: symbols,
            background: background)
    }

    /// Hands `edge` to the monitors of the rules that are on that look at its kind, and records
    /// what they found. Call it only when ``monitoredEdges`` holds the edge's kind, so that an
    /// edge no monitor looks at is never built.
    mutating func judge(_ edge: RuleEdge, symbols: SymbolTable) {
        var findings = RuleFindings(onlyCounted: found.isFull)
        judge(edge, into: &findings, symbols: symbols)
        record(findings, symbols: symbols)
    }

    /// Hands `edge` to the monitors of the rules that are on that look at its kind, in the rules'
    /// table order, adding what they find to `findings`; the allowances that excused what they
    /// would have found are applied to the lifetime.
    mutating func judge(_ edge: RuleEdge, into findings: inout RuleFindings, symbols: SymbolTable) {
        let context = monitorContext(symbols: symbols)
        for monitor in builtInMonitors.monitors(lookingAt: edge.kind) {
            monitor.judge(edge, context: context, findings: &findings)
        }
        current.allowancesApplied.formUnion(findings.allowances)
    }

    /// Records what a monitor found, a built-in rule's or a rule file's, as violations
    /// like the model's own: with the lifetime, its moment, the witnesses, and the
    /// violation limit (past it a finding is only counted). A built-in rule switched off is not
    /// recorded.
    mutating func record(_ findings: RuleFindings, symbols: SymbolTable) {
        for finding in findings.items where finding.rule.builtIn == nil || options.rules.contains(finding.rule) {
            if found.isFull {
                found.count(finding.rule)
            } else {
                found.append(
                    makeViolation(
                        finding.rule, at: finding.timestamp, finding.message, witnesses: finding.witnesses, symbols: symbols,
                        overrun: finding.overrun))
            }
        }
        for (rule, times) in findings.counted where rule.builtIn == nil || options.rules.contains(rule) {
            found.count(rule, times: times)
        }
    }
}
