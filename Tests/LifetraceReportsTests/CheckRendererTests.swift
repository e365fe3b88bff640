import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceReports

/// Every `check` format has one renderer of one shape, and the outputs that point at an event's
/// line take it from the witness, as the reader gave it, without reading the trace again.
@Suite struct CheckRendererTests {
    @Test func everyFormatHasOneRendererOfOneShape() throws {
        let check = CheckOutput(
            analyses: [try SampleTraces.analyze("background-time.fail.jsonl")], rules: .all, strict: false)
        let direct: [CheckOutput.Format: String] = [
            .text: CheckTextReport(check).document, .json: CheckJSONReport(check).document,
            .junit: JUnitReport(check).document, .github: GitHubAnnotations(check).document,
            .markdown: CheckMarkdownSummary(check).document, .sarif: SARIFReport(check).document,
        ]
        #expect(Set(direct.keys) == Set(CheckOutput.Format.allCases))
        for format in CheckOutput.Format.allCases {
            let rendered = check.rendered(format)
            #expect(rendered == direct[format], "\(format)")
            #expect(rendered.hasSuffix("\n"), "\(format)")
        }
        #expect(check.text == direct[.text])
    }

    /// The line of the text trace that holds `event`: its own, or a `callback` shorthand's.
    private static func holds(_ line: String, _ event: EventSummary) throws -> Bool {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let timestamp = try #require(object["ts"] as? Int64)
        let name = object["name"] as? String
        guard name == event.name || event.name == nil else { return false }
        if object["type"] as? String == "callback" {
            let end = timestamp + ((object["dur"] as? Int64) ?? 0)
            return (event.type == .callbackBegin && timestamp == event.timestamp)
                || (event.type == .callbackEnd && end == event.timestamp)
        }
        return object["type"] as? String == event.type.name && timestamp == event.timestamp
    }

    @Test func githubAndSARIFPointAtTheLineTheReaderGave() throws {
        var pointed = 0
        for name in SampleTraces.files(suffix: ".fail.jsonl") {
            let analysis = try SampleTraces.analyze(name)
            let lines = try String(contentsOfFile: SampleTraces.path(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let check = CheckOutput(analyses: [analysis], rules: .all, strict: false)
            let annotations = GitHubAnnotations(check).document
            let sarif = SARIFReport(check, workingDirectory: "/").document
            for violation in analysis.violations {
                let event = try #require(violation.events.last)
                let line = try #require(violation.offendingLine, "\(name): \(violation.rule.id)")
                #expect(try Self.holds(lines[line - 1], event), "\(name) line \(line): \(event)")
                #expect(annotations.contains("title=\(violation.rule.id) in \(name) line \(line)::"), "\(name)")
                #expect(sarif.contains("\"startLine\": \(line)"), "\(name)")
                pointed += 1
            }
        }
        #expect(pointed >= 18)
    }

    @Test func aBinaryTraceHasNoLinesToPointAt() throws {
        let path = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("golden/v1-golden.ltrace").path
        var source = try TraceInputs.open(path: path)
        let analysis = try LifecycleAnalyzer.analyze(&source, path: path, options: AnalysisOptions())
        let check = CheckOutput(analyses: [analysis], rules: .all, strict: false)
        #expect(!analysis.violations.isEmpty)
        #expect(analysis.violations.allSatisfy { $0.offendingLine == nil && $0.events.allSatisfy { $0.line == nil } })
        #expect(!GitHubAnnotations(check).document.contains(" line "))
        #expect(!SARIFReport(check).document.contains("startLine"))
    }
}
