import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceTestSupport
import Testing

@Suite struct TraceHTMLReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func html(_ relative: String) throws -> String {
        try TraceHTMLReport.make(path: root + "/" + relative, options: AnalysisOptions()).html
    }

    @Test("Axis labels stay inside the plot: one that would run past its right edge ends at its tick", arguments: [
        "Samples/rules/traces/save-state-before-suspension.fail.jsonl", "Samples/runs/cold-launch-scenes.jsonl",
        "Samples/traces/launch-stall.fail.jsonl",
    ])
    func axisLabelsStayInsideThePlot(sample: String) throws {
        let html = try Self.html(sample)
        var checked = 0
        for svg in html.components(separatedBy: "<svg").dropFirst() where svg.contains("data-plot=\"") {
            let plot = svg.components(separatedBy: "data-plot=\"")[1].prefix { $0 != "\"" }.split(separator: " ").compactMap { Int($0) }
            guard plot.count == 2 else { continue }
            let right = plot[0] + plot[1] + 10
            for label in svg.components(separatedBy: "<text class=\"axis coarse\" x=\"").dropFirst() {
                guard let x = Int(label.prefix { $0 != "\"" }), let text = label.split(separator: ">").dropFirst().first?.prefix(while: { $0 != "<" })
                else { continue }
                checked += 1
                if label.contains("text-anchor=\"end\"") {
                    #expect(x <= right, "\(sample): \(text)")
                } else {
                    #expect(x + TimelineSVG.textWidth(String(text), size: 10) <= right, "\(sample): \(text) runs past the plot")
                }
            }
        }
        #expect(checked > 10)
    }

    @Test func hostileNamesAreEscaped() throws {
        let html = try Self.html("Samples/reports/hostile-names.jsonl")
        // The only tags are the report's own: its three scripts, no injected script, img or b.
        #expect(html.components(separatedBy: "<script").count == 4)
        #expect(html.contains(HTMLSearch.script))
        #expect(html.contains(HTMLZoom.script))
        #expect(html.contains(HTMLTableSort.script))
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
        // Three inline scripts (find by name, zoom and pan, table sorting), which load and fetch nothing.
        #expect(html.components(separatedBy: "<script").count == 4)
        #expect(html.contains("<script>\n(function () {"))
        for loader in ["src=", "fetch(", "XMLHttpRequest", "import(", "WebSocket", "<iframe"] {
            #expect(!html.contains(loader), "\(loader)")
        }
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
        #expect(html.contains(
            "<h3 id=\"stall-1\">Stall 1: lifetime 1, at +0.010 s into the trace (10 ms after its launch), 400 ms in didFinishLaunching &gt; loadDatabase</h3>"))
        #expect(html.contains("<h3 id=\"launch-1\">Launch of lifetime 1 (cold)</h3>"))
    }

    @Test("each listed violation says why once: on its fact line, not also inside its message")
    func eachViolationSaysWhyOnce() throws {
        let rules = Self.root + "/Samples/rules"
        let pages = try ["launch-stall", "background-callback", "resign-before-background"].map {
            try LifetraceCommand.run(["report", "--format", "html", SampleTraces.path("\($0).fail.jsonl")]).output
        } + ["save-state-before-suspension", "no-long-stall-while-active"].map {
            try LifetraceCommand.run(["report", "--format", "html", "--rules", rules + "/team.yml", rules + "/traces/\($0).fail.jsonl"]).output
        }
        for html in pages {
            let listed = html.components(separatedBy: "<li id=\"violation-").count - 1
            #expect(listed > 0)
            #expect(html.components(separatedBy: "Why: ").count - 1 == listed)
            #expect(html.components(separatedBy: "<p class=\"fact\">Why: ").count - 1 == listed)
        }
    }

    @Test func lanesOfTheSampleRunAreDrawn() throws {
        let html = try Self.html("Samples/runs/cold-launch-scenes.jsonl")
        for label in ["system view", "app view", "scene main", "main thread busy", "callbacks, depth 0", "signposts, depth 0",
                      "background tasks", "marks", "frames"] {
            #expect(html.contains(">\(label)</text>"), "lane \(label)")
        }
        #expect(html.contains("class=\"s2\""))
        #expect(html.contains("class=\"milestone\""))
        #expect(html.contains("<h2 id=\"lifetime-1\" title=\"launch at 183402117250000 ns on the trace's clock\">"))
        // Times relative to the trace, not the clock's raw nanoseconds.
        #expect(html.contains("Lifetime 1: cold launch (reason user, pid 4121, at +0.000 s into the trace)"))
    }

    @Test func namesOnBarsWhereTheyFitAndMilestoneLabelsApart() throws {
        let html = try Self.html("Samples/traces/launch-stall.fail.jsonl")
        // In the launch view the 370 ms signpost and the 400 ms callback are wide enough for their names.
        #expect(html.contains(">loadDatabase</text>"))
        #expect(html.contains(">didFinishLaunching</text>"))
        // The milestone labels of each view: no two on one row overlap.
        for svg in html.components(separatedBy: "<svg").dropFirst() {
            var rows: [String: [(Int, Int)]] = [:]
            for label in svg.components(separatedBy: "<text class=\"milestone\" x=\"").dropFirst() {
                let x = Int(label.prefix { $0.isNumber }) ?? 0
                let y = label.components(separatedBy: "y=\"")[1].prefix { $0.isNumber }
                let text = label.components(separatedBy: ">")[1].components(separatedBy: "<")[0]
                rows[String(y), default: []].append((x, x + text.count * 6))
            }
            for spans in rows.values {
                let sorted = spans.sorted { $0.0 < $1.0 }
                for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.1 <= b.0, "milestone labels overlap: \(sorted)") }
            }
        }
    }

    @Test func severalLifetimesHaveAnIndexLinkingToEach() throws {
        let one = try Self.html("Samples/traces/hang.pass.jsonl")
        #expect(!one.contains("<details id=\"lifetimes\""), "one lifetime needs no index")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-two-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try """
            {"ts":1000000000,"type":"launch","reason":"user"}
            {"ts":1001000000,"type":"callback","name":"willFinishLaunching","dur":5000000}
            {"ts":1010000000,"type":"callback","name":"didFinishLaunching","dur":40000000}
            {"ts":1060000000,"type":"callback","name":"didBecomeActive","dur":2000000}
            {"ts":2000000000,"type":"exit","signal":9}
            {"ts":5000000000,"type":"launch","reason":"user"}
            {"ts":5001000000,"type":"callback","name":"willFinishLaunching","dur":5000000}
            {"ts":5010000000,"type":"callback","name":"didFinishLaunching","dur":40000000}

            """.write(toFile: path, atomically: true, encoding: .utf8)
        let html = try TraceHTMLReport.make(path: path, options: AnalysisOptions()).html
        #expect(html.contains("<details id=\"lifetimes\" open><summary>2 lifetimes:"))
        #expect(html.contains("<tr><td><a href=\"#lifetime-2\">2</a></td><td><span title=\"5000000000 ns on the trace's clock\">+4.000 s</span></td>"))
        #expect(html.contains("<a href=\"#launch-2\">view</a>"))
        #expect(html.contains("<h2 id=\"lifetime-2\""))
        // The overview: a row per lifetime linked to its details, above the whole trace.
        let overview = try #require(html.components(separatedBy: "<svg class=\"overview\"").dropFirst().first)
        #expect(overview.contains("<a href=\"#lifetime-1\"><text class=\"lane\" x=\"4\" y=\"12\">Lifetime 1</text></a>"))
        #expect(overview.contains("<a href=\"#lifetime-2\"><text class=\"lane\" x=\"4\" y=\"27\">Lifetime 2</text></a>"))
        #expect(overview.contains(">1.000 s; cold launch 62 ms</text>"))
        #expect(html.contains("<h2 id=\"timeline\">Whole trace</h2>"))
    }

    @Test func manyLifetimesAreARowEachInsteadOfABarcode() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-many-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var lines = ""
        for index in 0..<45 {
            let base = Int64(index) * 10_000_000_000
            lines += """
                {"ts":\(base),"type":"launch","reason":"user"}
                {"ts":\(base + 1_000_000),"type":"callback","name":"willFinishLaunching","dur":5000000}
                {"ts":\(base + 10_000_000),"type":"callback","name":"didFinishLaunching","dur":40000000}
                {"ts":\(base + 60_000_000),"type":"callback","name":"didBecomeActive","dur":2000000}
                {"ts":\(base + 100_000_000),"type":"callback.begin","name":"tableView(_:cellForRowAt:)"}
                {"ts":\(base + 600_000_000),"type":"callback.end","name":"tableView(_:cellForRowAt:)"}
                {"ts":\(base + 9_000_000_000),"type":"exit","signal":9}

                """
        }
        try lines.write(toFile: path, atomically: true, encoding: .utf8)
        let html = try TraceHTMLReport.make(path: path, options: AnalysisOptions()).html
        #expect(!html.contains("id=\"timeline\""), "past \(TraceHTMLReport.wholeTraceLifetimeLimit) lifetimes the overview replaces the whole trace")
        let overview = try #require(html.components(separatedBy: "<svg class=\"overview\"").dropFirst().first?
            .components(separatedBy: "</svg>").first)
        #expect(overview.components(separatedBy: "<text class=\"lane\"").count - 1 == 45)
        #expect(overview.contains("<a href=\"#lifetime-45\">"))
        // Each lifetime from its launch: the stall 100 ms into its 9 s, linked to its view.
        let x = LifetimeOverviewSVG.labelWidth + LifetimeOverviewSVG.buckets / 90
        #expect(overview.contains("<a href=\"#stall-1\"><rect class=\"stall\" x=\"\(x)\" y=\"2\""))
        #expect(overview.contains(">9.000 s; cold launch 62 ms, 1 stall</text>"))
        // Still relative to the trace's first event without the whole-trace view.
        #expect(html.contains("<span title=\"440000000000 ns on the trace's clock\">+7 min 20 s</span>")
            || html.contains("440000000000 ns on the trace's clock"))
    }

    @Test func nestedSignpostsHaveARowPerDepth() throws {
        let html = try Self.html("Samples/reports/nested-signposts.jsonl")
        let svg = try #require(html.components(separatedBy: "<svg class=\"timeline\"").dropFirst().first?
            .components(separatedBy: "</svg>").first)
        func rowOf(_ name: String) -> Int? {
            guard let before = svg.components(separatedBy: "\">\(name)</text>").first?.components(separatedBy: "y=\"").last
            else { return nil }
            return Int(before.prefix { $0.isNumber })
        }
        for depth in 0...3 { #expect(svg.contains(">signposts, depth \(depth)</text>")) }
        let rows = ["setUpStore", "openDatabase", "migrateSchema", "rewriteIndex"].map(rowOf)
        #expect(rows.allSatisfy { $0 != nil }, "\(rows)")
        let ys = rows.compactMap { $0 }
        #expect(ys == ys.sorted() && Set(ys).count == 4, "each depth on its own row: \(ys)")
        // Siblings share their depth's row and stay apart.
        #expect(rowOf("warmCache") == rowOf("openDatabase"))
        #expect(rowOf("vacuum") == rowOf("rewriteIndex"))
    }

    @Test func standardInputIsRefused() {
        #expect(throws: TraceError.self) { try TraceHTMLReport.make(path: "-", options: AnalysisOptions()) }
    }
}
