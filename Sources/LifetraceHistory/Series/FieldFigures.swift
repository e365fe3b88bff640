/// The figures of a point's MetricKit field data (docs/HISTORY.md, "MetricKit"): launch and
/// resume percentiles from Apple's histograms, the hang rate, and the exits by reason.
enum FieldFigures {
    /// The histograms drawn as percentiles, with their titles.
    static let percentileMetrics: [(metric: String, title: String)] = [
        ("launch", "field launch (time to first draw)"), ("launchOptimized", "field prewarmed launch (optimized time to first draw)"),
        ("resume", "field resume"), ("extendedLaunch", "field extended launch"),
    ]
    /// The percentiles drawn.
    static let percents = [50, 90]

    /// The figures of `data`, in metric order.
    static func figures(_ data: FieldData) -> [(HistoryMetric, HistoryFigure)] {
        var figures: [(HistoryMetric, HistoryFigure)] = []
        for (metric, title) in percentileMetrics {
            guard let buckets = data.histograms[metric] else { continue }
            let sorted = buckets.filter { $0.value > 0 }.sorted { $0.key < $1.key }
            let total = sorted.reduce(0) { $0 + $1.value }
            guard total > 0, let low = sorted.first?.key.start, let high = sorted.last?.key.end else { continue }
            for percent in percents {
                figures.append((
                    HistoryMetric(key: "field.\(metric).p\(percent)", title: "\(title), p\(percent)", unit: .duration),
                    HistoryFigure(value: percentile(sorted, total: total, percent), low: low, high: high, n: Int(min(total, 1e15)))
                ))
            }
        }
        if let hangs = data.histograms["hang"], data.foreground > 0 {
            // A bucket's hangs are counted at its middle: the histogram keeps no more.
            let hang = hangs.reduce(0) { $0 + ($1.key.start + $1.key.end) / 2 * $1.value }
            let rate = hang / 1e9 / (data.foreground / 3.6e12)
            figures.append((
                HistoryMetric(key: "field.hangRate", title: "field hang rate (seconds of hang per hour in the foreground)", unit: .hangRate),
                HistoryFigure(value: rate, low: rate, high: rate, n: data.payloads)
            ))
        }
        for context in ["foreground", "background"] {
            guard let reasons = data.exits[context] else { continue }
            let total = reasons.values.reduce(0, +)
            guard total > 0 else { continue }
            for (reason, count) in reasons.sorted(by: { $0.key < $1.key }) {
                let share = 100 * count / total
                figures.append((
                    HistoryMetric(key: "field.exits.\(context).\(reason)", title: "share of \(context) exits: \(reason)", unit: .percent),
                    HistoryFigure(value: share, low: share, high: share, n: Int(min(total, 1e15)))
                ))
            }
        }
        return figures
    }

    /// The `percent` percentile of a histogram's samples, read linearly within the bucket it falls
    /// in (the samples are taken as spread evenly over their bucket).
    static func percentile(_ buckets: [(key: FieldData.Range, value: Double)], total: Double, _ percent: Int) -> Double {
        let rank = Double(percent) / 100 * total
        var below = 0.0
        for (range, count) in buckets {
            if below + count >= rank {
                return range.start + (range.end - range.start) * max(0, rank - below) / count
            }
            below += count
        }
        return buckets.last?.key.end ?? 0
    }
}
