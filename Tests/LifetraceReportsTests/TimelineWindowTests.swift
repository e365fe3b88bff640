import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import Testing

@Suite struct TimelineWindowTests {
    static func canvas(buckets: Int, spans: [TimelineSpan]) -> TimelineCanvas {
        var canvas = TimelineCanvas(windows: [
            TimelineWindow(title: "t", anchor: "t", start: 0, end: 1_000_000, origin: 0, buckets: buckets)
        ])
        for span in spans { canvas.record(span) }
        return canvas
    }

    @Test func manyIntervalsFoldIntoAtMostOneRectanglePerBucket() {
        // 100 000 busy intervals of 3 ns every 10 ns: far more than the 50 buckets.
        let spans = (0..<100_000).map { TimelineSpan(lane: .busy, start: Int64($0) * 10, end: Int64($0) * 10 + 3) }
        let canvas = Self.canvas(buckets: 50, spans: spans)
        let window = canvas.windows[0]
        var count = 0
        for bucket in 0..<50 {
            count += window.count(row: TimelineRow.busy, bucket: bucket)
            #expect(abs(window.coverage(row: TimelineRow.busy, bucket: bucket) - 0.3) < 1e-9)
        }
        #expect(count == 100_000)
        let svg = TimelineSVG(window: window, canvas: canvas, overlay: TimelineOverlay(
            analysis: TraceAnalysis(path: "t", metadata: TraceMetadata(), eventCount: 0, violations: [], lifetimes: [], issues: []),
            listedViolations: 0), symbols: SymbolTable(), labelMilestones: false).rendered
        let rectangles = svg.components(separatedBy: "<rect class=\"busy").count - 1
        #expect(rectangles >= 1 && rectangles <= 50)
    }

    @Test func theStateHoldingMostOfABucketWins() {
        let spans = [
            TimelineSpan(lane: .systemState, start: 0, end: 200_000, value: 1),
            TimelineSpan(lane: .systemState, start: 200_000, end: 1_000_000, value: 2),
        ]
        let window = Self.canvas(buckets: 2, spans: spans).windows[0]
        #expect(window.dominantState(row: TimelineRow.system, bucket: 0) == 2)
        #expect(window.dominantState(row: TimelineRow.system, bucket: 1) == 2)
        #expect(window.dominantState(row: TimelineRow.app, bucket: 0) == nil)
    }

    @Test func spansOutsideTheWindowAreIgnoredAndEdgesClamped() {
        let spans = [
            TimelineSpan(lane: .mark, start: 2_000_000, end: 2_000_000),
            TimelineSpan(lane: .callback(depth: 9), start: -500, end: 100),
        ]
        let window = Self.canvas(buckets: 10, spans: spans).windows[0]
        #expect(!window.isUsed(TimelineRow.mark))
        #expect(window.count(row: TimelineRow.firstCallback + TimelineRow.callbackRows - 1, bucket: 0) == 1)
    }

    @Test func scenesPastTheRowLimitShareTheLastRow() {
        var symbols = SymbolTable()
        let spans = (0..<10).map {
            TimelineSpan(lane: .sceneState(symbols.intern("scene\($0)")), start: 0, end: 10, value: 1)
        }
        let canvas = Self.canvas(buckets: 10, spans: spans)
        #expect(canvas.scenes.count == TimelineRow.sceneRows)
        let last = TimelineRow.firstScene + TimelineRow.sceneRows - 1
        #expect(canvas.windows[0].count(row: last, bucket: 0) == 10 - TimelineRow.sceneRows + 1)
        #expect(canvas.sceneLabel(TimelineRow.sceneRows - 1, symbols: symbols).hasSuffix("and later"))
    }

    @Test func axisStepsAreRound() {
        #expect(AxisFormat.step(for: 1_000_000_000, ticks: 10) == 100_000_000)
        #expect(AxisFormat.step(for: 1_500_000_000, ticks: 10) == 200_000_000)
        #expect(AxisFormat.step(for: 4_000_000_000, ticks: 10) == 500_000_000)
        #expect(AxisFormat.step(for: 600_000_000_000, ticks: 10) == 100_000_000_000)
        #expect(AxisFormat.step(for: 10, ticks: 10) == 1_000)
    }
}
