import LifecycleModel
import LifetraceFormat

/// Replays a trace through a ``LifecycleAnalyzer`` and turns what the analyzer knows after each
/// event into timeline spans: state spans per view and scene, main-thread busy intervals, nested
/// callbacks and signposts, background tasks, marks and frames.
///
/// Spans go to a ``TimelineSink`` as they close, so memory is bounded by what is open (states,
/// the main thread's open intervals up to ``depthLimit``, open tasks), never by the number of
/// events. The analyzer's result is the same as without the timeline.
///
/// ```swift
/// var timeline = LifecycleTimeline(options: .init())
/// var range = TimelineRange()
/// while let event = try reader.next() { timeline.consume(event, symbols: reader.symbols, into: &range) }
/// let (violations, lifetimes) = timeline.finish(symbols: reader.symbols, into: &range)
/// ```
public struct LifecycleTimeline {
    /// The most nested main-thread callbacks (and, separately, signposts) followed; deeper
    /// begins are not drawn.
    public static let depthLimit = 32

    struct OpenState {
        var code: UInt8
        var since: Int64
    }

    struct OpenScene {
        var name: Symbol
        var state: OpenState?
    }

    struct OpenInterval {
        var name: Symbol
        var key: Int64
        var begin: Int64
    }

    /// The analyzer the events go through.
    public private(set) var analyzer: LifecycleAnalyzer
    var system: OpenState?
    var app: OpenState?
    var scenes: [OpenScene] = []
    var busyStart: Int64?
    var callbacks: [OpenInterval] = []
    var signposts: [OpenInterval] = []
    var tasks: [OpenInterval] = []
    var lastTimestamp: Int64?

    /// A timeline whose analyzer runs with `options`.
    public init(options: AnalysisOptions = AnalysisOptions()) {
        analyzer = LifecycleAnalyzer(options: options)
        callbacks.reserveCapacity(Self.depthLimit)
        signposts.reserveCapacity(Self.depthLimit)
    }

    /// Replays `event` and hands the spans it closes to `sink`.
    public mutating func consume<Sink: TimelineSink>(_ event: TraceEvent, symbols: SymbolTable, into sink: inout Sink) {
        let lifetimesBefore = analyzer.lifetimeCount
        let wasInLifetime = analyzer.inLifetime
        analyzer.consume(event, symbols: symbols)
        let time = event.timestamp
        lastTimestamp = max(lastTimestamp ?? time, time)
        if wasInLifetime && (analyzer.lifetimeCount != lifetimesBefore || !analyzer.inLifetime) {
            closeAll(at: time, into: &sink)
        }
        if analyzer.inLifetime { followStates(at: time, into: &sink) }
        followBusy(at: time, into: &sink)
        guard analyzer.inLifetime else { return }
        let main = event.thread.isMain
        switch event.payload {
        case .callbackBegin(let name, let scene) where main:
            Self.push(&callbacks, OpenInterval(name: name, key: Int64(scene.rawValue), begin: time))
        case .callbackEnd(let name, let scene) where main:
            Self.pop(&callbacks, name: name, key: Int64(scene.rawValue), at: time, into: &sink) { .callback(depth: $0) }
        case .signpostBegin(let name, let id) where main:
            Self.push(&signposts, OpenInterval(name: name, key: id ?? .min, begin: time))
        case .signpostEnd(let name, let id) where main:
            Self.pop(&signposts, name: name, key: id ?? .min, at: time, into: &sink) { .signpost(depth: $0) }
        case .bgtaskBegin(let id, let name):
            if tasks.count < Self.depthLimit { tasks.append(OpenInterval(name: name, key: id, begin: time)) }
        case .bgtaskEnd(let id, _), .bgtaskExpire(let id, _):
            if let index = tasks.firstIndex(where: { $0.key == id }) {
                let task = tasks.remove(at: index)
                sink.record(TimelineSpan(lane: .backgroundTask, start: task.begin, end: time, name: task.name))
            }
        case .mark(let name) where event.stream == .app:
            sink.record(TimelineSpan(lane: .mark, start: time, end: time, name: name))
        case .frame where event.stream == .app:
            sink.record(TimelineSpan(lane: .frame, start: time, end: time))
        default:
            break
        }
    }

    /// Closes every open span at the last event and returns the analyzer's result.
    public mutating func finish<Sink: TimelineSink>(
        symbols: SymbolTable, into sink: inout Sink
    ) -> (violations: [Violation], lifetimes: [LifetimeReport]) {
        let end = analyzer.inLifetime ? analyzer.current.lastTimestamp : (lastTimestamp ?? 0)
        let result = analyzer.finish(symbols: symbols)
        followBusy(at: end, into: &sink)
        closeAll(at: end, into: &sink)
        return result
    }

    /// Replays every event of `source` into `sink` and returns the analysis.
    @inlinable
    public static func analyze<Source: TraceEventSource, Sink: TimelineSink>(
        _ source: inout Source, path: String, options: AnalysisOptions, into sink: inout Sink
    ) throws(TraceError) -> TraceAnalysis {
        var timeline = LifecycleTimeline(options: options)
        while let event = try source.next() {
            timeline.consume(event, symbols: source.symbols, into: &sink)
        }
        let (violations, lifetimes) = timeline.finish(symbols: source.symbols, into: &sink)
        return TraceAnalysis(
            path: path, metadata: source.metadata, eventCount: timeline.analyzer.eventCount,
            violations: violations, omittedViolations: timeline.analyzer.omittedViolations,
            violationLimit: options.violationLimit, lifetimes: lifetimes,
            lifetimeCount: timeline.analyzer.lifetimesEnded, issues: source.issues)
    }

    /// Opens and closes state spans where the analyzer's views changed.
    private mutating func followStates<Sink: TimelineSink>(at time: Int64, into sink: inout Sink) {
        // Read the analyzer's state in place: copying the lifetime would retain its arrays per event.
        Self.follow(&system, code: analyzer.current.system?.rawValue, lane: .systemState, at: time, into: &sink)
        Self.follow(&app, code: analyzer.current.effective?.rawValue, lane: .appState, at: time, into: &sink)
        for position in analyzer.current.scenes.indices {
            let name = analyzer.current.scenes[position].name
            let code = analyzer.current.scenes[position].app.flatMap { $0 == .unattached ? nil : $0.rawValue }
            if let index = scenes.firstIndex(where: { $0.name == name }) {
                Self.follow(&scenes[index].state, code: code, lane: .sceneState(name), at: time, into: &sink)
            } else if let code {
                scenes.append(OpenScene(name: name, state: OpenState(code: code, since: time)))
            }
        }
    }

    private static func follow<Sink: TimelineSink>(
        _ open: inout OpenState?, code: UInt8?, lane: TimelineLane, at time: Int64, into sink: inout Sink
    ) {
        guard open?.code != code else { return }
        if let state = open {
            sink.record(TimelineSpan(lane: lane, start: state.since, end: time, value: state.code))
        }
        open = code.map { OpenState(code: $0, since: time) }
    }

    /// Follows the analyzer's main-thread busy interval.
    private mutating func followBusy<Sink: TimelineSink>(at time: Int64, into sink: inout Sink) {
        let now = analyzer.inLifetime ? analyzer.busy.start : nil
        guard now != busyStart else { return }
        if let start = busyStart { sink.record(TimelineSpan(lane: .busy, start: start, end: time)) }
        busyStart = now
    }

    private static func push(_ stack: inout [OpenInterval], _ interval: OpenInterval) {
        if stack.count < Self.depthLimit { stack.append(interval) }
    }

    /// Ends the innermost open interval matching `name` and `key`, and those opened inside it.
    private static func pop<Sink: TimelineSink>(
        _ stack: inout [OpenInterval], name: Symbol, key: Int64, at time: Int64, into sink: inout Sink,
        lane: (Int) -> TimelineLane
    ) {
        guard let index = stack.lastIndex(where: { $0.name == name && $0.key == key }) else { return }
        while stack.count > index {
            let depth = stack.count - 1
            let interval = stack.removeLast()
            sink.record(TimelineSpan(lane: lane(depth), start: interval.begin, end: time, name: interval.name))
        }
    }

    /// Closes everything open at the end of a lifetime.
    private mutating func closeAll<Sink: TimelineSink>(at time: Int64, into sink: inout Sink) {
        Self.follow(&system, code: nil, lane: .systemState, at: time, into: &sink)
        Self.follow(&app, code: nil, lane: .appState, at: time, into: &sink)
        for index in scenes.indices {
            Self.follow(&scenes[index].state, code: nil, lane: .sceneState(scenes[index].name), at: time, into: &sink)
        }
        scenes.removeAll(keepingCapacity: true)
        for (depth, interval) in callbacks.enumerated().reversed() {
            sink.record(TimelineSpan(lane: .callback(depth: depth), start: interval.begin, end: time, name: interval.name))
        }
        for (depth, interval) in signposts.enumerated().reversed() {
            sink.record(TimelineSpan(lane: .signpost(depth: depth), start: interval.begin, end: time, name: interval.name))
        }
        for task in tasks {
            sink.record(TimelineSpan(lane: .backgroundTask, start: task.begin, end: time, name: task.name))
        }
        callbacks.removeAll(keepingCapacity: true)
        signposts.removeAll(keepingCapacity: true)
        tasks.removeAll(keepingCapacity: true)
    }
}
