import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// Turns the analyzer's edges into timeline spans, for the HTML report's timeline: state spans of
/// the system view, the effective app view and each scene's app view, main-thread busy intervals,
/// main-thread callbacks and signposts on their lanes, background tasks, marks and frames.
///
/// An ordinary edge sink (``Drawing``): it derives nothing of its own, every span is an interval
/// the analyzer reported (``LifecycleEdge``), on the lane the analyzer gave it, so the page shows
/// what the rules judged and what the exports write. Spans go to a ``TimelineSink`` as they close,
/// so memory is bounded by the states open (one per view), never by the number of events. The
/// analysis is the same as without the timeline.
///
/// ```swift
/// var range = TimelineRange()
/// let analysis = try LifecycleTimeline.analyze(&reader, path: path, options: options, into: &range)
/// ```
public enum LifecycleTimeline {
    /// Replays every event of `source` into `sink` and returns the analysis, through the
    /// analyzer's one driving loop (``LifecycleAnalyzer/analyze(_:path:options:into:)``).
    /// `withoutSystemView`: the lifetimes (by index) that have no system view
    /// (``LifetimeReport/hasSystemView``, from an analysis of the same trace), whose system-view
    /// states are not drawn.
    public static func analyze<Source: TraceEventSource, Sink: TimelineSink>(
        _ source: inout Source, path: String, options: AnalysisOptions, into sink: inout Sink,
        withoutSystemView: Set<Int> = []
    ) throws(TraceError) -> TraceAnalysis {
        var spans = Drawing(sink: sink, withoutSystemView: withoutSystemView)
        defer { sink = spans.sink }
        return try LifecycleAnalyzer.analyze(&source, path: path, options: options, into: &spans)
    }

    /// The edge sink that draws the spans the edges close into a ``TimelineSink``.
    public struct Drawing<Sink: TimelineSink>: LifecycleEdgeSink {
        /// Where the spans go.
        public var sink: Sink
        /// The lifetimes whose system view is not drawn: an in-app recording has none (the
        /// analyzer's system view then only holds the state it assumed at the launch).
        public var withoutSystemView: Set<Int>
        /// The lifetime the edges are of.
        private var lifetime = -1

        /// A drawing into `sink`, without the system view of the lifetimes `withoutSystemView`.
        public init(sink: Sink, withoutSystemView: Set<Int> = []) {
            self.sink = sink
            self.withoutSystemView = withoutSystemView
        }

        /// Draws the span `edge` closes, if any.
        public mutating func receive(_ edge: LifecycleEdge, symbols: SymbolTable) {
            if case .lifetimeBegan(let begin) = edge { lifetime = begin.index }
            if case .stateChanged(let change) = edge, change.view == .system, withoutSystemView.contains(lifetime) { return }
            LifecycleTimeline.draw(edge, into: &sink)
        }
    }

    /// The span an edge closes, if any.
    static func draw<Sink: TimelineSink>(_ edge: LifecycleEdge, into sink: inout Sink) {
        switch edge {
        case .stateChanged(let change):
            guard let lane = TimelineLane(drawing: change.view) else { return }
            if let from = change.from, let since = change.since, TimelineLane.isDrawn(from) {
                sink.record(TimelineSpan(lane: lane, start: since, end: change.timestamp, value: from.code))
            }
        case .intervalEnded(let interval, let end, _):
            guard let lane = TimelineLane(drawing: interval) else { return }
            sink.record(TimelineSpan(lane: lane, start: interval.begin, end: end, name: interval.name))
        case .busyEnded(let start, let end):
            sink.record(TimelineSpan(lane: .busy, start: start, end: end))
        case .point(let point):
            switch point.kind {
            case .mark: sink.record(TimelineSpan(lane: .mark, start: point.timestamp, end: point.timestamp, name: point.name))
            case .frame, .firstFrame: sink.record(TimelineSpan(lane: .frame, start: point.timestamp, end: point.timestamp))
            case .launch, .exit, .backgroundTaskExpired, .dropped, .unmatchedEnd: break
            }
        case .lifetimeBegan, .launchInferred, .launchTimed, .intervalBegan, .busyBegan, .stall, .launchWindowClosed,
            .launchWindowEnded, .finding, .lifetimeEnded:
            break
        }
    }
}

extension TimelineLane {
    /// The lane that draws `view`'s states, or nil for a view the timeline does not draw (the app
    /// delegate's own view, the trusted view and scenes' system views: the effective app view and
    /// the system view already show them).
    init?(drawing view: LifecycleView) {
        switch view {
        case .system: self = .systemState
        case .effectiveApp: self = .appState
        case .sceneApp(let scene): self = .sceneState(scene)
        case .app, .trusted, .sceneSystem: return nil
        }
    }

    /// The lane of an interval: main-thread callbacks and signposts on the analyzer's lane
    /// (``EdgeInterval/lane``, the exports' too), background tasks on any thread; nil for
    /// callbacks and signposts of other threads.
    init?(drawing interval: EdgeInterval) {
        switch interval.kind {
        case .callback where interval.thread.isMain: self = .callback(depth: interval.lane)
        case .signpost where interval.thread.isMain: self = .signpost(depth: interval.lane)
        case .backgroundTask: self = .backgroundTask
        case .callback, .signpost: return nil
        }
    }

    /// Whether a state is drawn: every state but a scene's `unattached` (no scene to show).
    static func isDrawn(_ state: ViewState) -> Bool { state != .scene(.unattached) }
}
