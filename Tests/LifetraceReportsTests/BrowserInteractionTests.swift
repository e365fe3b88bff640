import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceReports
import LifetraceTestSupport
import Testing

/// Drives the pages in headless Chromium as a reader would: follows every in-page link, sorts a
/// table by a click on its column's title, steps through the matches of a search with Next, and
/// zooms a stall's view down to microseconds. Each driver is a script added before `</body>` that
/// writes what it saw into `<pre id="driven">` as JSON, read back from `--dump-dom`. Skipped when
/// Chromium is missing, except under CI.
@Suite(.serialized) struct BrowserInteractionTests {
    static let enabled = BrowserRenderingTests.browser != nil || BrowserRenderingTests.underCI

    /// A 100,000-event synthesized trace (17 lifetimes, 14 stalls), written once.
    static let synthesized: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-interaction-\(UUID().uuidString).ltrace").path
        _ = try? LifetraceCommand.run(["synth", "--events", "100000", "--seed", "1", "-o", path])
        return path
    }()

    /// What the driver wrote, parsed.
    static func driven(_ html: String, driver: String) throws -> [String: Any] {
        let page = html.replacingOccurrences(of: "</body>", with: "<script>\n(function () {\nvar out = {};\n" + driver
            + "\nvar pre = document.createElement('pre'); pre.id = 'driven'; pre.textContent = JSON.stringify(out);"
            + " document.body.appendChild(pre);\n})();\n</script>\n</body>")
        let dom = try BrowserRenderingTests.domAfterScripts(page, fragment: "")
        let text = try #require(
            dom.components(separatedBy: "<pre id=\"driven\">").dropFirst().first?.components(separatedBy: "</pre>").first,
            "the driver did not run")
        let json = text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json.prefix(300))")
    }

    /// Every `href="#..."` of the page, and how many lead nowhere.
    static let linkDriver = """
        var links = document.querySelectorAll('a[href^="#"]'), missing = [];
        Array.prototype.forEach.call(links, function (a) {
          var id = decodeURIComponent(a.getAttribute('href').slice(1));
          if (!document.getElementById(id)) missing.push(id);
        });
        out.links = links.length; out.missing = missing.slice(0, 10);
        """

    @Test(.enabled(if: enabled, "Chromium not found (install Debian's chromium; make test does)"))
    func theWorstComeFirstAndEveryLinkLeadsSomewhere() throws {
        let report = try TraceHTMLReport.make(path: Self.synthesized, options: AnalysisOptions())
        let html = report.html
        let longest = try #require(WorstFirst.longestStalls(report.analysis, limit: 1).first)
        let slowest = try #require(WorstFirst.slowestLaunches(report.analysis, kind: .cold, limit: 1).first)
        // The first zoomed stall is the longest one, the first zoomed launch the slowest cold one.
        let stallViews = html.components(separatedBy: "<h3 id=\"stall-").dropFirst().map { $0.prefix { $0.isNumber } }
        #expect(stallViews.first.map(String.init) == String(longest.number))
        let launchViews = html.components(separatedBy: "<h3 id=\"launch-").dropFirst().map { $0.prefix { $0.isNumber } }
        #expect(launchViews.first.map(String.init) == String(slowest.index + 1))
        let result = try Self.driven(html, driver: Self.linkDriver + """
            var rows = document.querySelectorAll('#longest-stalls + table tr');
            out.firstStallLink = rows[1].cells[1].querySelector('a').getAttribute('href');
            out.firstStallTarget = document.querySelector(out.firstStallLink).tagName;
            """)
        #expect((result["links"] as? Int ?? 0) > 50)
        #expect((result["missing"] as? [String]) == [], "links to nowhere: \(result["missing"] ?? "")")
        #expect(result["firstStallLink"] as? String == "#stall-\(longest.number)")
        #expect(result["firstStallTarget"] as? String == "H3")
    }

    @Test(.enabled(if: enabled, "Chromium not found (install Debian's chromium; make test does)"))
    func aClickOnAColumnTitleSortsTheTable() throws {
        let html = try TraceHTMLReport.make(path: Self.synthesized, options: AnalysisOptions()).html
        let result = try Self.driven(html, driver: """
            var table = document.querySelector('#longest-stalls + table'), header = table.rows[0].cells[5];
            function column() {
              return Array.prototype.slice.call(table.rows, 1).map(function (row) { return Number(row.cells[5].getAttribute('data-v')); });
            }
            out.before = column();
            header.click(); out.ascending = column(); out.ascendingMark = header.getAttribute('aria-sort');
            header.click(); out.descending = column(); out.descendingMark = header.getAttribute('aria-sort');
            var lifetimes = document.querySelector('table.lifetimes'), launchTime = lifetimes.rows[0].cells[3];
            launchTime.click(); launchTime.click();
            out.slowestInIndex = lifetimes.rows[1].cells[0].textContent;
            """)
        let before = try #require(result["before"] as? [Double])
        let ascending = try #require(result["ascending"] as? [Double])
        let descending = try #require(result["descending"] as? [Double])
        #expect(before.count == 10)
        #expect(before == before.sorted(by: >), "the report writes the longest first")
        #expect(ascending == before.sorted())
        #expect(descending == before.sorted(by: >))
        #expect(result["ascendingMark"] as? String == "ascending")
        #expect(result["descendingMark"] as? String == "descending")
        let report = try TraceHTMLReport.make(path: Self.synthesized, options: AnalysisOptions())
        // The index sorts every lifetime by its launch's duration, whatever its kind.
        let slowest = try #require(report.analysis.lifetimes.filter { $0.launch.duration != nil }
            .max { ($0.launch.duration ?? 0, $1.index) < ($1.launch.duration ?? 0, $0.index) })
        #expect(result["slowestInIndex"] as? String == String(slowest.index + 1))
    }

    @Test(.enabled(if: enabled, "Chromium not found (install Debian's chromium; make test does)"))
    func nextAndPreviousStepThroughTheMatches() throws {
        let html = try TraceHTMLReport.make(path: Self.synthesized, options: AnalysisOptions()).html
        let result = try Self.driven(html, driver: """
            var input = document.getElementById('find'), found = document.getElementById('found');
            input.value = 'keychain.read'; input.dispatchEvent(new Event('input'));
            out.count = found.textContent;
            var next = document.querySelector('.find-next'), previous = document.querySelector('.find-previous');
            next.click(); out.first = found.textContent;
            var first = document.querySelector('.current');
            next.click(); out.second = found.textContent;
            out.moved = document.querySelector('.current') !== first;
            out.currents = document.querySelectorAll('.current').length;
            previous.click(); out.back = found.textContent; out.backToFirst = document.querySelector('.current') === first;
            previous.click(); out.wrapped = found.textContent;
            """)
        let count = try #require(result["count"] as? String)
        let total = try #require(Int(count.prefix { $0.isNumber }), "\(count)")
        #expect(total >= 3, "\(count)")
        #expect(result["first"] as? String == "1 of \(total) bars match")
        #expect(result["second"] as? String == "2 of \(total) bars match")
        #expect(result["moved"] as? Bool == true)
        #expect(result["currents"] as? Int == 1)
        #expect(result["back"] as? String == "1 of \(total) bars match")
        #expect(result["backToFirst"] as? Bool == true)
        #expect(result["wrapped"] as? String == "\(total) of \(total) bars match")
    }

    @Test(.enabled(if: enabled, "Chromium not found (install Debian's chromium; make test does)"))
    func zoomDrawsTheStallAgainDownToMicroseconds() throws {
        let report = try TraceHTMLReport.make(path: Self.synthesized, options: AnalysisOptions())
        let longest = try #require(WorstFirst.longestStalls(report.analysis, limit: 1).first)
        let result = try Self.driven(report.html, driver: """
            var heading = document.getElementById('stall-\(longest.number)');
            var svg = heading.nextElementSibling.nextElementSibling.nextElementSibling.querySelector('svg');
            var bar = heading.nextElementSibling.nextElementSibling;
            var time = svg.getAttribute('data-time').split(' ').map(Number), plot = svg.getAttribute('data-plot').split(' ').map(Number);
            var stall = svg.querySelector('rect.stall');
            function labels() {
              return Array.prototype.map.call(svg.querySelectorAll('text.axis:not(.coarse)'), function (t) { return t.textContent; });
            }
            function coarse() {
              return Array.prototype.map.call(svg.querySelectorAll('text.axis.coarse'), function (t) { return t.textContent; });
            }
            out.coarse = coarse();
            out.bucketRects = svg.querySelectorAll('g.plot > rect:not(.launch)').length;
            for (var i = 0; i < 30; i++) bar.querySelector('.zoom-in').click();
            out.zoom = Number(svg.getAttribute('data-zoom'));
            out.nsPerPixel = time[0] / plot[1] / out.zoom;
            out.fine = labels();
            out.detailed = svg.classList.contains('detailed');
            out.detailRects = svg.querySelectorAll('g.detail rect').length;
            out.bucketsHidden = getComputedStyle(svg.querySelector('rect.bucketed')).display;
            // The spans drawn again come after (above) the launch windows and the axis, as the rows do.
            var detail = svg.querySelector('g.detail'), below = svg.querySelectorAll('rect.launch, text.axis.coarse');
            out.detailOnTop = Array.prototype.every.call(below, function (e) {
              return (detail.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING) !== 0;
            }) && below.length > 0;
            // The stall is placed by its time: its left edge where its data-t falls in the view.
            var from = Number(svg.getAttribute('data-from'));
            out.stallX = Number(stall.getAttribute('x'));
            out.stallExpected = plot[0] + (Number(stall.getAttribute('data-t')) / time[0] * plot[1] - from) * out.zoom;
            bar.querySelector('.zoom-reset').click();
            out.reset = Number(svg.getAttribute('data-zoom'));
            out.detailAfterReset = svg.querySelectorAll('g.detail rect').length;
            out.coarseAfterReset = coarse();
            """)
        let coarse = try #require(result["coarse"] as? [String])
        #expect(coarse.count >= 3)
        #expect(Set(coarse).count == coarse.count, "axis labels repeat: \(coarse)")
        // Zoomed as far as it goes: a pixel is a tenth of a microsecond, drawn from the spans.
        let perPixel = try #require(result["nsPerPixel"] as? Double)
        #expect(perPixel <= Double(HTMLZoom.finestNanosecondsPerPixel) + 0.001, "\(perPixel) ns per pixel")
        #expect(result["detailed"] as? Bool == true)
        #expect((result["detailRects"] as? Int ?? 0) >= 1)
        #expect(result["bucketsHidden"] as? String == "none")
        #expect(result["detailOnTop"] as? Bool == true)
        let fine = try #require(result["fine"] as? [String])
        #expect(fine.count >= 3, "\(fine)")
        #expect(Set(fine).count == fine.count, "ticks repeat at the finest zoom: \(fine)")
        // Neighbouring ticks are 20 µs apart or closer, and their labels say so.
        let times = fine.compactMap(Self.nanoseconds)
        #expect(times.count == fine.count, "\(fine)")
        #expect(times.count >= 2 && times[1] - times[0] > 0 && times[1] - times[0] <= 20_000, "\(fine)")
        let stallX = try #require(result["stallX"] as? Double)
        let expected = try #require(result["stallExpected"] as? Double)
        #expect(abs(stallX - expected) < 0.5, "\(stallX) against \(expected)")
        #expect(result["reset"] as? Double == 1)
        #expect(result["detailAfterReset"] as? Int == 0)
        #expect(result["coarseAfterReset"] as? [String] == coarse)
    }

    /// An axis label (`+92.648010 s`, `+850.5 ms`) in nanoseconds.
    static func nanoseconds(_ label: String) -> Double? {
        let parts = label.split(separator: " ")
        guard parts.count == 2, let value = Double(parts[0]) else { return nil }
        let scale: [Substring: Double] = ["s": 1e9, "ms": 1e6, "µs": 1e3, "ns": 1]
        return scale[parts[1]].map { value * $0 }
    }

    /// A summary of the sample launches, with links to the sample of each figure.
    @Test(.enabled(if: enabled, "Chromium not found (install Debian's chromium; make test does)"))
    func theSummaryLinksEveryFigureToItsRunAndSorts() throws {
        let root = BrowserRenderingTests.root
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root + "/Samples/launches").filter { $0.hasSuffix(".jsonl") }
            .sorted().map { root + "/Samples/launches/" + $0 }
        let summary = RunSummary(runs: try RunFacts.collect(paths, options: AnalysisOptions()))
        let html = summary.html
        let result = try Self.driven(html, driver: Self.linkDriver + """
            var cell = document.querySelector('td a[href^="#source-launch.cold-max"]');
            out.maxCell = cell ? cell.textContent : null;
            var row = cell ? document.getElementById(cell.getAttribute('href').slice(1)) : null;
            out.maxRow = row ? row.cells[1].textContent + ' | ' + row.cells[3].textContent : null;
            var table = document.querySelector('#groups + p + table'), header = table.rows[0].cells[3];
            header.click(); header.click();
            out.sortedTraces = Array.prototype.slice.call(table.rows, 1).map(function (r) { return Number(r.cells[3].textContent); });
            """)
        #expect((result["missing"] as? [String]) == [], "links to nowhere: \(result["missing"] ?? "")")
        #expect((result["links"] as? Int ?? 0) >= 6)
        let launch = try #require(summary.launchRows.first)
        let witness = try #require(summary.witness(launch, percent: 100))
        #expect(result["maxCell"] as? String == summary.cells(launch)[6])
        // The figure's row prints the same figure, and the sample it is.
        let maxCell = summary.cells(launch)[6]
        #expect(result["maxRow"] as? String == "\(maxCell) | \(witness.path), lifetime \(witness.lifetime + 1): \(maxCell)")
        let traces = try #require(result["sortedTraces"] as? [Double])
        #expect(traces == traces.sorted(by: >))
        #expect(traces.reduce(0, +) == Double(paths.count))
    }
}
