import Foundation
import LifetraceFormat
import LifecycleModel
import LifetraceAnalysis

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

    /// The HTML form: the text tables, each written percentile linked to the run and lifetime
    /// it comes from (listed under "Where the figures come from"), a histogram (inline SVG) per
    /// launch kind and for stall durations, and the runs grouped by their metadata with the hang
    /// rate. The tables sort by a click on a column's title.
    public var html: String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Lifetrace summary</title>\n"
        out += "<style>\n\(HTMLStyle.sheet)\(HTMLTableSort.style)</style>\n</head>\n<body>\n<h1>Lifetrace summary</h1>\n"
        out += "<p>\(HTMLText.escape(headline)).</p>\n"
        var sources: [(id: String, figure: String, witness: Witness)] = []
        func table(_ rows: [DistributionRow]) -> String {
            var out = "<table>\n<tr><th></th><th>n</th>" + Self.columns.map { "<th>\($0.title)</th>" }.joined() + "</tr>\n"
            for row in rows {
                let cells = self.cells(row)
                out += "<tr><td>\(HTMLText.escape(cells[0]))</td><td class=\"num\">\(cells[1])</td>"
                for (index, column) in Self.columns.enumerated() {
                    let text = HTMLText.escape(cells[index + 2])
                    guard let witness = witness(row, percent: column.percent) else {
                        out += "<td class=\"num\">\(text)</td>"
                        continue
                    }
                    let id = "source-\(row.metric.key)-\(column.title)"
                    sources.append((id, "\(row.metric.summary) \(column.title)", witness))
                    out += "<td class=\"num\"><a href=\"#\(id)\" title=\"\(HTMLText.escape(Self.phrase(witness)))\">\(text)</a></td>"
                }
                out += "</tr>\n"
            }
            return out + "</table>\n"
        }
        // The worst first, each linked to its row under "Where the figures come from".
        let worst = worstLines
        let worstRows = launchRows.filter { $0.distribution.count > 0 } + (stallRows[1].distribution.count > 0 ? [stallRows[1]] : [])
        if !worst.isEmpty {
            out += "<h2 id=\"worst\">The worst</h2>\n<ul>\n" + zip(worst, worstRows).map {
                "<li><a href=\"#source-\($1.metric.key)-max\">\(HTMLText.escape($0))</a></li>\n"
            }.joined() + "</ul>\n"
        }
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
            out += "<h2 id=\"sources\">Where the figures come from</h2>\n<p>The sample behind each figure (of nearest rank "
                + "for a percentile); the trace links to its file, and <code>lifetrace report TRACE --format html</code> "
                + "draws it, its lifetimes at <code>#lifetime-N</code>.</p>\n<table class=\"sortable\">\n"
                + "<tr><th>figure</th><th>value</th><th>trace</th><th>lifetime</th><th>work</th></tr>\n"
            for source in sources {
                let metric = RunMetric.all.first { source.id.hasPrefix("source-\($0.key)-") }
                let value = metric?.format(Double(source.witness.value)) ?? String(source.witness.value)
                out += "<tr id=\"\(source.id)\"><td>\(HTMLText.escape(source.figure))</td>"
                    + "<td class=\"num\" data-v=\"\(source.witness.value)\">\(HTMLText.escape(value))</td>"
                    + "<td><a href=\"\(HTMLText.escape(Self.fileLink(source.witness.path)))\"><code>\(HTMLText.escape(source.witness.path))</code></a></td>"
                    + "<td class=\"num\">\(source.witness.lifetime + 1)</td><td>\(HTMLText.escape(source.witness.work ?? "-"))</td></tr>\n"
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

    /// A trace's path as a link: percent-encoded, relative paths kept relative.
    static func fileLink(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
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
        for (index, count) in counts.enumerated() where count > 0 {
            let barHeight = max(1, plotHeight * count / tallest)
            let from = lower + Double(index) * binWidth
            out += "<rect class=\"bar\" x=\"\(Self.left + index * barWidth)\" y=\"\(bottom - barHeight)\" width=\"\(barWidth - 2)\" "
                + "height=\"\(barHeight)\"><title>\(row.metric.format(from)) to \(row.metric.format(from + binWidth)): \(count)</title></rect>\n"
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
                    + "\(row.metric.format(lower + span * Double(quarter) / 4))</text>\n"
            }
            out += "<text class=\"axis\" x=\"\(Self.left + Self.width / 2)\" y=\"\(Self.height - 4)\" text-anchor=\"middle\">"
                + "\(HTMLText.escape(row.metric.summary))</text>\n"
        }
        return out + "</svg>\n"
    }
}
