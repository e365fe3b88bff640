import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace report` (HTML, many runs) and `lifetrace diff` end to end: the built executable,
/// its outputs and exit codes.
@Suite struct ReportCommandsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let baseline = root + "/Samples/launches/baseline"
    static let candidate = root + "/Samples/launches/candidate"

    static func lifetrace(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    @Test func diffFailsOnASignificantRegression() throws {
        let result = try Self.lifetrace(["diff", "--max-regression", "10%", "--allow-more-violations", Self.baseline, "--", Self.candidate])
        #expect(result.status == 1)
        #expect(result.output.contains("Failed: 2 regressions over +10%."))
    }

    @Test func diffPassesWithinBudget() throws {
        let result = try Self.lifetrace([
            "diff", "--max-regression", "50%", "--budget", "launch.cold.p90=1s", "--allow-more-violations", Self.baseline, "--",
            Self.candidate,
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Within budget, no regression over +50%."))
    }

    @Test func diffTestsWarningCountsRatherThanFailingOnAnyRise() throws {
        // Two candidate runs hang (a warning); the baseline has no violation: tested, not significant.
        let result = try Self.lifetrace(["diff", Self.baseline, "--", Self.candidate])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("violations.count          8/8                0                 0       -"))
        #expect(result.output.contains("ok   no error more often per run than in the baseline, no warning significantly more often: "
            + "errors per run: candidate 0, baseline 0; warnings per run: candidate 0.25, baseline 0"))
        let one = try Self.lifetrace(["diff", Self.baseline + "/run-01.jsonl", "--", Self.candidate + "/run-03.jsonl"])
        #expect(one.status == 0, "\(one.output)")
        let same = try Self.lifetrace(["diff", Self.candidate, "--", Self.candidate])
        #expect(same.status == 0, "\(same.output)")
    }

    @Test func diffFailsWheneverTheCandidateIsOverAnAbsoluteBudget() throws {
        // The baseline is over too, and nothing regressed: an absolute budget still fails.
        let result = try Self.lifetrace(["diff", "--budget", "launch.cold.p50=100ms", Self.candidate, "--", Self.candidate])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL launch.cold.p50 <= 100 ms: candidate 251 ms, over the budget"))
    }

    @Test func diffReadsABudgetFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("budgets-\(UUID().uuidString).json").path
        try #"{"alpha": 0.01, "budgets": {"launch.cold.p50": "200ms"}}"#.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try Self.lifetrace(["diff", "--budgets", file, "--format", "json", Self.baseline, "--", Self.candidate])
        #expect(result.status == 1)
        #expect(result.output.contains("\"check\": \"launch.cold.p50 <= 200 ms\""))
        #expect(result.output.contains("\"alpha\": 0.01"))
    }

    @Test func diffRefusesToGateOnOneRunPerSide() throws {
        let result = try Self.lifetrace([
            "diff", "--max-regression", "10%", Self.baseline + "/run-01.jsonl", "--", Self.candidate + "/run-01.jsonl",
        ])
        #expect(result.status == 2)
        #expect(result.error.contains("give at least 2 runs per side"))
    }

    @Test func diffBadInputExitsTwo() throws {
        #expect(try Self.lifetrace(["diff", Self.baseline, Self.candidate]).status == 2)
        #expect(try Self.lifetrace(["diff", "--budget", "launch.warm.p50=1s", Self.baseline, "--", Self.candidate]).status == 2)
        #expect(try Self.lifetrace(["diff", "--budget", "launch.cold.p50=fast", Self.baseline, "--", Self.candidate]).status == 2)
        let missing = try Self.lifetrace(["diff", Self.baseline, "--", "/nonexistent"])
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("lifetrace: /nonexistent"))
    }

    @Test func reportSummarisesADirectory() throws {
        let result = try Self.lifetrace(["report", root(), "--format", "markdown"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("## Lifetrace summary"))
        #expect(result.output.contains("| cold | 16 |"))
    }

    @Test func reportWritesHTMLToAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).html").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = try Self.lifetrace(["report", Self.root + "/Samples/runs/cold-launch-scenes.jsonl", "--format", "html", "-o", file])
        #expect(result.status == 0)
        #expect(result.output.isEmpty)
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.hasSuffix("</html>\n"))
    }

    private func root() -> String { Self.root + "/Samples/launches" }
}
