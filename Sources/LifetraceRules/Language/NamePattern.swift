import Foundation

/// A NAME in a selector: an exact name, or a glob where `*` stands for any run of characters.
public struct NamePattern: Sendable, Hashable, CustomStringConvertible {
    /// The name or glob as written.
    public let text: String
    private let parts: [Substring]

    /// The pattern `text`.
    public init(_ text: String) {
        self.text = text
        parts = text.split(separator: "*", omittingEmptySubsequences: false)
    }

    /// Whether the pattern holds a `*`.
    public var isGlob: Bool { parts.count > 1 }

    /// Whether `name` matches.
    public func matches(_ name: String) -> Bool {
        guard isGlob else { return name == text }
        var rest = Substring(name)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        let last = parts[parts.count - 1]
        return rest.count >= last.count && rest.hasSuffix(last)
    }

    public var description: String { text }
}
