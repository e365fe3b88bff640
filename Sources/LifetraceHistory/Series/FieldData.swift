import GRDB

/// What the series read of a point's MetricKit payloads: the histograms merged bucket by bucket,
/// the exit counts summed, and the time on screen they cover (docs/HISTORY.md, "MetricKit").
/// Its size is the buckets' and reasons' count, whatever the payloads claim.
public struct FieldData: Sendable, Hashable {
    /// A bucket's range.
    public struct Range: Sendable, Hashable, Comparable {
        public var start: Double
        public var end: Double
        public static func < (lhs: Range, rhs: Range) -> Bool { (lhs.start, lhs.end) < (rhs.start, rhs.end) }
    }

    /// How many payloads.
    public var payloads = 0
    /// By histogram (`launch`, `resume`, `hang`, ...): the samples in each bucket (ns). Summed as
    /// reals: a count is at most 2^53, and a sum of them never wraps.
    public var histograms: [String: [Range: Double]] = [:]
    /// Exits by context (`foreground`, `background`) and reason.
    public var exits: [String: [String: Double]] = [:]
    /// `applicationTimeMetrics.cumulativeForegroundTime`, summed (ns).
    public var foreground: Double = 0

    /// `other` added to these.
    public mutating func merge(_ other: FieldData) {
        payloads += other.payloads
        for (metric, buckets) in other.histograms {
            for (range, count) in buckets { histograms[metric, default: [:]][range, default: 0] += count }
        }
        for (context, reasons) in other.exits {
            for (reason, count) in reasons { exits[context, default: [:]][reason, default: 0] += count }
        }
        foreground += other.foreground
    }
}

extension HistoryStore {
    /// The field data of the build with row id `build`.
    public func fieldData(ofBuild build: Int64) throws(HistoryStoreError) -> FieldData {
        try read { db in
            var data = FieldData()
            data.payloads = try Int.fetchOne(db, sql: "SELECT count(*) FROM fieldPayload WHERE buildId = ?", arguments: [build]) ?? 0
            guard data.payloads > 0 else { return data }
            let buckets = try Row.fetchCursor(
                db,
                sql: """
                    SELECT metric, bucketStart, bucketEnd, sum(count) FROM fieldHistogram
                    WHERE buildId = ? AND metric IS NOT NULL GROUP BY metric, bucketStart, bucketEnd
                    """, arguments: [build])
            while let row = try buckets.next() {
                let range = FieldData.Range(start: row[1], end: row[2])
                let count: Double = row[3]
                data.histograms[row[0], default: [:]][range, default: 0] += count
            }
            let exits = try Row.fetchCursor(
                db, sql: "SELECT context, reason, sum(count) FROM fieldExit WHERE buildId = ? GROUP BY context, reason", arguments: [build])
            while let row = try exits.next() {
                let count: Double = row[2]
                data.exits[row[0], default: [:]][row[1], default: 0] += count
            }
            let foreground = try Row.fetchCursor(
                db,
                sql: "SELECT amount, unit FROM fieldValue WHERE buildId = ? AND field = 'applicationTimeMetrics.cumulativeForegroundTime'",
                arguments: [build])
            while let row = try foreground.next() {
                let amount: Double? = row[0]
                let unit: String? = row[1]
                if let amount, let unit, let nanoseconds = MetricKitMeasurement(amount: amount, unit: unit).nanoseconds {
                    data.foreground += nanoseconds
                }
            }
            return data
        }
    }
}
