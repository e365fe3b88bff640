import Foundation
import LifetraceAnalysis
import LifetraceReports
import LifetraceTestSupport
import Testing

/// The many-run summary page: one percentile definition from its cells to their sources, `diff`
/// and budgets; links to the runs' pages relative to the page, percent-encoded; the work the
/// stalls are blamed on ranked across the runs.
@Suite(.serialized) struct RunSummaryPageTests {
    /// Twelve synthesized traces of 20,000 events (seeds 1 to 12) in `runs/` of a scratch
    /// directory, named with characters a link must encode (`seed #3?%.ltrace`).
    static let fixture: (directory: String, paths: [String]) = {
        let directory = (try? ScratchDirectory.make("summary-page")) ?? NSTemporaryDirectory()
        try? FileManager.default.createDirectory(atPath: directory + "/runs", withIntermediateDirectories: true)
        let paths = (1...12).map { directory + "/runs/seed #\($0)?%.ltrace" }
        for (index, path) in paths.enumerated() {
            _ = try? LifetraceCommand.run(["synth", "--events", "20000", "--seed", String(index + 1), "-o", path])
        }
        return (directory, paths)
    }()

    static let summary: RunSummary? = try? RunSummary(runs: RunFacts.collect(fixture.paths, options: AnalysisOptions()))

    /// `<td class="num"><a href="#ID" ...>TEXT</a>` of the tables, as (ID, TEXT).
    static func linkedCells(_ html: String) -> [(id: String, text: String)] {
        html.components(separatedBy: "<td class=\"num\"><a href=\"#").dropFirst().compactMap { piece in
            guard let id = piece.split(separator: "\"", maxSplits: 1).first,
                let text = piece.components(separatedBy: "\">").dropFirst().first?.components(separatedBy: "</a>").first
            else { return nil }
            return (String(id), text)
        }
    }

    /// The value cell of the row `id` under "Where the figures come from".
    static func sourceValue(_ html: String, id: String) -> String? {
        html.components(separatedBy: "<tr id=\"\(id)\">").dropFirst().first?
            .components(separatedBy: "<td class=\"num\" data-v=\"").dropFirst().first?
            .components(separatedBy: "\">").dropFirst().first?.components(separatedBy: "</td>").first
    }

    @Test func everyPercentileCellPrintsTheFigureOfItsSourceRow() throws {
        let summary = try #require(Self.summary)
        let html = summary.html
        let cells = Self.linkedCells(html).filter { $0.id.hasPrefix("source-") }
        // min, median and max of every row with samples, p90 where there are 10 or more.
        #expect(cells.count >= 20, "\(cells.count) linked cells")
        #expect(cells.contains { $0.id.hasSuffix("-p90") })
        for cell in cells {
            #expect(Self.sourceValue(html, id: cell.id) == cell.text, "\(cell.id): cell \(cell.text)")
        }
    }

    @Test func theSourceSamplesGiveTheFigure() throws {
        let summary = try #require(Self.summary)
        for row in summary.launchRows + summary.busyRows + summary.stallRows {
            for column in RunSummary.columns {
                guard let source = summary.source(row, percent: column.percent) else { continue }
                // Type 7 from the named samples, in hundredths, rounded half up as written.
                let lower = Int64(source.lower.value)
                let upper = Int64(source.upper?.value ?? source.lower.value)
                let hundredths = 100 * lower + Int64(source.hundredths) * (upper - lower)
                let expected: JSONValue = row.metric.unit == .duration
                    ? .int((hundredths + 50) / 100) : .number(Double(hundredths) / 100)
                #expect(RunSummary.value(row, percent: column.percent) == expected, "\(row.metric.key) \(column.title)")
                #expect(source.count == row.distribution.count)
            }
        }
    }

    @Test func diffAndBudgetsUseTheSummarysPercentiles() throws {
        let summary = try #require(Self.summary)
        let runs = summary.runs
        let half = runs.count / 2
        let comparison = RunComparison(
            baseline: Array(runs[..<half]), candidate: Array(runs[half...]), gate: ComparisonGate())
        for row in comparison.rows {
            let candidate = RunSummary.DistributionRow(label: "", metric: row.metric, distribution: row.candidate)
            let written = RunSummary.value(candidate, percent: 50)
            let median: JSONValue? = row.candidateMedian.map { row.metric.unit == .duration ? .int(Int64($0)) : .number($0) }
            #expect(median == written, "\(row.metric.key)")
            for (statistic, percent) in [(Budget.Statistic.p50, 50), (.p90, 90), (.p99, 99), (.max, 100)] {
                let value = statistic.value(row.candidate, unit: row.metric.unit)
                #expect(value == row.metric.unit.percentileValue(row.candidate, percent), "\(row.metric.key) \(statistic)")
            }
        }
        // The JSON of both writes the same median of the same runs.
        let same = RunComparison(baseline: runs, candidate: runs, gate: ComparisonGate())
        let cold = try #require(summary.launchRows.first { $0.metric.key == "launch.cold" })
        guard case .int(let median)? = RunSummary.value(cold, percent: 50) else { Issue.record("no cold median"); return }
        #expect(same.json.contains("\"median\": \(median)"))
        #expect(summary.json.contains("\"median\": \(median)"))
    }

    @Test func runPagesAreNamedAfterTheirTracesAndLinkedFromTheSummarysDirectory() {
        let pages = RunPages(
            summaryPath: "sub/summary.html",
            traces: ["runs/a b#?:%.ltrace", "other/a b#?:%.ltrace", "runs/a b#?:%.ltrace", "/abs/x.jsonl"])
        #expect(pages.folder == "summary-runs")
        #expect(pages.traces == ["runs/a b#?:%.ltrace", "other/a b#?:%.ltrace", "/abs/x.jsonl"])
        #expect(pages.href("runs/a b#?:%.ltrace", lifetime: 2) == "summary-runs/a%20b%23%3F%3A%25.ltrace.html#lifetime-3")
        #expect(pages.href("other/a b#?:%.ltrace", lifetime: 0) == "summary-runs/a%20b%23%3F%3A%25.ltrace-2.html#lifetime-1")
        #expect(pages.file("runs/a b#?:%.ltrace", summaryPath: "sub/summary.html") == "sub/summary-runs/a b#?:%.ltrace.html")
        #expect(pages.file("/abs/x.jsonl", summaryPath: "summary.html") == "summary-runs/x.jsonl.html")
        #expect(pages.href("unlinked.ltrace", lifetime: 0) == nil)
        #expect(RunPages(summaryPath: "/tmp/out/report.v2.html", traces: []).folder == "report.v2-runs")
        // Non-ASCII names are encoded byte by byte (UTF-8).
        #expect(RunPages(summaryPath: "s.html", traces: ["é.ltrace"]).href("é.ltrace", lifetime: 0) == "s-runs/%C3%A9.ltrace.html#lifetime-1")
    }

    @Test func blamedWorkIsRankedByShareOfStallTimeAcrossRuns() throws {
        let summary = try #require(Self.summary)
        let work = summary.blamedWork
        #expect(!work.isEmpty)
        let totals = work.map(\.total)
        #expect(totals == totals.sorted(by: >))
        // Every listed stall is counted once, under one work.
        let stalls = summary.runs.flatMap(\.lifetimes).reduce(0) { $0 + $1.stalls.count }
        #expect(work.reduce(0) { $0 + $1.stalls } == stalls)
        let time = summary.runs.flatMap(\.lifetimes).flatMap(\.stalls).reduce(Int64(0), +)
        #expect(work.reduce(Int64(0)) { $0 + $1.total } == time)
        for entry in work {
            #expect(entry.runs >= 1 && entry.runs <= min(entry.stalls, summary.runs.count))
            // The longest is one of its stalls, and none of its stalls is longer.
            let lifetime = try #require(summary.runs.first { $0.path == entry.longest.path }?.lifetimes.first { $0.index == entry.longest.lifetime })
            #expect(lifetime.stalls.contains(entry.longest.value))
        }
        let html = summary.html
        #expect(html.contains("<h2 id=\"blamed-work\">Blamed work by share of stall time"))
        let first = try #require(work.first)
        #expect(html.contains("<td>\(HTMLText.escape(first.work))</td>"))
    }

    /// `report runs/ --format html -o sub/summary.html` from the fixture's directory: every link
    /// that leaves the page, resolved from `sub/`, is a page written beside it with the anchor it
    /// names.
    @Test func theSummaryFileLinksToRunPagesBesideIt() throws {
        let directory = Self.fixture.directory
        let result = try ChildProcess.run("/bin/sh", [
            "-c", "cd \"$1\" && exec \"$2\" report runs --format html -o sub/summary.html", "sh", directory, LifetraceCommand.path,
        ])
        #expect(result.status == 0, "\(result.error)")
        let html = try String(contentsOfFile: directory + "/sub/summary.html", encoding: .utf8)
        let hrefs = html.components(separatedBy: "<a class=\"run\" href=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(hrefs.count > 20)
        for href in Set(hrefs) {
            #expect(href.hasPrefix("summary-runs/"), "\(href)")
            #expect(!href.contains(" ") && !href.contains("?") && href.components(separatedBy: "#").count == 2, "\(href)")
            let parts = href.components(separatedBy: "#")
            let file = directory + "/sub/" + (parts[0].removingPercentEncoding ?? parts[0])
            let page = try String(contentsOfFile: file, encoding: .utf8)
            #expect(page.contains("id=\"\(parts[1])\""), "\(href): no \(parts[1])")
        }
        // Without pages, no links leave the page.
        let plain = try ChildProcess.run("/bin/sh", [
            "-c", "cd \"$1\" && exec \"$2\" report runs --format html --no-run-pages -o plain.html", "sh", directory, LifetraceCommand.path,
        ])
        #expect(plain.status == 0, "\(plain.error)")
        let text = try String(contentsOfFile: directory + "/plain.html", encoding: .utf8)
        #expect(!text.contains("<a class=\"run\""))
        #expect(!FileManager.default.fileExists(atPath: directory + "/plain-runs"))
    }

    /// Clicks every distinct link to a run on the written summary, in headless Chromium, into a
    /// frame: each opens the run's page at the lifetime it names.
    @Test(.enabled(if: BrowserInteractionTests.enabled, "Chromium not found (install Debian's chromium; make test does)"))
    func aClickOnARunOpensItsPageAtTheLifetime() throws {
        let browser = try #require(BrowserRenderingTests.browser, "CI is set and no chromium is on the PATH")
        let directory = Self.fixture.directory
        let written = try ChildProcess.run("/bin/sh", [
            "-c", "cd \"$1\" && exec \"$2\" report runs --format html -o clicked/summary.html", "sh", directory, LifetraceCommand.path,
        ])
        #expect(written.status == 0, "\(written.error)")
        let html = try String(contentsOfFile: directory + "/clicked/summary.html", encoding: .utf8)
        // Each link clicked into a frame of its own while the page loads, so that the page's load
        // waits for every run's page; then what each frame shows.
        let driver = """
            <pre id="driven"></pre>
            <script>
            (function () {
              var out = {visits: []}, pre = document.getElementById('driven'), seen = {};
              var links = Array.prototype.filter.call(document.querySelectorAll('a.run'), function (a) {
                var href = a.getAttribute('href'); if (seen[href]) return false; seen[href] = true; return true;
              });
              out.links = links.length;
              var frames = links.map(function (a, i) {
                var frame = document.createElement('iframe'); frame.name = 'probe-' + i; document.body.appendChild(frame);
                a.target = frame.name; a.click(); return frame;
              });
              window.addEventListener('load', function () {
                frames.forEach(function (frame, i) {
                  var visit = {href: links[i].getAttribute('href')};
                  try {
                    var id = decodeURIComponent(frame.contentWindow.location.hash.slice(1));
                    var target = frame.contentDocument.getElementById(id);
                    visit.file = decodeURIComponent(frame.contentWindow.location.pathname.split('/').pop());
                    visit.target = target ? target.tagName + ' ' + target.textContent.slice(0, 40) : null;
                  } catch (error) { visit.error = String(error); }
                  out.visits.push(visit);
                });
                pre.textContent = JSON.stringify(out);
              });
            })();
            </script>
            """
        let page = directory + "/clicked/driven.html"
        try html.replacingOccurrences(of: "</body>", with: driver + "</body>").write(toFile: page, atomically: true, encoding: .utf8)
        let dom = try ChildProcess.run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
            "--dump-dom", URL(fileURLWithPath: page).absoluteString,
        ]).output
        let text = try #require(
            dom.components(separatedBy: "<pre id=\"driven\">").dropFirst().first?.components(separatedBy: "</pre>").first)
        let json = text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let visits = try #require(result["visits"] as? [[String: Any]])
        #expect((result["links"] as? Int ?? 0) > 10)
        #expect(visits.count == result["links"] as? Int, "\(visits.count) of \(result["links"] ?? 0) links followed")
        for visit in visits {
            #expect(visit["error"] == nil, "\(visit)")
            // The run's own page, at its lifetime.
            let file = visit["file"] as? String ?? ""
            #expect(file.hasPrefix("seed #") && file.hasSuffix("?%.ltrace.html"), "\(visit)")
            // The lifetime the link names: its heading, or its row among the other lifetimes.
            let number = (visit["href"] as? String)?.components(separatedBy: "#lifetime-").last ?? "?"
            let target = visit["target"] as? String ?? ""
            #expect(target.hasPrefix("H2 Lifetime \(number):") || target.hasPrefix("TR \(number)"), "\(visit)")
        }
    }
}
