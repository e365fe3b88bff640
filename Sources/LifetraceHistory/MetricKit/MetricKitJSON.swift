import Foundation

/// A MetricKit payload's JSON as read, before anything is made of it: every value with its kind,
/// so that a boolean is told from a number and a field of any kind can be named and kept.
/// Decoded with Foundation's `JSONDecoder`, whose parser refuses nesting deeper than 512 levels
/// (a stack tree claiming more is a malformed file, not a deep recursion here).
indirect enum MetricKitJSON: Decodable, Sendable {
    case object([String: MetricKitJSON])
    case array([MetricKitJSON])
    case string(String)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([MetricKitJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: MetricKitJSON].self))
        }
    }

    /// The value as the store keeps a field it has no column for: text, a number, or 0 and 1.
    var stored: StoredValue {
        switch self {
        case .string(let text): .text(text)
        case .integer(let value): .integer(value)
        case .number(let value): .real(value)
        case .bool(let value): .integer(value ? 1 : 0)
        case .null: .null
        case .object, .array: .text("")
        }
    }

    /// A leaf value as stored.
    enum StoredValue: Sendable, Hashable {
        case text(String), integer(Int64), real(Double), null
    }

    /// The value in a sentence (a note or an error), cut short.
    var shown: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string(let text): "\"\(text.prefix(40))\(text.count > 40 ? "..." : "")\""
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .bool(let value): String(value)
        case .null: "null"
        }
    }

    /// The object's members, by name order (the decoder keeps no order).
    var members: [(key: String, value: MetricKitJSON)]? {
        guard case .object(let members) = self else { return nil }
        return members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// How many leaves (values that are no object or array) the value holds: the fields an
    /// import accounts for. Counted with a stack, not recursion.
    var leafCount: Int {
        var count = 0
        var pending = [self]
        while let value = pending.popLast() {
            switch value {
            case .object(let members): pending += members.values
            case .array(let items): pending += items
            default: count += 1
            }
        }
        return count
    }
}
