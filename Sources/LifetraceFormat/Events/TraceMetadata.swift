/// A trace's metadata: ordered string fields such as app id, app version, OS, device, recorder.
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
        get { fields.first(where: { $0.key == key })?.value }
        set {
            if let index = fields.firstIndex(where: { $0.key == key }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append((key, newValue))
            }
        }
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    public static func == (lhs: TraceMetadata, rhs: TraceMetadata) -> Bool {
        lhs.fields.elementsEqual(rhs.fields, by: { $0.key == $1.key && $0.value == $1.value })
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.key)
            hasher.combine(field.value)
        }
    }
}
