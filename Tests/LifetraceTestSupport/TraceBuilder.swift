import LifetraceAnalysis
import LifetraceFormat

/// Builds traces in code, in milliseconds, for tests that need events the samples do not have.
package struct TraceBuilder {
    package var symbols = SymbolTable()
    package var events: [TraceEvent] = []

    /// An empty trace.
    package init() {}

    package static func ns(_ ms: Double) -> Int64 { Int64((ms * 1_000_000).rounded()) }

    package mutating func add(_ ms: Double, _ payload: EventPayload, thread: ThreadID = .main, stream: TraceStream? = nil) {
        events.append(TraceEvent(timestamp: Self.ns(ms), payload: payload, stream: stream, thread: thread))
    }

    package mutating func symbol(_ string: String?) -> Symbol { string.map { symbols.intern($0) } ?? .none }

    package mutating func launch(_ ms: Double, background: Bool = false, prewarm: Bool = false) {
        add(ms, .launch(reason: symbol("user"), background: background, prewarm: prewarm, pid: 42))
    }

    package mutating func state(_ ms: Double, _ to: LifecycleState, scene: String? = nil) {
        add(ms, .state(to: to, scene: symbol(scene)))
    }

    package mutating func begin(_ ms: Double, _ name: String, scene: String? = nil, thread: ThreadID = .main) {
        add(ms, .callbackBegin(name: symbol(name), scene: symbol(scene)), thread: thread)
    }

    package mutating func end(_ ms: Double, _ name: String, scene: String? = nil, thread: ThreadID = .main) {
        add(ms, .callbackEnd(name: symbol(name), scene: symbol(scene)), thread: thread)
    }

    /// A begin and its end `duration` ms later.
    package mutating func callback(
        _ ms: Double, _ name: String, duration: Double = 1, scene: String? = nil, thread: ThreadID = .main
    ) {
        begin(ms, name, scene: scene, thread: thread)
        end(ms + duration, name, scene: scene, thread: thread)
    }

    package mutating func wake(_ ms: Double, thread: ThreadID = .main) { add(ms, .runloopWake, thread: thread) }
    package mutating func sleep(_ ms: Double, thread: ThreadID = .main) { add(ms, .runloopSleep, thread: thread) }
    package mutating func mark(_ ms: Double, _ name: String) { add(ms, .mark(name: symbol(name))) }
    package mutating func frame(_ ms: Double) { add(ms, .frame(first: nil)) }

    package mutating func signpostBegin(_ ms: Double, _ name: String, id: Int64? = nil, thread: ThreadID = .main) {
        add(ms, .signpostBegin(name: symbol(name), id: id), thread: thread)
    }

    package mutating func signpostEnd(_ ms: Double, _ name: String, id: Int64? = nil, thread: ThreadID = .main) {
        add(ms, .signpostEnd(name: symbol(name), id: id), thread: thread)
    }

    package mutating func taskBegin(_ ms: Double, id: Int64) { add(ms, .bgtaskBegin(id: id, name: .none)) }
    package mutating func taskEnd(_ ms: Double, id: Int64) { add(ms, .bgtaskEnd(id: id, name: .none)) }
    package mutating func taskExpire(_ ms: Double, id: Int64) { add(ms, .bgtaskExpire(id: id, name: .none)) }
    package mutating func exit(_ ms: Double, code: Int32? = nil, signal: Int32? = nil) {
        add(ms, .exit(code: code, signal: signal))
    }

    /// A foreground launch through its first frame at +80 ms; with `states`, `state` events too.
    package mutating func foregroundLaunch(states: Bool = true) {
        launch(0)
        callback(1, "willFinishLaunching", duration: 5)
        callback(10, "didFinishLaunching", duration: 40)
        if states { state(60, .active) }
        callback(60, "didBecomeActive", duration: 2)
        frame(80)
    }

    /// Active to Background at `ms`, through Inactive.
    package mutating func toBackground(_ ms: Double, states: Bool = true) {
        if states { state(ms, .inactive) }
        callback(ms, "willResignActive")
        if states { state(ms + 5, .background) }
        callback(ms + 5, "didEnterBackground", duration: 3)
    }

    package func analyze(_ options: AnalysisOptions = AnalysisOptions()) -> TraceAnalysis {
        LifecycleAnalyzer.analyze(events, symbols: symbols, options: options)
    }

    /// The ids of the rules the trace violates.
    package func rules(_ options: AnalysisOptions = AnalysisOptions()) -> Set<String> {
        Set(analyze(options).violations.map(\.rule.id))
    }
}
