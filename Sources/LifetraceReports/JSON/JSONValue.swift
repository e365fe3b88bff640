import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// A JSON value built as a tree, for the small documents (SARIF, summaries, rows): written by the
/// package's one JSON writer (`JSONOutput`), in the order given, strings escaped per RFC 8259
/// with U+0085, U+2028 and U+2029 escaped too: the rows are read line by line (docs/JSON.md).
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
        var output: [UInt8] = []
        write(to: &output, indent: indent, level: level)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the JSON text's UTF-8 to `output`, as ``rendered(indent:level:)`` spells it.
    /// Bytes rather than a `String`: the streamed documents write a value per lifetime, and
    /// appending to a byte array costs a fraction of appending to a string.
    public func write(to output: inout [UInt8], indent: Int? = nil, level: Int = 0) {
        JSONOutput.write(to: &output, indent: indent, level: level) { $0.value(self) }
    }
}

extension JSONOutput {
    /// Writes a value built as a tree.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let value): self.value(value)
        case .int(let value): self.value(value)
        case .number(let value): self.value(value)
        case .string(let value): self.value(value)
        case .array(let values):
            array { json in
                for value in values {
                    json.separate()
                    json.value(value)
                }
            }
        case .object(let members):
            object { json in
                for member in members {
                    json.key(escaping: member.key)
                    json.value(member.value)
                }
            }
        }
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
