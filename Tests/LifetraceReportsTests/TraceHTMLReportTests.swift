import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import Testing

@Suite struct TraceHTMLReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func html(_ relative: String) throws -> String {
        try TraceHTMLReport.make(path: root + "/" + relative, options: AnalysisOptions()).html
    }

    @Test func hostileNamesAreEscaped() throws {
        let html = try Self.html("Samples/reports/hostile-names.jsonl")
        // The only tags are the report's own: no script element, no injected img or b.
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("<b>"))
        #expect(!html.contains("<task>"))
        #expect(html.contains("&lt;script&gt;alert(&#39;app&#39;)&lt;/script&gt;"))
        #expect(html.contains("&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;"))
        #expect(html.contains("scene &lt;script&gt;scene&lt;/script&gt;"))
        #expect(html.contains("&lt;/svg&gt;&lt;script&gt;alert(&quot;sp&quot;)&lt;/script&gt;"))
        // Every svg that opens closes: an injected </svg> would unbalance them.
        #expect(html.components(separatedBy: "<svg").count == html.components(separatedBy: "</svg>").count)
    }

    @Test func pageIsSelfContained() throws {
        let html = try Self.html("Samples/runs/cold-launch-scenes.jsonl")
        #expect(!html.contains("<script"))
        #expect(!html.contains("src="))
        #expect(!html.contains("<link"))
        #expect(!html.contains("http://") || html.components(separatedBy: "http://").count - 1
            == html.components(separatedBy: "xmlns=\"http://www.w3.org/2000/svg\"").count - 1)
    }

    @Test func violationsArePinnedAndLinkedToTheirExplanation() throws {
        let html = try Self.html("Samples/traces/launch-stall.fail.jsonl")
        #expect(html.contains("<a href=\"#violation-1\"><path class=\"pin\""))
        #expect(html.contains("<li id=\"violation-1\" value=\"1\">"))
        #expect(html.contains("<code>launch-stall</code>"))
        // The stall is drawn on the busy row, linked to its zoomed view.
        #expect(html.contains("<a href=\"#stall-1\"><rect class=\"stall\""))
        #expect(html.contains("<h3 id=\"stall-1\">Stall 1</h3>"))
        #expect(html.contains("<h3 id=\"launch-1\">Launch of lifetime 1</h3>"))
    }

    @Test func lanesOfTheSampleRunAreDrawn() throws {
        let html = try Self.html("Samples/runs/cold-launch-scenes.jsonl")
        for label in ["system view", "app view", "scene main", "main thread busy", "callbacks, depth 0", "signposts, depth 0",
                      "background tasks", "marks", "frames"] {
            #expect(html.contains(">\(label)</text>"), "lane \(label)")
        }
        #expect(html.contains("class=\"s2\""))
        #expect(html.contains("class=\"milestone\""))
        #expect(html.contains("<h2 id=\"lifetime-1\">"))
    }

    @Test func standardInputIsRefused() {
        #expect(throws: TraceError.self) { try TraceHTMLReport.make(path: "-", options: AnalysisOptions()) }
    }
}
