import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import Testing

/// The spans the timeline derives from the analyzer's state after each event.
struct LifecycleTimelineTests {
    struct Collected: TimelineSink {
        var spans: [TimelineSpan] = []
        mutating func record(_ span: TimelineSpan) { spans.append(span) }
    }

    static let trace = """
        {"type":"meta","app":"timeline"}
        {"ts":0,"type":"launch","reason":"user"}
        {"ts":10,"type":"callback","name":"willFinishLaunching","dur":5}
        {"ts":20,"type":"callback.begin","name":"didFinishLaunching"}
        {"ts":30,"type":"signpost.begin","name":"outer"}
        {"ts":40,"type":"signpost.begin","name":"inner"}
        {"ts":50,"type":"signpost.end","name":"inner"}
        {"ts":60,"type":"signpost.end","name":"outer"}
        {"ts":70,"type":"callback.end","name":"didFinishLaunching"}
        {"ts":80,"type":"state","to":"active"}
        {"ts":80,"type":"callback","name":"didBecomeActive","dur":10}
        {"ts":95,"type":"mark","name":"ready"}
        {"ts":100,"type":"frame","first":true}
        {"ts":200,"type":"bgtask.begin","id":7,"name":"upload"}
        {"ts":300,"type":"exit","signal":9}
        """

    static func run() throws -> (Collected, TraceAnalysis) {
        var source = try JSONLTraceReader(bytes: Array(trace.utf8), name: "timeline.jsonl")
        var sink = Collected()
        let analysis = try LifecycleTimeline.analyze(&source, path: "timeline.jsonl", options: AnalysisOptions(), into: &sink)
        return (sink, analysis)
    }

    @Test func statesSpanTheLifetime() throws {
        let (sink, _) = try Self.run()
        let system = sink.spans.filter { $0.lane == .systemState }.map { [$0.start, $0.end, Int64($0.value)] }
        #expect(system == [[0, 80, Int64(LifecycleState.inactive.rawValue)], [80, 300, Int64(LifecycleState.active.rawValue)]])
        let app = sink.spans.filter { $0.lane == .appState }
        #expect(app.last?.end == 300)
    }

    @Test func callbacksAndSignpostsNestByDepth() throws {
        let (sink, _) = try Self.run()
        let signposts = sink.spans.filter {
            if case .signpost = $0.lane { return true } else { return false }
        }
        #expect(signposts.map(\.lane) == [.signpost(depth: 1), .signpost(depth: 0)])
        #expect(signposts.map { [$0.start, $0.end] } == [[40, 50], [30, 60]])
        let callbacks = sink.spans.filter { $0.lane == .callback(depth: 0) }.map { [$0.start, $0.end] }
        #expect(callbacks == [[10, 15], [20, 70], [80, 90]])
    }

    @Test func busyInstantsAndTasks() throws {
        let (sink, _) = try Self.run()
        // No run loop: the outermost main-thread callbacks are the busy intervals.
        #expect(sink.spans.filter { $0.lane == .busy }.map { [$0.start, $0.end] } == [[10, 15], [20, 70], [80, 90]])
        #expect(sink.spans.filter { $0.lane == .mark }.map(\.start) == [95])
        #expect(sink.spans.filter { $0.lane == .frame }.map(\.start) == [100])
        // The task still open at the kill ends with the lifetime.
        #expect(sink.spans.filter { $0.lane == .backgroundTask }.map { [$0.start, $0.end] } == [[200, 300]])
    }

    @Test func analysisIsTheAnalyzersOwn() throws {
        let (_, analysis) = try Self.run()
        var source = try JSONLTraceReader(bytes: Array(Self.trace.utf8), name: "timeline.jsonl")
        let plain = try LifecycleAnalyzer.analyze(&source, path: "timeline.jsonl")
        #expect(analysis.lifetimes == plain.lifetimes)
        #expect(analysis.violations == plain.violations)
        #expect(analysis.eventCount == plain.eventCount)
    }

    @Test func rangeCoversEverySpan() throws {
        var source = try JSONLTraceReader(bytes: Array(Self.trace.utf8), name: "timeline.jsonl")
        var range = TimelineRange()
        _ = try LifecycleTimeline.analyze(&source, path: "t", options: AnalysisOptions(), into: &range)
        #expect(range.start == 0)
        #expect(range.end == 300)
    }
}
