/// A small JSON builder: values are written in the order given, strings escaped per RFC 8259.
///
/// Output is compact unless `indent` is set; keys keep their insertion order so that reports
/// are stable and diff well.
public indirect enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer (times are integers of nanoseconds).
    case int(Int64)
    /// A number with a fraction, written in its shortest exact form (`0.05`, `1e-09`);
    /// non-finite values are written as `null`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object with ordered keys.
    case object([JSONMember])

    /// `value` as a string, or `null` when nil.
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// `value` as an integer, or `null` when nil.
    public static func optional(_ value: Int64?) -> JSONValue { value.map(JSONValue.int) ?? .null }

    /// The JSON text; with `indent`, one member per line indented by that many spaces per level,
    /// starting at `level` (for a value written inside a document streamed piece by piece).
    public func rendered(indent: Int? = nil, level: Int = 0) -> String {
        var output = ""
        write(to: &output, indent: indent, level: level)
        return output
    }

    private func write(to output: inout String, indent: Int?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .number(let value): output += value.isFinite ? value.description : "null"
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let values):
            if values.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                JSONValue.newline(&output, indent: indent, level: level + 1)
                value.write(to: &output, indent: indent, level: level + 1)
            }
            JSONValue.newline(&output, indent: indent, level: level)
            output += "]"
        case .object(let members):
            if members.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                JSONValue.newline(&output, indent: indent, level: level + 1)
                JSONValue.writeString(member.key, to: &output)
                output += indent == nil ? ":" : ": "
                member.value.write(to: &output, indent: indent, level: level + 1)
            }
            JSONValue.newline(&output, indent: indent, level: level)
            output += "}"
        }
    }

    // Line breaks with their indentation, made once: the streamed documents write one per member.
    private static let breaks = (0..<24).map { "\n" + String(repeating: " ", count: $0) }

    private static func newline(_ output: inout String, indent: Int?, level: Int) {
        guard let indent else { return }
        let width = indent * level
        output += width < breaks.count ? breaks[width] : "\n" + String(repeating: " ", count: width)
    }

    /// Writes `string` as a JSON string literal.
    static func writeString(_ string: String, to output: inout String) {
        output += "\""
        // Most strings (keys, ids, paths) need no escape: appended whole, not scalar by scalar.
        if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value.
    public var value: JSONValue

    /// Creates a member.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
