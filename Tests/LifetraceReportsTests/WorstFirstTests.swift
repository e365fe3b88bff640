import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports
import LifetraceTestSupport
import Testing

/// The page's worst-first choices, its one clock on the axes, and the summary's groups, sample
/// sizes and links, without a browser.
@Suite struct WorstFirstTests {
    @Test func axisLabelsCarryThePrecisionTheirStepNeeds() {
        // 20 ms ticks 87.8 s into the trace: the compact style read `+1 min 28 s` for all of them.
        #expect(AxisFormat.label(87_800_000_000, step: 20_000_000) == "+87.80 s")
        #expect(AxisFormat.label(87_820_000_000, step: 20_000_000) == "+87.82 s")
        #expect(AxisFormat.label(1_305_633_002_000, step: 2_000) == "+1305.633002 s")
        // Moments are seconds on the trace's clock, however short the trace or long the step.
        #expect(AxisFormat.label(250_000_000, step: 50_000_000) == "+0.25 s")
        #expect(AxisFormat.label(1_500_000, step: 500_000) == "+0.0015 s")
        #expect(AxisFormat.label(-3_000_000, step: 1_000_000) == "-0.003 s")
        #expect(AxisFormat.label(200_000_000_000, step: 100_000_000_000) == "+200 s")
        #expect(AxisFormat.label(0, step: 1_000) == "0")
        // One implementation: the trace's clock to the step's digit.
        for (tick, step) in [(Int64(87_800_000_000), Int64(20_000_000)), (1_305_633_002_000, 2_000), (-3_000_000, 1_000_000)] {
            #expect(AxisFormat.label(tick, step: step) == TraceClock.moment(tick, resolution: step))
        }
    }

    /// A window 87.805 s after its origin, 1.4 s wide, as a stall's view is.
    @Test func ticksOfAViewFarFromItsOriginAreDistinct() {
        let origin: Int64 = 1_000_000_000_000
        let start = origin + 87_805_000_000
        var window = TimelineWindow(title: "Stall", anchor: "stall-1", start: start, end: start + 1_400_000_000, origin: origin, buckets: 1000)
        window.spanLimit = 10
        var canvas = TimelineCanvas(windows: [window])
        canvas.record(TimelineSpan(lane: .systemState, start: start, end: start + 1_400_000_000, value: 2))
        let svg = TimelineSVG(window: canvas.windows[0], canvas: canvas, overlay: TimelineOverlay(
            analysis: TraceAnalysis(path: "t", metadata: TraceMetadata(), eventCount: 0, violations: [], lifetimes: [], issues: []),
            listedViolations: 0), symbols: SymbolTable(), labelMilestones: false).rendered
        let labels = svg.components(separatedBy: "class=\"axis coarse\"").dropFirst().compactMap {
            $0.components(separatedBy: ">").dropFirst().first?.components(separatedBy: "<").first
        }
        #expect(labels.count >= 5)
        #expect(Set(labels).count == labels.count, "\(labels)")
        #expect(labels.first == "+88.0 s", "\(labels)")
        // The state's tooltip reads to the precision of a pixel (1.4 ms: 2 ms steps).
        #expect(svg.contains("<title>active +87.805 s to +89.205 s</title>"), "\(svg.prefix(2000))")
        // The view kept its one span for the zoom to draw again.
        #expect(svg.contains("data-spans=\"0,0,1400000,0,2\""), "\(svg.prefix(600))")
    }

    static let synthesized: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-worst-\(UUID().uuidString).ltrace").path
        _ = try? LifetraceCommand.run(["synth", "--events", "100000", "--seed", "1", "-o", path])
        return path
    }()

    @Test func viewsAndTablesGoToTheWorstAndEveryLinkHasItsTarget() throws {
        let report = try TraceHTMLReport.make(path: Self.synthesized, options: AnalysisOptions())
        let analysis = report.analysis
        let all = WorstFirst.stalls(analysis)
        #expect(all.count > TraceHTMLReport.zoomedStallLimit - 10)
        // The stall views: the longest, longest first, whatever their place in time.
        let stallViews = report.canvas.windows.filter { $0.anchor.hasPrefix("stall-") }.map(\.anchor)
        let expected = all.sorted { ($1.stall.duration, $0.number) < ($0.stall.duration, $1.number) }
            .prefix(TraceHTMLReport.zoomedStallLimit).map { "stall-\($0.number)" }
        #expect(stallViews == Array(expected))
        // The launch views: the slowest of each kind in turn, listed by kind (cold first), each
        // kind's slowest first; a kind is never ranked against another.
        let launchViews = report.canvas.windows.filter { $0.anchor.hasPrefix("launch-") }
        let kinds = LaunchKind.allCases.filter { kind in analysis.lifetimes.contains { $0.launchWindow != nil && $0.launch.kind == kind } }
        #expect(kinds.count > 1, "the synthesized trace has several launch kinds")
        var expectedViews: [String] = []
        var perKind: [[LifetimeReport]] = kinds.map { kind in
            analysis.lifetimes.filter { $0.launchWindow != nil && $0.launch.kind == kind }
                .sorted { (WorstFirst.launchTime($1) ?? 0, $0.index) < (WorstFirst.launchTime($0) ?? 0, $1.index) }
        }
        var taken = kinds.map { _ in 0 }
        for rank in 0..<TraceHTMLReport.zoomedLaunchLimit {
            for index in kinds.indices where taken.reduce(0, +) < TraceHTMLReport.zoomedLaunchLimit && rank < perKind[index].count {
                taken[index] += 1
            }
        }
        for index in kinds.indices {
            perKind[index] = Array(perKind[index].prefix(taken[index]))
            expectedViews += perKind[index].map { "launch-\($0.index + 1)" }
        }
        #expect(launchViews.map(\.anchor) == expectedViews)
        for (index, kind) in kinds.enumerated() where taken[index] > 0 {
            #expect(launchViews.contains { $0.title.hasSuffix("(\(kind.rawValue))") }, "a view of the slowest \(kind.rawValue) launch")
        }
        // Blamed work: by total stall time, and the shares add up to every stall.
        let work = WorstFirst.blamedWork(analysis)
        #expect(work.map(\.total) == work.map(\.total).sorted(by: >))
        #expect(work.reduce(0) { $0 + $1.stalls } == all.count)
        let html = report.html
        #expect(html.contains("<h2 id=\"worst\">The worst first</h2>"))
        Self.expectEveryLinkHasATarget(html)
    }

    /// Every `href="#x"` of `html` names an `id="x"` of it.
    static func expectEveryLinkHasATarget(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let ids = Set(html.components(separatedBy: " id=\"").dropFirst().compactMap { $0.components(separatedBy: "\"").first })
        let targets = Set(html.components(separatedBy: "href=\"#").dropFirst().compactMap { $0.components(separatedBy: "\"").first })
        #expect(!targets.isEmpty, sourceLocation: sourceLocation)
        #expect(targets.subtracting(ids).isEmpty, "links to nowhere: \(targets.subtracting(ids).sorted().prefix(10))", sourceLocation: sourceLocation)
    }

    @Test func percentilesNeedTheSamplesToSupportThem() throws {
        #expect(RunSummary.samplesNeeded(percent: 0) == 1)
        #expect(RunSummary.samplesNeeded(percent: 50) == 1)
        #expect(RunSummary.samplesNeeded(percent: 90) == 10)
        #expect(RunSummary.samplesNeeded(percent: 99) == 100)
        #expect(RunSummary.samplesNeeded(percent: 100) == 1)
        let paths = (1...8).map { BrowserRenderingTests.root + "/Samples/launches/baseline/run-0\($0).jsonl" }
        let summary = RunSummary(runs: try RunFacts.collect(paths, options: AnalysisOptions()))
        let row = try #require(summary.launchRows.first)
        #expect(row.distribution.count == 8)
        let cells = summary.cells(row)
        // label, n, min, median, p90, p99, max: no p90 nor p99 of 8 samples.
        #expect(cells[4] == "-" && cells[5] == "-")
        #expect(cells[2] != "-" && cells[3] != "-" && cells[6] != "-")
        // The maximum names its run; the JSON keeps every figure.
        let witness = try #require(summary.witness(row, percent: 100))
        #expect(witness.value == summary.runs.compactMap { $0.lifetimes.first?.launchDuration }.max())
        #expect(summary.text.contains("slowest cold launch: \(row.metric.format(Double(witness.value))) in \(witness.path), lifetime 1"))
        #expect(RunSummary.value(row, percent: 99) != nil)
        #expect(summary.json.contains("\"p99\": "))
        Self.expectEveryLinkHasATarget(summary.html)
    }

    @Test func runsAreGroupedByTheirMetadataWithTheHangRate() throws {
        let paths = (1...4).map { BrowserRenderingTests.root + "/Samples/launches/baseline/run-0\($0).jsonl" }
        var runs = try RunFacts.collect(paths, options: AnalysisOptions())
        for index in runs.indices {
            runs[index].metadata = TraceMetadata([("appVersion", index < 2 ? "1.0" : "1.1"), ("os", "iOS 18"), ("device", "iPhone15,2")])
            // Half an hour on screen each, and in the second version one 900 ms hang each.
            runs[index].lifetimes[0].onScreen = 1_800_000_000_000
            runs[index].lifetimes[0].stalls = index < 2 ? [] : [900_000_000]
            runs[index].lifetimes[0].stallWork = index < 2 ? [] : ["db.syncRead"]
        }
        let groups = RunSummary(runs: runs).groups
        #expect(groups.map(\.appVersion) == ["1.0", "1.1"])
        #expect(groups.map(\.traces) == [2, 2])
        #expect(groups.map(\.stalls) == [0, 2])
        #expect(groups[0].hangRate == 0)
        // 1.8 s of hang in an hour on screen.
        #expect(abs((groups[1].hangRate ?? 0) - 1.8) < 1e-9)
        #expect(RunSummary.cells(groups[1]).last == "1.8 s/h")
        let longest = try #require(RunSummary(runs: runs).worstLines.last)
        #expect(longest.hasSuffix("lifetime 1, in db.syncRead"), "\(longest)")
    }
}
