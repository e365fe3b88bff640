import LifecycleModel
import LifetraceFormat
import LifetraceOutput

extension LifecycleAnalyzer {
    /// Builds a violation without recording it (for findings kept aside until a lifetime ends).
    func makeViolation(
        _ rule: Rule, at timestamp: Int64, _ message: String, witnesses: [TraceEvent?], symbols: SymbolTable,
        overrun: Int64? = nil
    ) -> Violation {
        let launch = inLifetime ? current.windowStart : nil
        let since = launch.map { timestamp - $0 }
        var seen: Set<TraceEvent> = []
        let events = witnesses.compactMap { $0 }.filter { seen.insert($0).inserted }.map {
            EventSummary($0, symbols: symbols, launch: launch, origin: traceOrigin, chunks: chunkPositions)
        }
        return Violation(
            rule: rule, timestamp: timestamp, sinceLaunch: since, lifetime: current.index,
            message: message + (rule.reason.map { " Why: " + $0 } ?? ""), events: events,
            sinceStart: traceOrigin.map { TraceTime.elapsed(from: $0, to: timestamp) }, overrun: overrun)
    }

    /// The moment `timestamp`, `+1.234 s` since the trace's first event (``TraceClock``).
    func when(_ timestamp: Int64) -> String { Self.when(timestamp, origin: traceOrigin) }

    /// The moment `timestamp` on the clock of a trace whose first event is at `origin`, or the
    /// raw timestamp without one: how every message writes a moment (``TraceClock``).
    static func when(_ timestamp: Int64, origin: Int64?) -> String { TraceClock.moment(timestamp, origin: origin) }

    /// A callback's name with its scene, for messages: `sceneDidBecomeActive (scene "main")`.
    static func callbackText(_ name: Symbol, scene: Symbol, symbols: SymbolTable) -> String {
        let text = symbols.shown(name) ?? "(unnamed)"
        guard let scene = symbols.shown(scene) else { return text }
        return "\(text) (scene \"\(scene)\")"
    }

    /// A timestamp that goes backwards within its stream.
    @inline(__always)
    mutating func checkTimeOrder(_ event: TraceEvent, symbols: SymbolTable) {
        if event.stream == .app {
            if event.timestamp < previousAppEvent.timestamp {
                reportTimeOrder(event, previous: previousAppEvent, symbols: symbols)
            }
            previousAppEvent = event
        } else {
            if event.timestamp < previousSystemEvent.timestamp {
                reportTimeOrder(event, previous: previousSystemEvent, symbols: symbols)
            }
            previousSystemEvent = event
        }
    }

    @inline(never)
    private mutating func reportTimeOrder(_ event: TraceEvent, previous: TraceEvent, symbols: SymbolTable) {
        guard monitoredEdges.contains(.timeBackwards) else { return }
        judge(.timeBackwards(TimeBackwards(event: event, previous: previous)), symbols: symbols)
    }

    /// An app-side event while the app must be silent: Suspended, or past willTerminate.
    @inline(never)
    mutating func silenceBroken(_ event: TraceEvent, symbols: SymbolTable) {
        if current.system == .suspended {
            guard monitoredEdges.contains(.activeWhileSuspended) else { return }
            judge(.activeWhileSuspended(SilenceBroken(event: event, silencedBy: current.systemChange)), symbols: symbols)
        } else if let end = current.terminateEnd {
            guard monitoredEdges.contains(.activeAfterTerminate) else { return }
            judge(.activeAfterTerminate(SilenceBroken(event: event, silencedBy: end)), symbols: symbols)
        }
    }

    /// `callback didEnterBackground`, `signpost "load"`, `frame`, for messages.
    func describe(_ event: TraceEvent, symbols: SymbolTable) -> String { Self.describe(event, symbols: symbols) }

    /// `callback didEnterBackground`, `signpost "load"`, `frame`, for messages.
    static func describe(_ event: TraceEvent, symbols: SymbolTable) -> String {
        switch event.payload {
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
            return "callback \(callbackText(name, scene: scene, symbols: symbols))"
        case .signpostBegin(let name, _), .signpostEnd(let name, _), .mark(let name):
            return "\(event.type.name) \"\(symbols.shown(name) ?? "")\""
        case .bgtaskBegin(let id, _), .bgtaskEnd(let id, _), .bgtaskExpire(let id, _):
            return "\(event.type.name) (task \(id))"
        case .launch, .state, .runloopWake, .runloopSleep, .frame, .exit, .dropped:
            return event.type.name
        }
    }
}
