/// A NAME in a selector: an exact name, or a glob where `*` stands for any run of characters.
///
/// Names are compared by their UTF-8 bytes, never by Swift's `String` equality (canonical
/// equivalence): `cafe\u{301}` and `café` are two names, as they are in the trace. A `*` matches
/// any run of bytes; since the pattern's pieces are whole UTF-8 text and UTF-8 is
/// self-synchronising, a piece found in a name always starts and ends on a character boundary.
///
/// Matching takes time linear in the name and the pattern, whatever both hold: the first piece
/// must begin the name and the last end it, and the pieces between are found left to right, each
/// at its first place after the one before (the leftmost place leaves the most room to the rest,
/// so it is never wrong to take it), by Knuth-Morris-Pratt search, which reads each byte of the
/// name once. A name of n bytes against a pattern of m bytes costs O(n + m); the tables are built
/// once, with the pattern.
public struct NamePattern: Sendable, Hashable, CustomStringConvertible {
    /// The name or glob as written.
    public let text: String
    /// The bytes before the first `*` (the whole name when there is none).
    private let head: [UInt8]
    /// The bytes after the last `*` (empty when there is none).
    private let tail: [UInt8]
    /// The pieces between two `*`s, with their KMP failure tables; empty pieces left out.
    private let middle: [Piece]
    /// Whether the pattern holds a `*`.
    public let isGlob: Bool

    /// The pattern `text`.
    public init(_ text: String) {
        self.text = text
        let parts = Array(text.utf8).split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
        isGlob = parts.count > 1
        head = parts[0]
        tail = isGlob ? parts[parts.count - 1] : []
        middle = isGlob ? parts.dropFirst().dropLast().filter { !$0.isEmpty }.map(Piece.init) : []
    }

    public static func == (lhs: NamePattern, rhs: NamePattern) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    public func hash(into hasher: inout Hasher) { for byte in text.utf8 { hasher.combine(byte) } }

    /// The first byte a matching name begins with, when the pattern fixes it.
    var firstByte: UInt8? { head.first }

    /// Whether `name` matches, byte for byte.
    public func matches(_ name: String) -> Bool {
        if let result = name.utf8.withContiguousStorageIfAvailable({ matches($0) }) { return result }
        return Array(name.utf8).withUnsafeBufferPointer { matches($0) }
    }

    /// Whether the UTF-8 bytes `name` match.
    public func matches(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isGlob else { return name.elementsEqual(head) }
        guard name.count >= head.count + tail.count,
            name.prefix(head.count).elementsEqual(head), name.suffix(tail.count).elementsEqual(tail)
        else { return false }
        var start = head.count
        let end = name.count - tail.count
        for piece in middle {
            guard let found = piece.firstEnd(in: name, from: start, to: end) else { return false }
            start = found
        }
        return true
    }

    public var description: String { text }
}

/// A piece of a glob between two `*`s, ready for Knuth-Morris-Pratt search.
private struct Piece: Sendable, Hashable {
    let bytes: [UInt8]
    /// `failure[i]`: the length of the longest proper border of `bytes[0...i]`.
    let failure: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var failure = [Int](repeating: 0, count: bytes.count)
        var border = 0
        for index in bytes.indices.dropFirst() {
            while border > 0 && bytes[index] != bytes[border] { border = failure[border - 1] }
            if bytes[index] == bytes[border] { border += 1 }
            failure[index] = border
        }
        self.failure = failure
    }

    /// The end of the first occurrence of the piece in `text[start..<end]`, or nil. Reads each
    /// byte of the range at most once (the matched length falls back through `failure`, never
    /// the position in the text), so the whole search is O(end - start + bytes.count).
    func firstEnd(in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        var matched = 0
        var position = start
        while position < end {
            let byte = text[position]
            while matched > 0 && byte != bytes[matched] { matched = failure[matched - 1] }
            if byte == bytes[matched] { matched += 1 }
            position += 1
            if matched == bytes.count { return position }
        }
        return nil
    }
}
