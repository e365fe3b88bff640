/// A trace's metadata: ordered string fields such as app id, app version, OS, device, recorder.
/// Keys and values are compared by their UTF-8 bytes, like names (``SymbolTable``).
///
/// In the text form it is the optional first line, `{"type":"meta", ...}`; in the binary form it
/// is part of the file header.
public struct TraceMetadata: Hashable, Sendable {
    /// The fields, in the order they were written. Keys are unique.
    public private(set) var fields: [(key: String, value: String)]

    /// Empty metadata.
    public init() { fields = [] }

    /// Metadata with these fields; a later duplicate key replaces the earlier value.
    public init(_ fields: [(key: String, value: String)]) {
        self.fields = []
        for field in fields { self[field.key] = field.value }
    }

    /// The value for `key`; setting nil removes the field.
    public subscript(key: String) -> String? {
        get { fields.first(where: { $0.key.utf8.elementsEqual(key.utf8) })?.value }
        set {
            if let index = fields.firstIndex(where: { $0.key.utf8.elementsEqual(key.utf8) }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append((key, newValue))
            }
        }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public static func == (lhs: TraceMetadata, rhs: TraceMetadata) -> Bool {
        lhs.fields.elementsEqual(rhs.fields, by: { $0.key.utf8.elementsEqual($1.key.utf8) && $0.value.utf8.elementsEqual($1.value.utf8) })
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.key)
            hasher.combine(field.value)
        }
    }
}
