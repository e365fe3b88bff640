import Foundation
import LifetraceAnalysis
@testable import LifetraceReports
import LifetraceTestSupport
import Testing

/// The job summary's bound and its agreement with the exit status.
@Suite struct CheckMarkdownSummaryTests {
    @Test("a summary past GitHub's 1 MiB per step is cut at a line boundary, with a line saying so")
    func boundedByGitHubsLimit() {
        let line = String(repeating: "x", count: 999)
        let text = CheckMarkdownSummary.bounded(Array(repeating: line, count: 2000))
        #expect(text.utf8.count <= CheckMarkdownSummary.byteLimit)
        #expect(text.utf8.count > CheckMarkdownSummary.byteLimit - 2000)
        #expect(text.hasSuffix("_The summary was cut here to stay within GitHub's 1 MiB per step; the JSON and JUnit outputs have everything._\n"))
        #expect(text.components(separatedBy: "\n").dropLast(3).allSatisfy { $0 == line })
        let short = CheckMarkdownSummary.bounded(["a", "b"])
        #expect(short == "a\nb\n")
    }

    @Test("the title and the exit status follow the check: passed, passed with warnings, failed")
    func verdicts() throws {
        func summary(_ names: [String], strict: Bool = false) throws -> CheckMarkdownSummary {
            CheckMarkdownSummary(CheckOutput(analyses: try names.map { try SampleTraces.analyze($0) }, rules: .all, strict: strict))
        }
        let pass = try summary(["hang.pass.jsonl"])
        #expect(pass.exitStatus == 0 && pass.document.hasPrefix("## Lifetrace check: passed\n"))
        let warned = try summary(["hang.fail.jsonl"])
        #expect(warned.exitStatus == 0 && warned.document.hasPrefix("## Lifetrace check: passed, with warnings\n"))
        let strict = try summary(["hang.fail.jsonl"], strict: true)
        #expect(strict.exitStatus == 1 && strict.document.hasPrefix("## Lifetrace check: failed\n"))
        let failed = try summary(["launch-stall.fail.jsonl", "hang.fail.jsonl"])
        #expect(failed.exitStatus == 1)
        // Errors first in the table of rules, each with its source by title.
        #expect(failed.document.contains("""
            | `launch-stall` | error | 1 | 1 | Apple, App Programming Guide for iOS: The App Life Cycle, "Threads and Concurrency" |
            | `hang` | warning | 1 | 1 | Apple, App Programming Guide for iOS: The App Life Cycle, "Threads and Concurrency" |
            """))
    }
}
