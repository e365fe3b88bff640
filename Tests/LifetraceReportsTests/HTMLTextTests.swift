import Foundation
import LifetraceAnalysis
import LifetraceReports
import Testing

@Suite struct HTMLTextTests {
    @Test func escapesMarkupAndQuotes() {
        #expect(HTMLText.escape("<script>alert(\"x\")</script>") == "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
        #expect(HTMLText.escape("a & 'b'") == "a &amp; &#39;b&#39;")
    }

    @Test func leavesPlainTextAlone() {
        #expect(HTMLText.escape("didFinishLaunching µs") == "didFinishLaunching µs")
    }
}

@Suite struct RunSummaryHTMLTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func summaryPageEscapesPathsAndDrawsHistograms() throws {
        var runs = try RunFacts.collect(
            [Self.root + "/Samples/traces/launch-stall.fail.jsonl", Self.root + "/Samples/launches/baseline/run-01.jsonl"],
            options: AnalysisOptions())
        runs[0].path = "<script>alert('path')</script>.jsonl"
        let html = RunSummary(runs: runs).html
        // The page's one script is its own (table sorting); the path's is escaped.
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.contains(HTMLTableSort.script))
        #expect(html.contains("<code>&lt;script&gt;alert(&#39;path&#39;)&lt;/script&gt;.jsonl</code>"))
        #expect(html.contains("<svg class=\"chart\""))
        #expect(html.contains("<rect class=\"bar\""))
    }
}
