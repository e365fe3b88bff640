import Foundation
import LifetraceFormat
import LifecycleModel
import LifetraceAnalysis
import LifetraceOutput

extension RunSummary {
    /// The version of the JSON form's schema (docs/REPORTS.md); raised whenever a field changes
    /// meaning or is removed, never for an added field.
    public static let schemaVersion: Int64 = 1

    /// The JSON form: `{"schema": 1, "traces": n, "lifetimes": n, "events": n, "launch": {kind: stats},
    /// "busyInWindow": {kind: stats}, "stalls": {"perLifetime": stats, "duration": stats},
    /// "violations": [{"rule", "severity", "count", "traces"}], "endings": {kind: n},
    /// "unreadable": [{"path", "error"}]}`, durations
    /// in nanoseconds (see docs/REPORTS.md).
    public var json: String {
        func stats(_ row: DistributionRow) -> JSONValue {
            var members = [JSONMember("n", .int(Int64(row.distribution.count)))]
            for column in Self.columns {
                members.append(JSONMember(column.title, Self.value(row, percent: column.percent) ?? .null))
            }
            return .object(members)
        }
        let document = JSONValue.object([
            JSONMember("schema", .int(Self.schemaVersion)),
            JSONMember("traces", .int(Int64(runs.count))),
            JSONMember("lifetimes", .int(Int64(lifetimeCount))),
            JSONMember("events", .int(Int64(eventCount))),
            JSONMember("launch", .object(launchRows.map { JSONMember($0.label, stats($0)) })),
            JSONMember("busyInWindow", .object(busyRows.map { JSONMember($0.label, stats($0)) })),
            JSONMember("stalls", .object([
                JSONMember("perLifetime", stats(stallRows[0])), JSONMember("duration", stats(stallRows[1])),
            ])),
            JSONMember("violations", .array(ruleRows.map {
                .object([
                    JSONMember("rule", .string($0.rule.id)), JSONMember("severity", .string($0.rule.severity.rawValue)),
                    JSONMember("count", .int(Int64($0.count))), JSONMember("traces", .array($0.traces.map(JSONValue.string))),
                ])
            })),
            JSONMember("endings", .object(endings.map { JSONMember($0.kind.rawValue, .int(Int64($0.count))) })),
            JSONMember("unreadable", .array(unreadable.map {
                .object([JSONMember("path", .string($0.path)), JSONMember("error", .string($0.error))])
            })),
        ])
        return document.rendered(indent: 2) + "\n"
    }

    /// The HTML form without links to the runs' pages (``html(runPages:)``).
    public var html: String { html(runPages: nil) }

    /// The traces the HTML form links to: the samples behind its figures and the longest stall
    /// of each work it ranks, each once, in path order. These are the runs that get a page.
    public var linkedTraces: [String] {
        var paths: Set<String> = []
        for row in launchRows + busyRows + stallRows {
            for column in Self.columns { for sample in source(row, percent: column.percent)?.samples ?? [] { paths.insert(sample.path) } }
        }
        for entry in blamedWork.prefix(Self.blamedWorkRows) { paths.insert(entry.longest.path) }
        return paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The HTML form: the text tables, each written percentile linked to the samples it comes
    /// from (listed under "Where the figures come from", with the same figure), the work the
    /// stalls are blamed on ranked by its share of the stall time, a histogram (inline SVG) per
    /// launch kind and for stall durations, and the runs grouped by their metadata with the hang
    /// rate. A sample's run links to its lifetime on the run's page where `runPages` has one
    /// (``RunPages``), and is named without a link otherwise. The tables sort by a click on a
    /// column's title.
    public func html(runPages: RunPages?) -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Lifetrace summary</title>\n"
        out += "<style>\n\(HTMLStyle.sheet)\(HTMLTableSort.style)ul.samples{margin:0;padding-left:16px}td.num{white-space:nowrap}\n</style>\n</head>\n<body>\n<h1>Lifetrace summary</h1>\n"
        out += "<p>\(HTMLText.escape(headline)).</p>\n"
        /// A sample's run and lifetime, linked to its page when it has one.
        func runLink(_ witness: Witness) -> String {
            let text = "<code>\(HTMLText.escape(witness.path))</code>, lifetime \(witness.lifetime + 1)"
            guard let href = runPages?.href(witness.path, lifetime: witness.lifetime) else { return text }
            return "<a class=\"run\" href=\"\(HTMLText.escape(href))\">\(text)</a>"
        }
        var sources: [(id: String, figure: String, text: String, value: JSONValue?, source: PercentileSource, metric: RunMetric)] = []
        func table(_ rows: [DistributionRow]) -> String {
            var out = "<table>\n<tr><th></th><th>n</th>" + Self.columns.map { "<th>\($0.title)</th>" }.joined() + "</tr>\n"
            for row in rows {
                out += "<tr><td>\(HTMLText.escape(row.label))</td><td class=\"num\">\(row.distribution.count)</td>"
                for column in Self.columns {
                    let text = Self.text(row, percent: column.percent)
                    guard let source = source(row, percent: column.percent) else {
                        out += "<td class=\"num\">\(HTMLText.escape(text))</td>"
                        continue
                    }
                    let id = "source-\(row.metric.key)-\(column.title)"
                    sources.append((id, "\(row.metric.summary) \(column.title)", text, Self.value(row, percent: column.percent), source, row.metric))
                    let title = source.phrase + ": " + source.samples.map(Self.phrase).joined(separator: "; ")
                    out += "<td class=\"num\"><a href=\"#\(id)\" title=\"\(HTMLText.escape(title))\">\(HTMLText.escape(text))</a></td>"
                }
                out += "</tr>\n"
            }
            return out + "</table>\n"
        }
        // The worst first: the figure linked to its row under "Where the figures come from", the
        // run to its page.
        let worstRows = launchRows.map { ("slowest \($0.label) launch", $0) } + [("longest stall", stallRows[1])]
        let worst = worstRows.compactMap { title, row in witness(row, percent: 100).map { (title, row, $0) } }
        if !worst.isEmpty {
            out += "<h2 id=\"worst\">The worst</h2>\n<ul>\n" + worst.map { title, row, witness in
                "<li><a href=\"#source-\(row.metric.key)-max\">\(HTMLText.escape(title)): "
                    + "\(HTMLText.escape(Self.text(row, percent: 100)))</a> in \(runLink(witness))"
                    + (witness.work.map { ", in " + HTMLText.escape($0) } ?? "") + "</li>\n"
            }.joined() + "</ul>\n"
        }
        out += blamedWorkSection(runLink)
        out += "<h2 id=\"groups\">By app version, OS and device</h2>\n<p>Hang rate: seconds of hang (stalls) per hour on screen "
            + "(active or inactive), as Xcode Organizer counts it; hangs are the stalls.</p>\n<table class=\"sortable\">\n<tr>"
            + Self.groupHeader.map { "<th>\(HTMLText.escape($0))</th>" }.joined() + "</tr>\n"
        for group in groups {
            let cells = Self.cells(group)
            let sortKeys: [String?] = [nil, nil, nil, nil, nil,
                SampleDistribution(integers: group.launches).percentileHundredths(50).map { String($0 / 100) } ?? "-1",
                nil, String(group.stallTime), String(group.onScreen), group.hangRate.map { String($0) } ?? "-1"]
            out += "<tr>" + zip(cells, sortKeys).enumerated().map { index, pair in
                let key = pair.1.map { " data-v=\"\($0)\"" } ?? ""
                return index < 3 ? "<td>\(HTMLText.escape(pair.0))</td>" : "<td class=\"num\"\(key)>\(HTMLText.escape(pair.0))</td>"
            }.joined() + "</tr>\n"
        }
        out += "</table>\n"
        out += "<h2>Launch duration by kind</h2>\n" + table(launchRows)
        for row in launchRows where row.distribution.count > 0 {
            out += "<h3>\(HTMLText.escape(row.label)) launches</h3>\n" + Histogram(row: row).svg
        }
        out += "<h2>Main thread busy in the launch window</h2>\n" + table(busyRows)
        out += "<h2>Stalls</h2>\n" + table(stallRows)
        out += "<p class=\"note\">\(HTMLText.escape(Self.percentileNote)); the others are written -.</p>\n"
        if stallRows[1].distribution.count > 0 { out += Histogram(row: stallRows[1]).svg }
        out += "<h2>Violations by rule</h2>\n"
        if ruleRows.isEmpty {
            out += "<p>None.</p>\n"
        } else {
            out += "<table class=\"sortable\">\n<tr><th>rule</th><th>severity</th><th>count</th><th>traces</th></tr>\n"
            for row in ruleRows {
                out += "<tr><td><code>\(row.rule.id)</code></td><td class=\"\(row.rule.severity.rawValue)\">\(row.rule.severity.rawValue)</td>"
                    + "<td class=\"num\">\(row.count)</td><td>"
                    + row.traces.map { "<code>\(HTMLText.escape($0))</code>" }.joined(separator: ", ") + "</td></tr>\n"
            }
            out += "</table>\n"
        }
        out += "<h2>Endings</h2>\n<ul>\n"
        for ending in endings { out += "<li>\(ending.count) \(HTMLText.escape(Self.phrase(ending.kind)))</li>\n" }
        out += "</ul>\n"
        if !sources.isEmpty {
            out += "<h2 id=\"sources\">Where the figures come from</h2>\n<p>Each figure as the table above writes it, and the "
                + "samples it is computed from: a percentile of n samples sorted ascending is the linear interpolation between "
                + "the samples of closest rank (numpy's and R's default); where it falls between two, both are named. "
                + (runPages == nil
                    ? "<code>lifetrace report TRACE --format html</code> draws a run, its lifetimes at <code>#lifetime-N</code> "
                        + "(with <code>-o</code>, the summary writes those pages and links to them).</p>\n"
                    : "Each run links to its lifetime on the run's page (in <code>\(HTMLText.escape(runPages!.folder))/</code> "
                        + "beside this page).</p>\n")
                + "<table class=\"sortable\">\n<tr><th>figure</th><th>value</th><th>from</th><th>samples</th></tr>\n"
            for entry in sources {
                let key: String = switch entry.value {
                case .int(let value)?: String(value)
                case .number(let value)?: String(value)
                default: "0"
                }
                let samples = entry.source.samples.map { sample in
                    "<li>" + runLink(sample) + ": \(HTMLText.escape(entry.metric.format(Double(sample.value))))"
                        + (sample.work.map { ", in " + HTMLText.escape($0) } ?? "") + "</li>"
                }.joined()
                out += "<tr id=\"\(entry.id)\"><td>\(HTMLText.escape(entry.figure))</td>"
                    + "<td class=\"num\" data-v=\"\(key)\">\(HTMLText.escape(entry.text))</td>"
                    + "<td>\(HTMLText.escape(entry.source.phrase))</td><td><ul class=\"samples\">\(samples)</ul></td></tr>\n"
            }
            out += "</table>\n"
        }
        if !unreadable.isEmpty {
            out += "<h2>Traces that could not be read</h2>\n<ul>\n"
            for entry in unreadable { out += "<li><code>\(HTMLText.escape(entry.path))</code>: \(HTMLText.escape(entry.error))</li>\n" }
            out += "</ul>\n"
        }
        out += HTMLTableSort.script
        out += "</body>\n</html>\n"
        return out
    }

    /// The blamed work table: the work the stalls are blamed on across the runs, by share of the
    /// stall time, with its stalls, the traces it stalled in and its longest stall's run.
    private func blamedWorkSection(_ runLink: (Witness) -> String) -> String {
        let work = blamedWork
        guard !work.isEmpty else { return "" }
        let stallTime = work.reduce(Int64(0)) { $0 &+ $1.total }
        let shown = min(work.count, Self.blamedWorkRows)
        var out = "<h2 id=\"blamed-work\">Blamed work by share of stall time (\(shown) of \(work.count))</h2>\n"
            + "<p class=\"note\">The work each stall (hang) is blamed on, its callbacks and signposts, ranked by its share of "
            + "the stall time of every run, as Xcode Organizer ranks hang signatures; \(plural(runs.count, "trace")) in all. "
            + "The longest stall links to its run.</p>\n"
            + "<table class=\"sortable\">\n<tr><th>rank</th><th>work</th><th>share</th><th>stall time</th><th>stalls</th>"
            + "<th>traces</th><th>longest</th><th>in</th></tr>\n"
        for (rank, entry) in work.prefix(shown).enumerated() {
            let share = stallTime > 0 ? Double(entry.total) / Double(stallTime) * 100 : 0
            out += "<tr><td class=\"num\">\(rank + 1)</td><td>\(HTMLText.escape(entry.work))</td>"
                + "<td class=\"num\" data-v=\"\(entry.total)\">\(DecimalText.string(share, decimals: 1)) %</td>"
                + "<td class=\"num\" data-v=\"\(entry.total)\">\(HTMLText.escape(DurationFormat.fixed.string(entry.total)))</td>"
                + "<td class=\"num\">\(entry.stalls)</td><td class=\"num\">\(entry.runs)</td>"
                + "<td class=\"num\" data-v=\"\(entry.longest.value)\">\(HTMLText.escape(DurationFormat.fixed.string(entry.longest.value)))</td>"
                + "<td>\(runLink(entry.longest))</td></tr>\n"
        }
        return out + "</table>\n"
    }
}

/// An HTML table with a header row; every cell escaped.
func htmlTable(_ header: [String], _ rows: [[String]]) -> String {
    var out = "<table>\n<tr>" + header.map { "<th>\(HTMLText.escape($0))</th>" }.joined() + "</tr>\n"
    for row in rows {
        out += "<tr>" + row.enumerated().map { index, cell in
            index == 0 ? "<td>\(HTMLText.escape(cell))</td>" : "<td class=\"num\">\(HTMLText.escape(cell))</td>"
        }.joined() + "</tr>\n"
    }
    return out + "</table>\n"
}

/// A histogram of a distribution as inline SVG: equal-width bins from the minimum to the
/// maximum, each bar titled with its range and count, with both axes labelled: the value at the
/// edges and quarters of the range below, the count at the top and bottom on the left.
struct Histogram {
    static let bins = 20
    static let width = 600
    static let height = 150
    /// Room on the left for the count axis.
    static let left = 44

    let row: RunSummary.DistributionRow

    var svg: String {
        let (lower, binWidth, counts) = row.distribution.histogram(bins: Self.bins)
        let tallest = max(1, counts.max() ?? 1)
        let barWidth = Self.width / Self.bins
        let plotHeight = Self.height - 40
        let top = 10
        let bottom = top + plotHeight
        var out = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Self.left + Self.width + 40)\" "
            + "height=\"\(Self.height)\" role=\"img\">"
            + "<title>\(HTMLText.escape(row.metric.summary)) histogram</title>\n"
        // Edges to the digit a bin's width needs; one value only (no width to speak of) as it is.
        let spread = (row.distribution.max ?? 0) > (row.distribution.min ?? 0)
        func edge(_ value: Double, apart resolution: Double) -> String {
            spread ? row.metric.format(value, resolution: resolution) : row.metric.format(value)
        }
        for (index, count) in counts.enumerated() where count > 0 {
            let barHeight = max(1, plotHeight * count / tallest)
            let from = lower + Double(index) * binWidth
            out += "<rect class=\"bar\" x=\"\(Self.left + index * barWidth)\" y=\"\(bottom - barHeight)\" width=\"\(barWidth - 2)\" "
                + "height=\"\(barHeight)\"><title>\(edge(from, apart: binWidth)) to \(edge(from + binWidth, apart: binWidth)): \(count)</title></rect>\n"
        }
        // Count axis: 0 at the bottom, the tallest bar's count at the top.
        out += "<line class=\"tick\" x1=\"\(Self.left - 4)\" y1=\"\(top)\" x2=\"\(Self.left - 4)\" y2=\"\(bottom)\" style=\"stroke:#999\"/>"
            + "<text class=\"axis\" x=\"\(Self.left - 8)\" y=\"\(top + 8)\" text-anchor=\"end\">\(tallest)</text>"
            + "<text class=\"axis\" x=\"\(Self.left - 8)\" y=\"\(bottom)\" text-anchor=\"end\">0</text>"
            + "<text class=\"axis\" x=\"4\" y=\"\(top + plotHeight / 2)\">\(row.metric.unit == .count ? "runs" : "count")</text>\n"
        // Value axis: the range's edges and quarters.
        out += "<line class=\"tick\" x1=\"\(Self.left)\" y1=\"\(bottom)\" x2=\"\(Self.left + Self.width)\" y2=\"\(bottom)\" style=\"stroke:#999\"/>\n"
        if let low = row.distribution.min, let high = row.distribution.max {
            let span = binWidth * Double(Self.bins)
            // One value only: one label.
            for quarter in 0...(high > low ? 4 : 0) {
                let x = Self.left + Self.width * quarter / 4
                let anchor = quarter == 0 ? "start" : (quarter == 4 ? "end" : "middle")
                out += "<line class=\"tick\" x1=\"\(x)\" y1=\"\(bottom)\" x2=\"\(x)\" y2=\"\(bottom + 4)\" style=\"stroke:#999\"/>"
                    + "<text class=\"axis\" x=\"\(x)\" y=\"\(bottom + 16)\" text-anchor=\"\(anchor)\">"
                    + "\(edge(lower + span * Double(quarter) / 4, apart: span / 4))</text>\n"
            }
            out += "<text class=\"axis\" x=\"\(Self.left + Self.width / 2)\" y=\"\(Self.height - 4)\" text-anchor=\"middle\">"
                + "\(HTMLText.escape(row.metric.summary))</text>\n"
        }
        return out + "</svg>\n"
    }
}
