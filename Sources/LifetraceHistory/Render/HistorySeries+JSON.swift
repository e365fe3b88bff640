import LifetraceFormat
import LifetraceReports

extension HistorySeries {
    /// The version of the JSON form's schema (docs/HISTORY.md); raised when a field changes
    /// meaning or is removed, never for an added one.
    public static let schemaVersion: Int64 = 1

    /// The history as one JSON document (docs/HISTORY.md, "JSON"), written a point and a
    /// series at a time, so that no tree of the whole history is held: its memory is the text's.
    public var json: String {
        var bytes = Array("{\"schema\":\(Self.schemaVersion),\"order\":\"\(order.rawValue)\",\"points\":[".utf8)
        for (index, point) in points.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            pointJSON(point).write(to: &bytes)
        }
        bytes += Array("],\"series\":[".utf8)
        for (index, series) in series.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            seriesJSON(series).write(to: &bytes)
        }
        bytes += Array("]}\n".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func pointJSON(_ point: Point) -> JSONValue {
                .object([
                    JSONMember("label", .string(point.label)),
                    JSONMember("build", .string(point.first.buildID)),
                    JSONMember("commit", .optional(point.first.commit)),
                    JSONMember("branch", .optional(point.first.branch)),
                    JSONMember("appVersion", .optional(point.first.appVersion)),
                    JSONMember("buildNumber", .optional(point.first.buildNumber)),
                    JSONMember("device", .optional(point.first.device)),
                    JSONMember("os", .optional(point.first.os)),
                    JSONMember("date", .string(point.first.date)),
                    JSONMember("builds", .int(Int64(point.builds))),
                    JSONMember("runs", .int(Int64(point.runs))),
                    JSONMember("lifetimes", .int(Int64(point.lifetimes))),
                    JSONMember("payloads", .int(Int64(point.payloads))),
                ])
    }

    private func seriesJSON(_ series: Series) -> JSONValue {
                .object([
                    JSONMember("metric", .string(series.metric.key)),
                    JSONMember("title", .string(series.metric.title)),
                    JSONMember("unit", .string(series.metric.unit.rawValue)),
                    JSONMember("figures", .array(series.figures.map { figure in
                        figure.map {
                            .object([
                                JSONMember("value", Self.number($0.value, series.metric)),
                                JSONMember("low", Self.number($0.low, series.metric)),
                                JSONMember("high", Self.number($0.high, series.metric)), JSONMember("n", .int(Int64($0.n))),
                            ])
                        } ?? .null
                    })),
                    JSONMember("changes", .array(series.changes.map { change in
                        let point = points[change.index]
                        return .object([
                            JSONMember("index", .int(Int64(change.index))),
                            JSONMember("point", .string(point.label)),
                            JSONMember("build", .string(point.first.buildID)),
                            JSONMember("commit", .optional(point.first.commit)),
                            JSONMember("before", .number(change.before)),
                            JSONMember("after", .number(change.after)),
                            JSONMember("relative", change.relative.map(JSONValue.number) ?? .null),
                            JSONMember("pValue", .number(change.pValue)),
                            JSONMember("sentence", .string(sentence(series, change))),
                        ])
                    })),
                ])
    }

    /// A figure as JSON: durations in whole nanoseconds (a percentile is one already), the other
    /// units as numbers.
    private static func number(_ value: Double, _ metric: HistoryMetric) -> JSONValue {
        metric.unit == .duration ? .int(TraceTime.nanoseconds(value)) : .number(value)
    }
}
