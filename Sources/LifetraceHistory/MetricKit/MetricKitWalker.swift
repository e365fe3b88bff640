/// Walks a payload's JSON once and puts each field where the history keeps it: the payload's
/// metadata, histograms, exit counts, diagnostics and their frames, or, for any other field, a
/// value kept as given. Each field is counted where it went (``MetricKitPayload/accounted``);
/// a field Apple does not document is kept and named in a note, never dropped.
struct MetricKitWalker {
    var payload: MetricKitPayload

    typealias Malformed = MetricKitReader.Malformed

    /// Counts one field as gone to `destination`.
    mutating func account(_ destination: String, _ count: Int = 1) {
        payload.accounted[destination, default: 0] += count
    }

    func malformed(_ path: String, _ reason: String) -> Malformed {
        Malformed(path: payload.path, location: "$." + path, reason: reason)
    }

    /// The payload's own members.
    mutating func payloadMembers(_ members: [(key: String, value: MetricKitJSON)]) throws(Malformed) {
        for (key, value) in members {
            switch (key, value) {
            case ("timeStampBegin", .string(let text)):
                payload.begin = text
                account("fieldPayload.begin")
            case ("timeStampEnd", .string(let text)):
                payload.end = text
                account("fieldPayload.end")
            case ("appVersion", .string(let text)):
                payload.appVersion = text
                account("fieldPayload.appVersion")
            case ("metaData", .object):
                try metaData(value, path: key)
            case ("applicationExitMetrics", .object):
                try exitMetrics(value, path: key)
            case (_, .array(let items)) where key.hasSuffix("Diagnostics"):
                if !MetricKitFields.diagnosticArrays.contains(key) {
                    payload.notes.append("\(payload.path): $.\(key): diagnostics Apple does not document; kept as `\(Self.diagnosticKind(key))`")
                }
                for (position, item) in items.enumerated() {
                    try diagnostic(item, kind: Self.diagnosticKind(key), position: position, path: "\(key)[\(position)]")
                }
            default:
                try field(value, path: key, diagnostic: nil)
            }
        }
    }

    /// `hangDiagnostics` -> `hang`.
    static func diagnosticKind(_ key: String) -> String { String(key.dropLast("Diagnostics".count)) }

    /// `metaData`: the device, OS, build and architecture go with the payload; the other fields
    /// are kept as values.
    private mutating func metaData(_ value: MetricKitJSON, path: String) throws(Malformed) {
        for (key, member) in value.members ?? [] {
            let column: WritableKeyPath<MetricKitPayload, String?>? = switch key {
            case "appBuildVersion": \.buildNumber
            case "osVersion": \.os
            case "deviceType": \.device
            case "platformArchitecture": \.architecture
            case "regionFormat": \.region
            case "appVersion": \.appVersion
            default: nil
            }
            if let column, case .string(let text) = member, payload[keyPath: column] == nil {
                payload[keyPath: column] = text
                account("fieldPayload.\(Self.columnName(key))")
            } else {
                try field(member, path: "\(path).\(key)", diagnostic: nil)
            }
        }
    }

    /// The payload column a metadata field fills.
    static func columnName(_ key: String) -> String {
        switch key {
        case "appBuildVersion": "buildNumber"
        case "osVersion": "os"
        case "deviceType": "device"
        case "platformArchitecture": "architecture"
        case "regionFormat": "region"
        default: key
        }
    }

    /// `applicationExitMetrics`: `foregroundExitData` and `backgroundExitData`, each a count per
    /// reason (`cumulativeAppWatchdogExitCount`).
    private mutating func exitMetrics(_ value: MetricKitJSON, path: String) throws(Malformed) {
        for (key, member) in value.members ?? [] {
            let context = key == "foregroundExitData" ? "foreground" : key == "backgroundExitData" ? "background" : nil
            guard let context, let counts = member.members else {
                try field(member, path: "\(path).\(key)", diagnostic: nil)
                continue
            }
            for (name, count) in counts {
                let fieldPath = "\(path).\(key).\(name)"
                guard name.hasPrefix("cumulative"), name.hasSuffix("ExitCount") else {
                    try field(count, path: fieldPath, diagnostic: nil)
                    continue
                }
                if case .null = count {
                    try field(count, path: fieldPath, diagnostic: nil)
                    continue
                }
                let reason = MetricKitFields.exitReason(name)
                if !MetricKitFields.exitReasons(context).contains(name) {
                    payload.notes.append("\(payload.path): $.\(fieldPath): an exit count Apple does not document for the \(context); kept as `\(reason)`")
                }
                payload.exits.append(MetricKitPayload.Exit(context: context, reason: reason, count: try self.count(count, path: fieldPath)))
                account("fieldExit.count")
            }
        }
    }

    /// A count: a whole number from 0 to 2^53 (beyond, a sum of counts would lose its units).
    func count(_ value: MetricKitJSON, path: String) throws(Malformed) -> Int64 {
        guard case .integer(let count) = value, count >= 0, count <= 1 << 53 else {
            throw malformed(path, "expected a count (a whole number from 0 to 2^53), found \(value.shown)")
        }
        return count
    }

    /// Any other field: a histogram where it is one, an object's or array's members each, and a
    /// leaf kept as it is given.
    mutating func field(_ value: MetricKitJSON, path: String, diagnostic: Int?) throws(Malformed) {
        switch value {
        case .object(let members) where members["histogramValue"] != nil:
            try histogram(value, path: path)
        case .object:
            for (key, member) in value.members ?? [] { try field(member, path: "\(path).\(key)", diagnostic: diagnostic) }
        case .array(let items):
            for (index, item) in items.enumerated() { try field(item, path: "\(path)[\(index)]", diagnostic: diagnostic) }
        default:
            var measurement: MetricKitMeasurement?
            if case .string(let text) = value { measurement = MetricKitMeasurement(text) }
            let documented = MetricKitFields.documented(path, in: diagnostic == nil ? payload.kind : .diagnostic)
            if !documented {
                payload.notes.append("\(payload.path): $.\(Self.shownPath(path, diagnostic: diagnostic, payload)): a field Apple does not document; kept as it is")
            }
            payload.values.append(MetricKitPayload.Value(
                diagnostic: diagnostic, field: path, value: value.stored, amount: measurement?.amount, unit: measurement?.unit,
                documented: documented))
            account("fieldValue.value")
        }
    }

    /// A diagnostic's field path as the file has it.
    static func shownPath(_ path: String, diagnostic: Int?, _ payload: MetricKitPayload) -> String {
        guard let diagnostic else { return path }
        let entry = payload.diagnostics[diagnostic]
        return "\(entry.kind)Diagnostics[\(entry.position)].\(path)"
    }

    /// A histogram: `histogramNumBuckets` (checked against the buckets) and `histogramValue`, an
    /// object of buckets keyed `0`, `1`, ... (or an array), each `bucketStart`, `bucketEnd` (a
    /// measurement) and `bucketCount`.
    private mutating func histogram(_ value: MetricKitJSON, path: String) throws(Malformed) {
        var buckets: [(key: Int, bucket: MetricKitPayload.Bucket)] = []
        var unit: String?
        var claimed: Int64?
        for (key, member) in value.members ?? [] {
            switch key {
            case "histogramNumBuckets":
                claimed = try count(member, path: "\(path).\(key)")
                account("checked:histogramNumBuckets")
            case "histogramValue":
                let entries: [(String, MetricKitJSON)]
                switch member {
                case .object: entries = (member.members ?? []).map { ($0.key, $0.value) }
                case .array(let items): entries = items.enumerated().map { (String($0.offset), $0.element) }
                default: throw malformed("\(path).\(key)", "expected the buckets, found \(member.shown)")
                }
                for (name, entry) in entries {
                    let bucketPath = "\(path).\(key).\(name)"
                    var start: MetricKitMeasurement?, end: MetricKitMeasurement?, bucketCount: Int64?
                    for (field, item) in entry.members ?? [] {
                        switch (field, item) {
                        case ("bucketStart", .string(let text)): start = MetricKitMeasurement(text)
                        case ("bucketEnd", .string(let text)): end = MetricKitMeasurement(text)
                        case ("bucketStart", .integer(let number)), ("bucketEnd", .integer(let number)):
                            let measurement = MetricKitMeasurement(amount: Double(number), unit: "")
                            if field == "bucketStart" { start = measurement } else { end = measurement }
                        case ("bucketCount", _): bucketCount = try count(item, path: "\(bucketPath).\(field)")
                        default:
                            try self.field(item, path: "\(bucketPath).\(field)", diagnostic: nil)
                            continue
                        }
                        if field != "bucketCount" && (field == "bucketStart" ? start : end) == nil {
                            throw malformed("\(bucketPath).\(field)", "expected a measurement such as \"100 ms\", found \(item.shown)")
                        }
                    }
                    guard let start, let end, let bucketCount else {
                        throw malformed(bucketPath, "a bucket needs bucketStart, bucketEnd and bucketCount")
                    }
                    guard start.unit == end.unit else { throw malformed(bucketPath, "bucketStart and bucketEnd in different units") }
                    if let unit, unit != start.unit { throw malformed(bucketPath, "buckets in different units (\(unit), \(start.unit))") }
                    unit = start.unit
                    let bucket = MetricKitPayload.Bucket(
                        start: start.nanoseconds ?? start.amount, end: end.nanoseconds ?? end.amount, count: bucketCount)
                    buckets.append((Int(name) ?? buckets.count, bucket))
                    account("fieldHistogram.bucketStart")
                    account("fieldHistogram.bucketEnd")
                    account("fieldHistogram.count")
                }
            default:
                try field(member, path: "\(path).\(key)", diagnostic: nil)
            }
        }
        let isDuration = unit.flatMap { MetricKitMeasurement(amount: 1, unit: $0).nanoseconds } != nil
        let metric = MetricKitFields.histogramMetric(path)
        if metric == nil && !MetricKitFields.documentedHistograms.contains(MetricKitFields.pattern(path)) {
            payload.notes.append("\(payload.path): $.\(path): a histogram Apple does not document; kept as it is")
        }
        if let claimed, claimed != buckets.count {
            payload.notes.append("\(payload.path): $.\(path).histogramNumBuckets says \(claimed) buckets, histogramValue has \(buckets.count); the buckets are kept")
        }
        payload.histograms.append(MetricKitPayload.Histogram(
            field: path, metric: metric, unit: isDuration ? "ns" : unit ?? "", buckets: buckets.sorted { $0.key < $1.key }.map(\.bucket)))
    }
}
