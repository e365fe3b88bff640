import LifetraceFormat
import LifetraceOutput
import LifetraceReports

extension HistorySeries {
    /// The chart's size in CSS pixels, and its margins (the left one holds the axis labels).
    private static let size = (width: 900.0, height: 180.0, left: 80.0, right: 16.0, top: 14.0, bottom: 24.0)

    /// The history as one self-contained HTML page: per metric, a chart of its figure by point
    /// (the line) over the spread of the samples behind it (the band), each change point marked
    /// at the point it starts, and each point's build, commit and figures on hover.
    public var html: String {
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>lifetrace history</title>
            <style>\(HTMLStyle.sheet)
            path.band{fill:#3366cc;fill-opacity:.15;stroke:none}polyline.value{fill:none;stroke:#3366cc;stroke-width:1.5}
            circle.point{fill:#3366cc}circle.point:hover{fill:#d62728}line.change{stroke:#d62728;stroke-width:1.5;stroke-dasharray:4 3}
            text.change{fill:#d62728;font-size:11px}line.axis{stroke:#999}
            </style></head><body>
            <h1>History: \(points.count) \(order == .build ? "builds" : "versions")</h1>
            <p class="note">One point per \(order == .build ? "build, in the order builds were added" : "app version, in version order")\
            ; the line is each point's figure, the band the lowest and highest sample behind it. Dashed red lines mark change \
            points (E-divisive means, permutation test at p &lt;= 0.001), at the first build after the change. Hover a point for \
            its build, commit and figures.</p>

            """
        let changes = self.changes
        out += "<h2>Change points</h2>\n"
        out += changes.isEmpty
            ? "<p>None.</p>\n"
            : "<ul>\n" + changes.map { "<li>" + HTMLText.escape(sentence($0.series, $0.change)) + "</li>\n" }.joined() + "</ul>\n"
        for (number, series) in series.enumerated() {
            out += "<h2 id=\"metric-\(number + 1)\">\(HTMLText.escape(series.metric.title)) <code>\(HTMLText.escape(series.metric.key))</code></h2>\n"
            out += chart(series)
        }
        return out + "</body></html>\n"
    }

    /// One metric's chart as inline SVG.
    private func chart(_ series: Series) -> String {
        let s = Self.size
        let present = series.figures.indices.filter { series.figures[$0] != nil }
        guard !present.isEmpty else { return "<p>No figures.</p>\n" }
        let lows = present.map { series.figures[$0]!.low }
        let highs = present.map { series.figures[$0]!.high }
        var bottom = min(0, lows.min()!)
        var top = highs.max()!
        if top == bottom {
            top += 1
            bottom -= bottom == 0 ? 0 : 1
        }
        let plotWidth = s.width - s.left - s.right
        let plotHeight = s.height - s.top - s.bottom
        let x = { (index: Int) -> Double in
            s.left + (points.count == 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(points.count - 1))
        }
        let y = { (value: Double) -> Double in s.top + plotHeight * (1 - (value - bottom) / (top - bottom)) }
        func f(_ value: Double) -> String { DecimalText.string(value, decimals: 1) }
        var svg = "<svg class=\"chart\" width=\"\(Int(s.width))\" height=\"\(Int(s.height))\" viewBox=\"0 0 \(Int(s.width)) \(Int(s.height))\">\n"
        // Axis: the bottom, the top and the middle of the scale.
        for value in [bottom, (bottom + top) / 2, top] {
            svg += "<line class=\"tick\" x1=\"\(f(s.left))\" x2=\"\(f(s.width - s.right))\" y1=\"\(f(y(value)))\" y2=\"\(f(y(value)))\"/>"
            svg += "<text class=\"axis\" x=\"\(f(s.left - 6))\" y=\"\(f(y(value) + 3))\" text-anchor=\"end\">\(HTMLText.escape(series.metric.format(value)))</text>\n"
        }
        svg += "<line class=\"axis\" x1=\"\(f(s.left))\" x2=\"\(f(s.width - s.right))\" y1=\"\(f(s.height - s.bottom))\" y2=\"\(f(s.height - s.bottom))\"/>\n"
        svg += "<text class=\"axis\" x=\"\(f(s.left))\" y=\"\(f(s.height - 6))\">\(HTMLText.escape(points[0].label))</text>"
        svg += "<text class=\"axis\" x=\"\(f(s.width - s.right))\" y=\"\(f(s.height - 6))\" text-anchor=\"end\">\(HTMLText.escape(points[points.count - 1].label))</text>\n"
        // The band: along the highs, back along the lows.
        let upper = present.map { "\(f(x($0))),\(f(y(series.figures[$0]!.high)))" }
        let lower = present.reversed().map { "\(f(x($0))),\(f(y(series.figures[$0]!.low)))" }
        svg += "<path class=\"band\" d=\"M\((upper + lower).joined(separator: " L"))Z\"/>\n"
        svg += "<polyline class=\"value\" points=\"\(present.map { "\(f(x($0))),\(f(y(series.figures[$0]!.value)))" }.joined(separator: " "))\"/>\n"
        for change in series.changes {
            let at = x(change.index)
            let label = "\(name(points[change.index])): " + (change.relative.map { ($0 >= 0 ? "+" : "-") + DecimalText.string(abs($0) * 100, decimals: 1) + " %" } ?? series.metric.format(change.after))
            let anchor = at > s.width * 0.75 ? "end" : "start"
            svg += "<line class=\"change\" x1=\"\(f(at))\" x2=\"\(f(at))\" y1=\"\(f(s.top))\" y2=\"\(f(s.height - s.bottom))\"/>"
            svg += "<text class=\"change\" x=\"\(f(at + (anchor == "end" ? -4 : 4)))\" y=\"\(f(s.top + 10))\" text-anchor=\"\(anchor)\">\(HTMLText.escape(label))</text>\n"
        }
        for index in present {
            let figure = series.figures[index]!
            let point = points[index]
            var hover = name(point)
            if order == .version { hover += " (first build \(point.first.buildID))" }
            if let commit = point.first.commit { hover += ", commit \(commit.prefix(12))" }
            if let version = point.first.appVersion, order == .build { hover += ", version \(version)" }
            hover += "\n\(series.metric.key): \(series.metric.format(figure.value)) (\(series.metric.format(figure.low)) to \(series.metric.format(figure.high)), n = \(figure.n))"
            hover += "\n\(point.runs) runs, \(point.lifetimes) lifetimes" + (point.payloads > 0 ? ", \(point.payloads) MetricKit payloads" : "")
            svg += "<circle class=\"point\" cx=\"\(f(x(index)))\" cy=\"\(f(y(figure.value)))\" r=\"3\"><title>\(HTMLText.escape(hover))</title></circle>\n"
        }
        return svg + "</svg>\n"
    }
}
