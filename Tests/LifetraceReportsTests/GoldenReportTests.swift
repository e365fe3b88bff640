import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRunner
import Testing

/// The text and Markdown forms of the many-run summary and of the comparison, on the committed
/// launch samples, against the files in `Samples/golden/`. Set `LIFETRACE_UPDATE_GOLDEN=1` to
/// rewrite the files after an intended change (and review the diff).
@Suite struct GoldenReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The runs under `relative`, named relative to the package root as a user would type them.
    static func runs(_ relative: String) throws -> [RunFacts] {
        let files = try TraceInputs.expand([root + "/" + relative])
        return try RunFacts.collect(files, options: AnalysisOptions()).map { run in
            var run = run
            run.path = String(run.path.dropFirst(root.count + 1))
            return run
        }
    }

    static func compare(_ actual: String, golden name: String) throws {
        let path = root + "/Samples/golden/" + name
        if ProcessInfo.processInfo.environment["LIFETRACE_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(actual == expected, "differs from Samples/golden/\(name)")
    }

    static func comparison() throws -> RunComparison {
        var gate = ComparisonGate(maxRegression: 10)
        gate.budgets = [
            try Budget(parsing: "launch.cold.p50=300ms"), try Budget(parsing: "launch.cold.busy.p90=150ms"),
            try Budget(parsing: "stalls.count.max=0"),
        ]
        return RunComparison(
            baseline: try runs("Samples/launches/baseline"), candidate: try runs("Samples/launches/candidate"), gate: gate)
    }

    @Test func summaryText() throws {
        try Self.compare(RunSummary(runs: try Self.runs("Samples/launches")).text, golden: "summary.txt")
    }

    @Test func summaryMarkdown() throws {
        try Self.compare(RunSummary(runs: try Self.runs("Samples/launches")).markdown, golden: "summary.md")
    }

    @Test func summaryOfTheRuleSamplesText() throws {
        try Self.compare(RunSummary(runs: try Self.runs("Samples/traces")).text, golden: "summary-rules.txt")
    }

    @Test func diffText() throws {
        try Self.compare(try Self.comparison().text, golden: "diff.txt")
    }

    @Test func diffMarkdown() throws {
        try Self.compare(try Self.comparison().markdown, golden: "diff.md")
    }

    @Test func diffFailsOnEveryBudgetTheCandidateIsOver() throws {
        let comparison = try Self.comparison()
        #expect(comparison.failed)
        let failed = comparison.checks.filter(\.failed).map(\.description)
        // Absolute budgets fail whenever the candidate is over, significant or not: the stall
        // count rose without significance and its budget fails all the same.
        #expect(failed.contains("launch.cold.busy.p90 <= 150 ms"))
        #expect(failed.contains("stalls.count.max <= 0"))
        #expect(!failed.contains("launch.cold.p50 <= 300 ms"))
        // The maximum regression still needs significance: the stall count is not a failure there.
        #expect(!failed.contains { $0.hasPrefix("stalls.count median") })
        // Two hangs (a warning) in eight candidate runs against none: not a significant rise.
        #expect(!failed.contains { $0.hasPrefix("no error more often per run") })
    }

    @Test func sameRunsOnBothSidesPass() throws {
        let runs = try Self.runs("Samples/launches/baseline")
        let comparison = RunComparison(baseline: runs, candidate: runs, gate: ComparisonGate(maxRegression: 0))
        #expect(!comparison.failed)
        #expect(comparison.rows.allSatisfy { !$0.isRegression && !$0.isImprovement })
    }

    @Test func summaryRunsInPathOrderWhateverTheThreads() throws {
        let runs = try Self.runs("Samples/traces")
        #expect(runs.map(\.path) == runs.map(\.path).sorted())
        #expect(runs.count == Rule.allCases.count * 2)
    }

    @Test func summaryHistogramsHaveAxes() throws {
        let html = RunSummary(runs: try Self.runs("Samples/launches")).html
        // The launch histogram: counts on the left (0 and the tallest bar), values below at the
        // edges and quarters of the range, and what is measured.
        #expect(html.contains(">count</text>"))
        #expect(html.contains("text-anchor=\"end\">0</text>"))
        #expect(html.contains(">192 ms</text>"))
        #expect(html.contains(">238 ms</text>"))
        #expect(html.contains(">285 ms</text>"))
        #expect(html.contains(">cold launch duration</text>"))
        // The stall durations are all 300 ms: one value label, not five.
        let stalls = try #require(html.components(separatedBy: "<title>stall duration histogram</title>").last)
        #expect(stalls.components(separatedBy: ">300 ms</text>").count == 2)
    }
}
