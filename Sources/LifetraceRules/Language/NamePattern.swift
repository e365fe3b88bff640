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
///
/// The compiled pattern takes memory linear in its bytes, with a small constant whatever its
/// shape: the pieces between `*`s lie end to end in one byte array, with one array of their
/// failure tables and one of where each piece ends (about 9 bytes per byte of the pattern), never
/// one allocation per piece (a 1 MiB `a*a*a*…` glob would otherwise be half a million of them).
public struct NamePattern: Sendable, Hashable, CustomStringConvertible {
    /// The name or glob as written.
    public let text: String
    /// The bytes before the first `*` (the whole name when there is none).
    private let head: [UInt8]
    /// The bytes after the last `*` (empty when there is none).
    private let tail: [UInt8]
    /// The non-empty pieces between two `*`s, end to end.
    private let middle: [UInt8]
    /// Where each piece of ``middle`` ends.
    private let middleEnds: [UInt32]
    /// `failure[i]`: the length of the longest proper border of the piece holding byte `i` of
    /// ``middle``, up to and including that byte (the Knuth-Morris-Pratt table).
    private let failure: [UInt32]
    /// Whether the pattern holds a `*`.
    public let isGlob: Bool

    /// The pattern `text`.
    public init(_ text: String) {
        self.text = text
        let bytes = Array(text.utf8)
        let star = UInt8(ascii: "*")
        guard let first = bytes.firstIndex(of: star), let last = bytes.lastIndex(of: star) else {
            isGlob = false
            head = bytes
            tail = []
            middle = []
            middleEnds = []
            failure = []
            return
        }
        isGlob = true
        head = Array(bytes[..<first])
        tail = Array(bytes[(last + 1)...])
        var middle: [UInt8] = []
        var ends: [UInt32] = []
        middle.reserveCapacity(max(0, last - first - 1))
        var pieceStart = 0
        for byte in bytes[(first + 1)..<max(first + 1, last)] {
            if byte != star {
                middle.append(byte)
            } else if middle.count > pieceStart {
                ends.append(UInt32(middle.count))
                pieceStart = middle.count
            }
        }
        if middle.count > pieceStart { ends.append(UInt32(middle.count)) }
        var failure = [UInt32](repeating: 0, count: middle.count)
        var start = 0
        for end in ends {
            var border = 0
            for index in (start + 1)..<max(start + 1, Int(end)) {
                while border > 0 && middle[index] != middle[start + border] { border = Int(failure[start + border - 1]) }
                if middle[index] == middle[start + border] { border += 1 }
                failure[index] = UInt32(border)
            }
            start = Int(end)
        }
        self.middle = middle
        self.middleEnds = ends
        self.failure = failure
    }

    public static func == (lhs: NamePattern, rhs: NamePattern) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    public func hash(into hasher: inout Hasher) { for byte in text.utf8 { hasher.combine(byte) } }

    /// The longest literal piece a matching name must hold (its start, its end or a piece between
    /// two `*`s), cut to its first `limit` bytes; empty when the pattern has no literal byte.
    func requiredPiece(limit: Int) -> [UInt8] {
        var best: ArraySlice<UInt8> = head[...]
        if tail.count > best.count { best = tail[...] }
        var start = 0
        for end in middleEnds {
            if Int(end) - start > best.count { best = middle[start..<Int(end)] }
            start = Int(end)
        }
        return Array(best.prefix(limit))
    }

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
        var position = head.count
        let end = name.count - tail.count
        var pieceStart = 0
        for pieceEnd in middleEnds {
            guard let found = firstEnd(of: pieceStart..<Int(pieceEnd), in: name, from: position, to: end) else { return false }
            position = found
            pieceStart = Int(pieceEnd)
        }
        return true
    }

    /// The end of the first occurrence of the piece `middle[piece]` in `text[start..<end]`, or
    /// nil. Reads each byte of the range at most once (the matched length falls back through
    /// ``failure``, never the position in the text), so the search is O(end - start + piece).
    private func firstEnd(of piece: Range<Int>, in text: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        let base = piece.lowerBound
        let length = piece.count
        var matched = 0
        var position = start
        while position < end {
            let byte = text[position]
            while matched > 0 && byte != middle[base + matched] { matched = Int(failure[base + matched - 1]) }
            if byte == middle[base + matched] { matched += 1 }
            position += 1
            if matched == length { return position }
        }
        return nil
    }

    public var description: String { text }
}
