import Foundation
import LifetraceAnalysis
import LifetraceReports
import LifetraceTestSupport
import Testing

/// Renders the HTML report in headless Chromium and checks the screenshot: not blank, and the
/// lane colours of the style sheet are there (the states, busy intervals, callbacks). Skipped
/// when Chromium is missing, except under CI (`CI` set), where a missing browser fails.
@Suite struct BrowserRenderingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The first Chromium found on the PATH.
    static let browser = ["chromium", "chromium-browser", "google-chrome"].lazy.compactMap(ChildProcess.onPath).first

    static let underCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false

    @Test(.enabled(if: browser != nil || underCI, "Chromium not found (install Debian's chromium; make test does)"))
    func screenshotShowsTheLanes() throws {
        let browser = try #require(Self.browser, "CI is set and no chromium, chromium-browser or google-chrome is on the PATH")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html").path
        let picture = directory.appendingPathComponent("report.png").path
        let html = try TraceHTMLReport.make(path: Self.root + "/Samples/runs/cold-launch-scenes.jsonl", options: AnalysisOptions()).html
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        _ = try ChildProcess.run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--screenshot=\(picture)",
            "--window-size=1400,1000", "file://\(page)",
        ])
        #expect(FileManager.default.fileExists(atPath: picture), "Chromium wrote no screenshot")
        let colours = ["s1", "s2", "s3", "busy", "cb", "sp", "task"]
        let hex = colours.map { name in HTMLStyle.colours.first { $0.name == name }!.hex }
        let check = try ChildProcess.run("/usr/bin/env", ["python3", Self.root + "/scripts/png-colours.py", picture] + hex)
        #expect(check.status == 0)
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any], "no result from the PNG check")
        #expect(result["width"] as? Int == 1400)
        #expect((result["distinct"] as? Int ?? 0) > 50, "the page looks blank")
        #expect((result["nonWhite"] as? Double ?? 0) > 0.05, "the page looks blank")
        let counts = result["counts"] as? [String: Int] ?? [:]
        for (name, colour) in zip(colours, hex) {
            // A lane drawn at least a few pixels wide over a 12 px row.
            #expect((counts[colour] ?? 0) >= 24, "lane colour \(name) (\(colour)) missing from the screenshot")
        }
    }

    /// The page with the search applied from the address, as Chromium leaves the document.
    static func domAfterScripts(_ html: String, fragment: String) throws -> String {
        let browser = try #require(Self.browser, "CI is set and no chromium, chromium-browser or google-chrome is on the PATH")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html").path
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        return try ChildProcess.run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://\(page)#\(fragment)",
        ]).output
    }

    @Test(.enabled(if: browser != nil || underCI, "Chromium not found (install Debian's chromium; make test does)"))
    func findByNameOutlinesTheMatchingBars() throws {
        let html = try TraceHTMLReport.make(path: Self.root + "/Samples/traces/launch-stall.fail.jsonl", options: AnalysisOptions()).html
        let found = try Self.domAfterScripts(html, fragment: "find=loadDatabase")
        #expect(found.contains("<body class=\"finding\">"))
        #expect(found.contains("<input type=\"search\" id=\"find\""))
        // The signpost's bar in each view, and each stall (its title names the work).
        let count = found.components(separatedBy: "<span id=\"found\">").dropFirst().first?.prefix { $0.isNumber }
        #expect((Int(count ?? "") ?? 0) >= 3, "\(found.components(separatedBy: "<span id=\"found\">").dropFirst().first?.prefix(40) ?? "no count")")
        // The drawn buckets are marked `bucketed` by the zoom, which draws the spans again instead.
        #expect(found.contains("class=\"sp o4 hit bucketed\""))
        #expect(found.contains("class=\"stall hit\""))
        #expect(!found.contains("class=\"s2 hit bucketed\""))
        // Nothing searched: nothing outlined, nothing dimmed.
        let plain = try Self.domAfterScripts(html, fragment: "")
        #expect(!plain.contains(" hit\""))
        #expect(!plain.contains("class=\"finding\""))
        let none = try Self.domAfterScripts(html, fragment: "find=noSuchName")
        #expect(none.contains("<span id=\"found\">0 bars match</span>"))
    }

    /// Clicks `+` twice on the first timeline, drags it 200 px to the left, and writes what the
    /// page then shows into the document's title; then presses Reset and does the same.
    static let zoomDriver = """
        <script>
        (function () {
          var svg = document.querySelector('svg.timeline'), bar = document.querySelector('p.zoom');
          var box = svg.getBoundingClientRect(), rect = svg.querySelector('g.plot rect.launch');
          function state() {
            return [svg.getAttribute('data-zoom'), svg.getAttribute('data-from'), rect.getAttribute('x'),
              rect.getAttribute('width'), svg.querySelectorAll('text.axis.fine:not([style*="none"])').length].join(' ');
          }
          var before = state();
          bar.querySelector('.zoom-in').click();
          bar.querySelector('.zoom-in').click();
          var zoomed = state();
          svg.dispatchEvent(new MouseEvent('mousedown', { clientX: box.left + 600, button: 0, bubbles: true }));
          window.dispatchEvent(new MouseEvent('mousemove', { clientX: box.left + 400 }));
          window.dispatchEvent(new MouseEvent('mouseup', {}));
          var panned = state();
          bar.querySelector('.zoom-reset').click();
          document.title = 'before ' + before + '; zoomed ' + zoomed + '; panned ' + panned + '; reset ' + state() + ';';
        })();
        </script>
        """

    @Test(.enabled(if: browser != nil || underCI, "Chromium not found (install Debian's chromium; make test does)"))
    func zoomAndPanMoveTheTimeline() throws {
        let html = try TraceHTMLReport.make(path: Self.root + "/Samples/runs/cold-launch-scenes.jsonl", options: AnalysisOptions()).html
        // Without the script: no buttons, and the plot as drawn.
        #expect(!html.contains("<p class=\"zoom\""))
        #expect(html.contains("<g class=\"plot\" clip-path=\"url(#clip-timeline)\">"))
        let driven = html.replacingOccurrences(of: "</body>", with: Self.zoomDriver + "</body>")
        let dom = try Self.domAfterScripts(driven, fragment: "")
        let title = try #require(
            dom.components(separatedBy: "<title>before ").dropFirst().first?.components(separatedBy: "</title>").first,
            "the driver did not run")
        func fields(_ stage: String) -> [Double] {
            let part = title.components(separatedBy: stage + " ").dropFirst().first?.components(separatedBy: ";").first ?? ""
            return part.split(separator: " ").compactMap { Double($0) }
        }
        let before = (title.components(separatedBy: ";").first ?? "").split(separator: " ").compactMap { Double($0) }
        let zoomed = fields("zoomed"), panned = fields("panned"), reset = fields("reset")
        try #require(before.count == 5 && zoomed.count == 5 && panned.count == 5 && reset.count == 5, "\(title)")
        // Twice `+`: four times wider, centred on the middle of the 1000-pixel plot.
        #expect(before[0] == 1 && before[1] == 0 && before[4] == 0)
        #expect(zoomed[0] == 4 && zoomed[1] == 375)
        // The launch window is placed by its time: four times wider, moved with the view.
        #expect(abs(zoomed[3] - before[3] * 4) < 0.01)
        #expect(abs(zoomed[2] - (Double(TimelineSVG.labelWidth) + (before[2] - Double(TimelineSVG.labelWidth) - 375) * 4)) < 0.01)
        #expect(zoomed[4] >= 3, "the zoomed axis shows its finer ticks")
        // A 200-pixel drag to the left moves the view 50 plot pixels later.
        #expect(panned[0] == 4 && panned[1] == 425)
        #expect(abs(panned[2] - (zoomed[2] - 200)) < 0.01)
        // Reset: the drawing as the report wrote it.
        #expect(reset == before)
    }
}
