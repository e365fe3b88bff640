import Foundation

/// Reads MetricKit payloads: the JSON an app writes from `MXMetricPayload.jsonRepresentation()`
/// or `MXDiagnosticPayload.jsonRepresentation()`, one payload per file (docs/HISTORY.md,
/// "MetricKit"). A file is told to be a payload by its content; a payload that cannot be read is
/// one line naming the file and the field (or the JSON's line and column).
public enum MetricKitReader {
    /// A payload that cannot be read: the file, where in it, and why.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public var path: String
        /// `$.applicationLaunchMetrics.histogrammedTimeToFirstDrawKey.histogramValue.0.bucketCount`,
        /// or the JSON parser's own place (`line 3, column 5`).
        public var location: String
        public var reason: String
        public var description: String { "\(path): \(location): not a readable MetricKit payload: \(reason); nothing was added" }
    }

    /// What a file is.
    public enum Verdict: Sendable {
        /// A payload, read.
        case payload(MetricKitPayload)
        /// Not a payload (a trace, rows, another JSON file).
        case other
    }

    /// The largest payload file read (Apple's payloads are kilobytes to a few megabytes): a file
    /// past it is refused before it is read, so that memory never follows what a file claims.
    static let fileLimit = 16 << 20
    /// The most frames a payload's call-stack trees may hold.
    static let frameLimit = 200_000

    /// Whether the file at `path` is a MetricKit payload, by its content: a JSON object with a
    /// payload's members (`timeStampBegin`, `timeStampEnd`, `metaData`, `...Metrics`,
    /// `...Diagnostics`). A file named `.json` that is not valid JSON is a malformed payload; a
    /// file of another name that is not JSON is no payload.
    public static func read(path: String) throws(Malformed) -> Verdict {
        let named = path.hasSuffix(".json")
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if named { throw Malformed(path: path, location: "file", reason: "cannot be read") }
            return .other
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 64)) ?? Data()
        // A payload is one JSON object: its first character, past white space, is `{`. Other
        // JSON (an array) is no payload; a `.json` file that is no JSON at all is a bad one.
        guard head.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) == UInt8(ascii: "{") else {
            guard named, (try? handle.seek(toOffset: 0)) != nil, let data = try? handle.read(upToCount: fileLimit) else { return .other }
            if (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil { return .other }
            let syntax = syntaxError(in: data)
            throw Malformed(path: path, location: syntax.place, reason: syntax.reason)
        }
        let size = (try? handle.seekToEnd()) ?? 0
        guard size <= UInt64(fileLimit) else {
            if named { throw Malformed(path: path, location: "file", reason: "larger than \(fileLimit >> 20) MB") }
            return .other
        }
        try? handle.seek(toOffset: 0)
        let data = (try? handle.readToEnd()) ?? Data()
        let json: MetricKitJSON
        do {
            json = try JSONDecoder().decode(MetricKitJSON.self, from: data)
        } catch {
            guard named else { return .other }
            let syntax = syntaxError(in: data)
            throw Malformed(path: path, location: syntax.place, reason: syntax.reason)
        }
        guard let members = json.members, isPayload(members.map(\.key)) else { return .other }
        return .payload(try payload(json, path: path))
    }

    /// Whether an object with these members is a payload.
    static func isPayload(_ keys: [String]) -> Bool {
        keys.contains { ["timeStampBegin", "timeStampEnd", "metaData"].contains($0) || $0.hasSuffix("Metrics") || $0.hasSuffix("Diagnostics") }
    }

    /// The payload of a decoded file.
    static func payload(_ json: MetricKitJSON, path: String) throws(Malformed) -> MetricKitPayload {
        let members = json.members ?? []
        let diagnostic = members.contains { $0.key.hasSuffix("Diagnostics") }
        var walker = MetricKitWalker(payload: MetricKitPayload(path: path, kind: diagnostic ? .diagnostic : .metric))
        try walker.payloadMembers(members)
        return walker.payload
    }

    /// Where the JSON stops being JSON (`line 3, column 5`) and why, from Foundation's parser
    /// (which names the byte: `Invalid value around character 9.`).
    private static func syntaxError(in data: Data) -> (place: String, reason: String) {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
        } catch {
            let text = ((error as NSError).userInfo["NSDebugDescription"] as? String) ?? "not valid JSON"
            guard let range = text.range(of: #" around character \d+"#, options: .regularExpression),
                let offset = Int(text[range].filter(\.isNumber)), offset <= data.count
            else { return ("JSON", text) }
            let before = data.prefix(offset)
            let line = before.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 - data.startIndex + 1 } ?? 0) + 1
            return ("line \(line), column \(column)", String(text[..<range.lowerBound]).lowercased())
        }
        return ("JSON", "nesting deeper than the JSON parser reads (512 levels)")
    }
}
