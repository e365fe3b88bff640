import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceRunner

/// `lifetrace report --format html`: one self-contained HTML page (inline CSS, SVG and scripts,
/// nothing fetched) with the worst first (``WorstFirst``), a timeline of the whole trace, zoomed
/// views of the slowest launches and the longest stalls, and the tables of the text report below.
///
/// The trace is read twice, streaming both times: once to analyse it and find its time range,
/// once to fold its spans into the timeline's pixel buckets (``TimelineCanvas``). Memory and page
/// size depend on the number of windows and buckets, not on the number of events.
public struct TraceHTMLReport {
    /// The most launch windows zoomed into (the slowest).
    public static let zoomedLaunchLimit = 8
    /// The most stalls zoomed into (the longest).
    public static let zoomedStallLimit = 20
    /// The most violations explained (and pinned); the rest are counted.
    public static let listedViolationLimit = 500
    /// The most lifetimes shown with all their tables (more when the zoomed views name more); the
    /// others get a row each in a summary table (up to ``summarisedLifetimeLimit``).
    public static let detailedLifetimeLimit = 20
    /// The most lifetimes in the summary table.
    public static let summarisedLifetimeLimit = 500
    /// The most lifetimes drawn in the overview (the index links to the others).
    public static let overviewLifetimeLimit = 400
    /// Above this many lifetimes, the overview replaces the whole-trace timeline, which would
    /// show nothing but a band of launches.
    public static let wholeTraceLifetimeLimit = 40
    /// Buckets (pixels) per window.
    public static let defaultBuckets = 1000

    /// The analysis.
    public let analysis: TraceAnalysis
    /// The filled windows.
    public let canvas: TimelineCanvas
    /// The trace's symbols, to name what the buckets hold.
    public let symbols: SymbolTable
    /// The options the analysis ran with.
    public let options: AnalysisOptions

    /// Reads and analyses the trace at `path` twice and fills the timeline.
    public static func make(
        path: String, options: AnalysisOptions, buckets: Int = defaultBuckets
    ) throws(TraceError) -> TraceHTMLReport {
        guard path != "-" else {
            throw TraceError(.io, file: path, "the HTML report reads the trace twice; name a file, not standard input")
        }
        // The first pass's reader, and its symbol table, are gone before the second opens: a
        // trace of a million names would otherwise hold two tables at once.
        let (analysis, range) = try { () throws(TraceError) -> (TraceAnalysis, TimelineRange) in
            var first = try TraceInputs.open(path: path)
            var range = TimelineRange()
            var analysis = try LifecycleTimeline.analyze(&first, path: path, options: options, into: &range)
            StallSamplePass.profileStalls(&analysis, stacks: first.sampledStacks, options: options)
            return (analysis, range)
        }()
        // Every view counts its moments from the trace's first event (docs/REPORTS.md, "One clock").
        let origin = analysis.origin ?? ([range.start].compactMap { $0 } + analysis.lifetimes.compactMap(\.launch.timestamp)).min()
        let strips = analysis.lifetimes.count > 1
            ? LifetimeOverviewSVG.strips(for: analysis, limit: overviewLifetimeLimit) : []
        var canvas = TimelineCanvas(windows: windows(for: analysis, range: range, buckets: buckets, origin: origin), strips: strips)
        var second = try TraceInputs.open(path: path)
        // The second pass only fills the buckets: its own lifetime reports are not kept.
        var filling = options
        filling.keepsLifetimes = false
        _ = try LifecycleTimeline.analyze(
            &second, path: path, options: filling, into: &canvas, withoutSystemView: analysis.lifetimesWithoutSystemView)
        return TraceHTMLReport(
            analysis: analysis, canvas: canvas, symbols: second.symbols, options: options, origin: origin)
    }

    /// The time the page's relative times count from: the trace's first event.
    public let origin: Int64?

    /// Builds a report from an analysis and a filled canvas; `origin` defaults to the start of
    /// the canvas's first window.
    public init(
        analysis: TraceAnalysis, canvas: TimelineCanvas, symbols: SymbolTable, options: AnalysisOptions,
        origin: Int64? = nil
    ) {
        self.origin = origin ?? canvas.windows.first?.origin
        self.analysis = analysis
        self.canvas = canvas
        self.symbols = symbols
        self.options = options
    }

    /// The most spans a zoomed view keeps so that the page's zoom can draw them again (past it,
    /// the view is magnified instead).
    public static let detailSpanLimit = 4000

    /// The windows of `analysis`, the worst first: the whole trace, the slowest launches
    /// (``zoomedLaunchLimit``), the longest stalls (``zoomedStallLimit``), each with margins.
    /// Every window counts its moments from `origin` (the trace's first event; by default
    /// ``TraceAnalysis/origin``, else the start of the whole trace's window).
    public static func windows(
        for analysis: TraceAnalysis, range: TimelineRange, buckets: Int, origin: Int64? = nil
    ) -> [TimelineWindow] {
        var start = range.start
        var end = range.end
        for lifetime in analysis.lifetimes {
            for time in [lifetime.launch.timestamp, lifetime.end.timestamp].compactMap({ $0 }) {
                start = min(start ?? time, time)
                end = max(end ?? time, time)
            }
        }
        guard let start, let end else { return [] }
        let origin = origin ?? analysis.origin ?? start
        var whole = TimelineWindow(title: "Whole trace", anchor: "timeline", start: start, end: end, origin: origin, buckets: buckets)
        whole.spanLimit = detailSpanLimit
        var windows = [whole]
        if analysis.lifetimeCount > wholeTraceLifetimeLimit { windows.removeAll() }
        for lifetime in WorstFirst.zoomedLaunches(analysis, limit: zoomedLaunchLimit) {
            guard let window = lifetime.launchWindow else { continue }
            let (launch, close) = (window.start, window.end)
            let margin = max(1_000_000, (close - launch) / 20)
            var view = TimelineWindow(
                title: "Launch of lifetime \(lifetime.index + 1) (\(lifetime.launch.kind.rawValue))", anchor: HTMLText.anchor("launch", lifetime.index + 1),
                start: launch - margin, end: close + margin, origin: origin, buckets: buckets)
            view.spanLimit = detailSpanLimit
            windows.append(view)
        }
        let profiles = analysis.stallProfilesByStart
        for entry in WorstFirst.longestStalls(analysis, limit: zoomedStallLimit) {
            let (stall, lifetime) = (entry.stall, entry.lifetime)
            let margin = max(1_000_000, stall.duration / 5)
            var view = TimelineWindow(
                title: "Stall \(entry.number): lifetime \(lifetime.index + 1), at \(TraceClock.labelled(stall.start - origin))"
                    + (stall.sinceLaunch.map { " (\(DurationFormat.fixed.string($0)) after its launch)" } ?? "")
                    + ", \(DurationFormat.fixed.string(stall.duration))"
                    + (stall.work.map { " in \($0.chainText)" } ?? "")
                    + (profiles[stall.start]?.blameLine.map { "; \($0)" } ?? ""),
                anchor: HTMLText.anchor("stall", entry.number),
                start: stall.start - margin, end: stall.start + stall.duration + margin,
                origin: origin, buckets: buckets)
            view.spanLimit = detailSpanLimit
            windows.append(view)
        }
        return windows
    }

    /// The page.
    public var html: String {
        let zoomed = Set(canvas.windows.map(\.anchor))
        let overlay = TimelineOverlay(analysis: analysis, listedViolations: Self.listedViolationLimit, zoomed: zoomed)
        let text = TraceReport(analysis: analysis, options: options)
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<title>Lifetrace report: \(HTMLText.escape(analysis.path))</title>\n<style>\n\(HTMLStyle.sheet)\(HTMLSearch.style)\(HTMLZoom.style)\(HTMLTableSort.style)\(LifetimeOverviewSVG.style)\(FlameGraphSVG.style)</style>\n</head>\n<body>\n"
        out += "<h1>Lifetrace report: <code>\(HTMLText.escape(analysis.path))</code></h1>\n"
        out += "<p>\(analysis.eventCount) events, \(plural(analysis.lifetimeCount, "lifetime")), "
            + "\(plural(analysis.errorCount, "error")), \(plural(analysis.warningCount, "warning")).</p>\n"
        out += "<p class=\"axis-note\">\(HTMLText.escape(TraceReport.timesNote)).</p>\n"
        if !analysis.metadata.isEmpty {
            out += "<table class=\"meta\">\n"
            for field in analysis.metadata.fields {
                out += "<tr><th>\(HTMLText.escape(field.key))</th><td>\(HTMLText.escape(field.value))</td></tr>\n"
            }
            out += "</table>\n"
        }
        for issue in analysis.issues { out += "<p class=\"note\">Note: \(HTMLText.escape(issue.description))</p>\n" }
        if let note = analysis.omittedNote { out += "<p class=\"note\">Note: \(HTMLText.escape(note)).</p>\n" }
        for note in analysis.capNotes { out += "<p class=\"note\">Note: \(HTMLText.escape(note)).</p>\n" }
        out += lifetimeIndex
        out += WorstFirst.section(analysis, zoomed: zoomed)
        out += HTMLStyle.legend
        out += overview(overlay)
        var headed: Set<String> = []
        let flames = stallProfilesByAnchor
        for window in canvas.windows {
            let whole = window.anchor == "timeline"
            let kind = window.anchor.hasPrefix("launch") ? "launch" : window.anchor.hasPrefix("stall") ? "stall" : ""
            if !kind.isEmpty, headed.insert(kind).inserted, analysis.lifetimeCount > 1 || kind == "stall" {
                out += kind == "launch"
                    ? "<h2 id=\"launch-views\">Launches, the slowest of each kind first</h2>\n"
                    : "<h2 id=\"stall-views\">Stalls, the longest first</h2>\n"
            }
            let level = whole ? "h2" : "h3"
            let origin = "time \(TraceClock.origin)"
            out += "<\(level) id=\"\(window.anchor)\">\(HTMLText.escape(window.title))</\(level)>\n"
            // A pixel's width is the view's scale: written to a thousandth of it (`5.606 ms`), as a
            // mark on a scale is, so that it reads as the span shown divided by the pixels.
            let pixel = Int64(window.bucketWidth)
            out += "<p class=\"axis-note\">\(DurationFormat.fixed.string(window.end - window.start)) shown, "
                + "\(DurationFormat.fixed.string(pixel, resolution: pixel / 1000)) per pixel; \(origin).</p>\n"
            out += "<div class=\"scroll\">"
            out += TimelineSVG(
                window: window, canvas: canvas, overlay: overlay, symbols: symbols,
                labelMilestones: window.anchor.hasPrefix("launch"), systemView: drawsSystemView
            ).rendered
            out += "</div>\n"
            out += flames[window.anchor].map { FlameGraphSVG(profile: $0).rendered } ?? ""
        }
        out += lifetimeTables(text)
        out += HTMLSearch.script
        out += HTMLZoom.script
        out += HTMLTableSort.script
        out += "</body>\n</html>\n"
        return out
    }

    /// Whether the timelines have a system-view row: when a lifetime has a system view (`state`
    /// events), or when no lifetime says (an empty trace), as before any lifetime was known.
    var drawsSystemView: Bool { analysis.lifetimes.isEmpty || analysis.lifetimes.contains { $0.hasSystemView } }

    /// The stack samples' profile of each zoomed stall that has one, by the stall view's anchor.
    var stallProfilesByAnchor: [String: StallProfile] {
        guard !analysis.stallProfiles.isEmpty else { return [:] }
        let byStart = analysis.stallProfilesByStart
        var result: [String: StallProfile] = [:]
        for entry in WorstFirst.longestStalls(analysis, limit: Self.zoomedStallLimit) {
            if let profile = byStart[entry.stall.start] { result[HTMLText.anchor("stall", entry.number)] = profile }
        }
        return result
    }

    /// With several lifetimes, a row per lifetime before the whole trace (see ``LifetimeOverviewSVG``).
    private func overview(_ overlay: TimelineOverlay) -> String {
        let drawing = LifetimeOverviewSVG(analysis: analysis, canvas: canvas, overlay: overlay).rendered
        guard !drawing.isEmpty else { return "" }
        var out = "<h2 id=\"overview\">Lifetimes at a glance</h2>\n<p class=\"axis-note\">One row per lifetime, "
            + "from its launch to its end, each scaled to its own length: the app view, under it the main thread's "
            + "busy share per 10-pixel cell, stalls in red. A lifetime's name links to its details, a stall to its zoomed view.</p>\n"
        if canvas.strips.count < analysis.lifetimeCount {
            out += "<p class=\"note\">\(analysis.lifetimeCount - canvas.strips.count) lifetimes are not drawn "
                + "(no launch seen, or past the first \(Self.overviewLifetimeLimit)); the list of lifetimes above links to them.</p>\n"
        }
        return out + "<div class=\"scroll\">" + drawing + "</div>\n"
    }

    /// The lifetimes shown with all their tables: those the page zooms into (the slowest
    /// launches, the longest stalls), then the first ones, up to ``detailedLifetimeLimit`` (more
    /// when the zoomed views alone name more), in lifetime order.
    var detailedLifetimes: Set<Int> {
        let zoomed = Set(canvas.windows.map(\.anchor))
        var chosen = Set(WorstFirst.zoomedLaunches(analysis, limit: Self.zoomedLaunchLimit).map(\.index))
        for entry in WorstFirst.longestStalls(analysis, limit: Self.zoomedStallLimit)
        where zoomed.contains(HTMLText.anchor("stall", entry.number)) {
            chosen.insert(entry.lifetime.index)
        }
        for lifetime in analysis.lifetimes where chosen.count < Self.detailedLifetimeLimit { chosen.insert(lifetime.index) }
        return chosen
    }

    private func lifetimeTables(_ text: TraceReport) -> String {
        var out = ""
        var stallNumber = 0
        let zoomed = Set(canvas.windows.map(\.anchor))
        let profiles = analysis.stallProfilesByStart
        let detailed = detailedLifetimes
        let listed = Array(analysis.violations.prefix(Self.listedViolationLimit).enumerated())
        for lifetime in analysis.lifetimes {
            guard detailed.contains(lifetime.index) else {
                stallNumber += lifetime.stalls.count
                continue
            }
            // Times relative to the trace's first event; the clock's own value in the tooltip.
            let absolute = lifetime.launch.timestamp.map { " title=\"launch at \($0) ns on the trace's clock\"" } ?? ""
            out += "<h2 id=\"lifetime-\(lifetime.index + 1)\"\(absolute)>Lifetime \(lifetime.index + 1): "
                + "\(HTMLText.escape(text.launchTitle(lifetime.launch, origin: origin)))</h2>\n<table>\n"
            for (label, value) in text.launchRows(lifetime) {
                out += "<tr><th>\(HTMLText.escape(label))</th><td>\(HTMLText.escape(value))</td></tr>\n"
            }
            out += "<tr><th>Time in states (\(lifetime.timeInStates.view.rawValue) view)</th>"
                + "<td>\(HTMLText.escape(text.statesText(lifetime.timeInStates)))</td></tr>\n"
            out += "<tr><th>End</th><td>\(HTMLText.escape(lifetime.end.phrase))</td></tr>\n</table>\n"
            out += "<h3>Stalls (&gt;= \(DurationFormat.fixed.string(options.stallThreshold)))</h3>\n"
            if lifetime.stallCount == 0 {
                out += "<p>None.</p>\n"
            } else {
                out += "<table class=\"sortable\">\n<tr><th>#</th><th>starts</th><th>duration</th><th>blame</th></tr>\n"
                for stall in lifetime.stalls {
                    stallNumber += 1
                    let number = zoomed.contains(HTMLText.anchor("stall", stallNumber))
                        ? "<a href=\"#stall-\(stallNumber)\">\(stallNumber)</a>" : String(stallNumber)
                    out += "<tr><td>\(number)</td><td>\(HTMLText.escape(text.stallStart(stall)))</td>"
                        + "<td>\(DurationFormat.fixed.string(stall.duration))\(stall.unfinished ? " (unfinished)" : "")</td>"
                        + "<td>\(HTMLText.escape(text.blameText(stall, profile: profiles[stall.start])))</td></tr>\n"
                }
                out += "</table>\n"
                if lifetime.omittedStalls > 0 { out += "<p class=\"note\">\(HTMLText.escape(text.omittedStallsText(lifetime))).</p>\n" }
            }
            out += "<h3>How it ended</h3>\n<ul>\n"
            for fact in lifetime.end.facts { out += "<li>\(HTMLText.escape(fact))</li>\n" }
            out += "</ul>\n<h3>Violations</h3>\n"
            let mine = listed.filter { $0.element.lifetime == lifetime.index }
            let total = analysis.violations.count { $0.lifetime == lifetime.index }
            if total == 0 { out += "<p>None.</p>\n" }
            if !mine.isEmpty { out += "<ol class=\"violations\">\n" }
            for (index, violation) in mine { out += item(index, violation) }
            if !mine.isEmpty { out += "</ol>\n" }
            if total > mine.count {
                out += "<p class=\"note\">\(total - mine.count) more violations in this lifetime are not listed "
                    + "(the page explains the first \(Self.listedViolationLimit)); see the text or JSON report.</p>\n"
            }
        }
        out += furtherLifetimes(text, listed: listed, detailed: detailed)
        return out
    }

    /// With several lifetimes, one line each before the timelines: when it started, how it
    /// launched and ended, its stalls and violations, with links to its launch view and its details,
    /// so that any lifetime of a long trace is one click away.
    private var lifetimeIndex: String {
        guard analysis.lifetimes.count > 1, let origin = origin else { return "" }
        var counts: [Int: Int] = [:]
        for violation in analysis.violations { counts[violation.lifetime, default: 0] += 1 }
        let zoomed = Set(canvas.windows.map(\.anchor))
        // Folded (a native element, no script) when long, so that the timelines stay near the top.
        let open = analysis.lifetimeCount <= Self.detailedLifetimeLimit ? " open" : ""
        var out = "<details id=\"lifetimes\"\(open)><summary>\(analysis.lifetimeCount) lifetimes: when each started, "
            + "its launch, stalls, violations and end, with links</summary>\n<table class=\"lifetimes sortable\">\n<tr><th>#</th><th>starts</th>"
            + "<th>launch</th><th>launch time</th><th>stalls</th><th>violations</th><th>end</th></tr>\n"
        for lifetime in analysis.lifetimes.prefix(Self.summarisedLifetimeLimit + Self.detailedLifetimeLimit) {
            let number = lifetime.index + 1
            let starts = lifetime.launch.timestamp.map { "<span title=\"\($0) ns on the trace's clock\">\(TraceClock.moment($0 - origin))</span>" } ?? "-"
            let launchAnchor = HTMLText.anchor("launch", number)
            let launch = "\(lifetime.launch.kind.rawValue)"
                + (zoomed.contains(launchAnchor) ? " (<a href=\"#\(launchAnchor)\">view</a>)" : "")
            out += "<tr><td><a href=\"#lifetime-\(number)\">\(number)</a></td><td>\(starts)</td><td>\(launch)</td>"
                + "<td data-v=\"\(lifetime.launch.duration ?? -1)\">\(lifetime.launch.duration.map(DurationFormat.fixed.string) ?? "unfinished")</td>"
                + "<td class=\"num\">\(lifetime.stallCount)</td><td class=\"num\">\(counts[lifetime.index] ?? 0)</td>"
                + "<td>\(HTMLText.escape(lifetime.end.phrase))</td></tr>\n"
        }
        return out + "</table>\n</details>\n"
    }

    /// Lifetimes past the detailed ones: a row each, then their listed violations.
    private func furtherLifetimes(
        _ text: TraceReport, listed: [(offset: Int, element: Violation)], detailed: Set<Int>
    ) -> String {
        let further = analysis.lifetimes.filter { !detailed.contains($0.index) }
        guard !further.isEmpty else { return "" }
        var out = "<h2 id=\"further-lifetimes\">The other \(plural(further.count, "lifetime"))</h2>\n"
        out += "<table class=\"sortable\">\n<tr><th>#</th><th>launch</th><th>duration</th><th>busy in window</th><th>stalls</th>"
            + "<th>longest stall</th><th>violations</th><th>end</th></tr>\n"
        var counts: [Int: Int] = [:]
        for violation in analysis.violations { counts[violation.lifetime, default: 0] += 1 }
        for lifetime in further.prefix(Self.summarisedLifetimeLimit) {
            let longest = lifetime.stalls.map(\.duration).max().map(DurationFormat.fixed.string) ?? "-"
            out += "<tr id=\"lifetime-\(lifetime.index + 1)\"><td>\(lifetime.index + 1)</td>"
                + "<td>\(HTMLText.escape(text.launchTitle(lifetime.launch, origin: origin)))</td>"
                + "<td data-v=\"\(lifetime.launch.duration ?? -1)\">\(lifetime.launch.duration.map(DurationFormat.fixed.string) ?? "unfinished")</td>"
                + "<td data-v=\"\(lifetime.launch.busyInWindow)\">\(DurationFormat.fixed.string(lifetime.launch.busyInWindow))</td><td class=\"num\">\(lifetime.stallCount)</td>"
                + "<td data-v=\"\(lifetime.stalls.map(\.duration).max() ?? -1)\">\(longest)</td><td class=\"num\">\(counts[lifetime.index] ?? 0)</td>"
                + "<td>\(HTMLText.escape(lifetime.end.phrase))</td></tr>\n"
        }
        out += "</table>\n"
        let unshown = analysis.lifetimeCount - detailed.count - Self.summarisedLifetimeLimit
        if unshown > 0 {
            out += "<p class=\"note\">\(unshown) more lifetimes are not shown; "
                + "see the text or JSON report.</p>\n"
        }
        let rest = listed.filter { !detailed.contains($0.element.lifetime) }
        if !rest.isEmpty {
            out += "<h3>Violations in these lifetimes</h3>\n<ol class=\"violations\">\n"
            for (index, violation) in rest { out += item(index, violation) }
            out += "</ol>\n"
        }
        return out
    }

    /// One violation of the list, with its anchor, witnesses and the seed fact behind the rule.
    private func item(_ index: Int, _ violation: Violation) -> String {
        var out = "<li id=\"violation-\(index + 1)\" value=\"\(index + 1)\"><span class=\"\(violation.severity.rawValue)\">"
            + "\(violation.severity.rawValue)</span> <code>\(violation.rule.id)</code> (lifetime \(violation.lifetime + 1)) "
            + "at \(HTMLText.escape(violation.when)): \(HTMLText.escape(violation.account))\n<ul>\n"
        for event in violation.events { out += "<li><code>\(HTMLText.escape(event.description))</code></li>\n" }
        out += "</ul>\n"
        if let reason = violation.rule.reason { out += "<p class=\"fact\">Why: \(HTMLText.escape(reason))</p>" }
        return out + "</li>\n"
    }
}

extension TraceAnalysis {
    /// The lifetimes (by index) with no system view (``LifetimeReport/hasSystemView``): the page
    /// draws no system-view states for them.
    var lifetimesWithoutSystemView: Set<Int> { Set(lifetimes.lazy.filter { !$0.hasSystemView }.map(\.index)) }
}
