import Foundation
import LifetraceFormat
import LifetraceOutput

extension HistorySeries {
    /// What the point is called in sentences: `build 8` or `version 1.10`.
    func name(_ point: Point) -> String { order == .build ? "build \(point.label)" : "version \(point.label)" }

    /// A change in words: the metric, how much and where it starts, with the build it is
    /// attributed to (the first build after the change).
    public func sentence(_ series: Series, _ change: EDivisive.Change) -> String {
        let point = points[change.index]
        let metric = series.metric
        let direction = change.after > change.before ? "rose" : "fell"
        let relative = change.relative.map { " " + DecimalText.string(abs($0) * 100, decimals: 1) + " %" } ?? ""
        var where_ = "from \(name(point))"
        if order == .version { where_ += " (its first build, \(point.first.buildID))" }
        if let commit = point.first.commit { where_ += ", commit \(commit.prefix(12))" }
        return "\(metric.key) \(direction)\(relative) (\(metric.format(change.before)) -> \(metric.format(change.after))) "
            + "\(where_), p = \(DecimalText.string(change.pValue, decimals: 4))"
    }

    /// The history for a terminal: the change points, then each series' last `last` figures,
    /// a `|` before each point where a change starts.
    public func text(last: Int) -> String {
        let runs = points.reduce(0) { $0 + $1.runs }
        let orderWords = order == .build ? "by build, in the order they were added" : "by app version"
        let payloads = points.reduce(0) { $0 + $1.payloads }
        let field = payloads > 0 ? ", \(plural(payloads, "MetricKit payload"))" : ""
        var lines = ["History: \(plural(points.count, order == .build ? "build" : "version")) (\(orderWords)), \(plural(runs, "run"))\(field)"]
        let changes = self.changes
        lines.append("")
        if changes.isEmpty {
            lines.append("No change points (E-divisive means, permutation test at p <= 0.001).")
        } else {
            lines.append("Change points (E-divisive means, permutation test at p <= 0.001), each from the first build after it:")
            lines += changes.map { "  " + sentence($0.series, $0.change) }
        }
        guard !points.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        let shown = max(0, points.count - last)..<points.count
        lines.append("")
        lines.append(
            shown.count == points.count
                ? "Series, oldest first (\(shown.map { points[$0].label }.joined(separator: " ")))"
                : "Series, the last \(shown.count) of \(points.count) points (\(points[shown.lowerBound].label) to \(points[shown.upperBound - 1].label))")
        let width = series.map(\.metric.key.count).max() ?? 0
        for series in series {
            let starts = Set(series.changes.map(\.index))
            let cells = shown.map { index -> String in
                let figure = series.figures[index].map { series.metric.format($0.value) } ?? "-"
                return (starts.contains(index) ? "| " : "") + figure
            }
            lines.append("  " + series.metric.key.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + cells.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
}
