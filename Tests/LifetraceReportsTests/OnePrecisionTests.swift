import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Every duration people read is written by one formatter with one precision rule
/// (``DurationFormat``, docs/REPORTS.md, "How durations read"): `diff`, the many-run summary and
/// one trace's report write the same duration the same way, and no output mixes decimals within a
/// unit (`+13.41 ms` beside `+27.669 ms`).
@Suite struct OnePrecisionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The durations in `text` that the precision rule would not write: a unit below a second
    /// with decimals, or seconds without exactly three (`276.04 ms`, `2.6 s`, `+13.41 ms`).
    static func offTheRule(_ text: String) -> [String] {
        text.matches(of: /([0-9]+)(?:\.([0-9]+))? (ns|µs|ms|s)(?![\/\w])/).compactMap { match in
            let decimals = match.output.2.map(\.count) ?? 0
            return decimals == (match.output.3 == "s" ? 3 : 0) ? nil : String(match.output.0)
        }
    }

    /// Four synthesized runs a side, whose launch times have nanoseconds to spare.
    static let synthesized: (baseline: [RunFacts], candidate: [RunFacts])? = {
        guard let directory = try? ScratchDirectory.make("one-precision") else { return nil }
        var paths: [String] = []
        for seed in 1...8 {
            let path = directory + "/seed-\(seed).ltrace"
            _ = try? LifetraceCommand.run(["synth", "--events", "5000", "--seed", String(seed), "-o", path])
            paths.append(path)
        }
        guard let runs = try? RunFacts.collect(paths, options: AnalysisOptions()), runs.count == 8 else { return nil }
        return (Array(runs.prefix(4)), Array(runs.suffix(4)))
    }()

    @Test func diffWritesShiftsAndMediansToOneDigitPerUnit() throws {
        let runs = try #require(Self.synthesized)
        let comparison = RunComparison(baseline: runs.baseline, candidate: runs.candidate, gate: ComparisonGate(maxRegression: 0))
        for format in [comparison.text, comparison.markdown] {
            #expect(Self.offTheRule(format).isEmpty, "\(Self.offTheRule(format)) in \(format)")
        }
        // A shift is the fixed style, signed: its estimate and its interval's ends.
        func signed(_ nanoseconds: Int64) -> String { (nanoseconds > 0 ? "+" : "") + DurationFormat.fixed.string(nanoseconds) }
        let cold = try #require(comparison.rows.first { $0.metric.key == "launch.cold" })
        let shift = try #require(cold.shift)
        let lower = try #require(shift.lower)
        let upper = try #require(shift.upper)
        let written = signed(TraceTime.nanoseconds(shift.estimate)) + " [\(signed(lower)), \(signed(upper))]"
        #expect(comparison.text.contains(written), "\(written) in \(comparison.text)")
    }

    /// Each sample run's launch, as its own report writes it, is what the summary of the runs
    /// writes (the summary read `276.04 ms` where the report read `276 ms`).
    @Test func theSummaryWritesALaunchAsTheTracesOwnReportDoes() throws {
        let paths = try TraceInputs.expand([Self.root + "/Samples/runs"])
        let summary = RunSummary(runs: try RunFacts.collect(paths, options: AnalysisOptions()))
        let text = summary.text
        let html = summary.html
        #expect(Self.offTheRule(text).isEmpty, "\(Self.offTheRule(text))")
        #expect(Self.offTheRule(summary.markdown).isEmpty, "\(Self.offTheRule(summary.markdown))")
        for path in paths {
            var source = try TraceInputs.open(path: path)
            let analysis = try LifecycleAnalyzer.analyze(&source, path: path, options: AnalysisOptions())
            let lifetime = try #require(analysis.lifetimes.first)
            let launch = DurationFormat.fixed.string(try #require(lifetime.launch.duration))
            let report = TraceReport(analysis: analysis, options: AnalysisOptions()).text
            #expect(report.contains("  Launch: \(launch) ("), "\(report)")
            let worst = "slowest \(lifetime.launch.kind.rawValue) launch: \(launch) in \(path), lifetime 1"
            #expect(text.contains(worst), "\(worst) in \(text)")
            #expect(html.contains("slowest \(lifetime.launch.kind.rawValue) launch: \(launch)"), "\(launch)")
        }
    }

    @Test func theHTMLSummarysFiguresAreWrittenToOneDigitPerUnit() throws {
        let summary = RunSummary(runs: try GoldenReportTests.runs("Samples/launches"))
        let cells = RunSummaryPageTests.linkedCells(summary.html)
        #expect(!cells.isEmpty)
        for cell in cells {
            #expect(Self.offTheRule(cell.text).isEmpty, "\(cell.id): \(cell.text)")
        }
        // The cold median, 237.5 ms, truncated as every report truncates (it read `237.5 ms`).
        #expect(cells.contains { $0.text == "237 ms" }, "\(cells)")
    }

    /// The page's axes are the trace's clock to their step, and a view's note writes its pixel as
    /// the span shown divided by the pixels (`5 ms` read as if the 5.606 s view were 5 s wide).
    @Test func thePagesAxesAndScaleReadAsTheyAre() throws {
        let html = try TraceHTMLReport.make(path: Self.root + "/Samples/runs/cold-launch-scenes.jsonl", options: AnalysisOptions()).html
        #expect(html.contains(">5.606 s shown, 5.606 ms per pixel; time since the trace's first event.<"), "\(html.prefix(4000))")
        #expect(html.contains(">481 ms shown, 481.6 µs per pixel; time since the trace's first event.<"))
        #expect(html.contains(">+1 s</text>") && html.contains(">+5 s</text>"))
        #expect(!html.contains(" min "), "no duration in minutes")
    }

    /// A budget reads as it was given, and the candidate's figure never reads as the budget when
    /// it is over it.
    @Test func budgetsAndTheFiguresCheckedAgainstThemReadAsTheyAre() throws {
        var gate = ComparisonGate()
        gate.budgets = try ["launch.cold.p50=251.4ms", "launch.cold.p90=1.5ms", "launch.cold.max=2s"].map { try Budget(parsing: $0) }
        let comparison = RunComparison(
            baseline: try GoldenReportTests.runs("Samples/launches/baseline"),
            candidate: try GoldenReportTests.runs("Samples/launches/candidate"), gate: gate)
        let lines = comparison.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("  FAIL launch.cold.p50 <= 251.4 ms: candidate 251.5 ms, over the budget"), "\(lines)")
        #expect(lines.contains("  FAIL launch.cold.p90 <= 1.5 ms: candidate 279.4 ms, over the budget"), "\(lines)")
        #expect(lines.contains("  ok   launch.cold.max <= 2.000 s: candidate 285 ms"), "\(lines)")
    }
}
