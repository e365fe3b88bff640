import Foundation

/// One line of JSONL parsed by Foundation, with the position and raw text of each top-level member.
///
/// Foundation's parser checks the syntax and unescapes strings; it reports neither key order,
/// duplicate keys, positions, nor whether `1` was written as `1.0`. A pass over the (already
/// valid) line's top level recovers those, so that errors can name a line and column and integers
/// can be held to integer syntax.
struct JSONLObject {
    /// The JSON kind of a member's value, from its first character.
    enum ValueKind: Equatable {
        case string, number, bool, null, object, array
    }

    /// One top-level `"key": value` member.
    struct Member {
        /// The unescaped key.
        var key: String
        /// Byte offset of the key's opening quote.
        var keyOffset: Int
        /// Byte range of the value's text.
        var valueRange: Range<Int>
        /// What the value is.
        var kind: ValueKind
    }

    /// The line's bytes.
    let bytes: [UInt8]
    /// The members in the order written.
    let members: [Member]
    private let values: [String: Any]

    /// Parses `line`; `lineNumber` and `file` place errors.
    init(line: Data, lineNumber: Int, file: String) throws(TraceError) {
        let bytes = [UInt8](line)
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: line, options: [])
        } catch {
            let offset = JSONErrorLocation.offset(of: error, length: bytes.count)
            let reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
            throw TraceError(
                .syntax, file: file, at: .line(lineNumber, column: Self.column(of: offset, in: bytes)),
                "invalid JSON: \(reason)")
        }
        guard let values = parsed as? [String: Any] else {
            let offset = bytes.firstIndex(where: { !Self.isWhitespace($0) }) ?? 0
            throw TraceError(
                .syntax, file: file, at: .line(lineNumber, column: Self.column(of: offset, in: bytes)),
                "expected a JSON object")
        }
        self.bytes = bytes
        self.values = values
        self.members = Self.scanMembers(bytes)
    }

    /// The 1-based column of byte `offset`, counting characters (Unicode scalars), not bytes.
    func column(of offset: Int) -> Int { Self.column(of: offset, in: bytes) }

    /// The string value of `member`, unescaped, or nil if it is not a string.
    func string(_ member: Member) -> String? {
        guard member.kind == .string else { return nil }
        let inner = bytes[(member.valueRange.lowerBound + 1)..<(member.valueRange.upperBound - 1)]
        // Without escapes the text is the string (Foundation has checked that it is valid UTF-8).
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        return values[member.key] as? String
    }

    /// The raw text of `member`'s value, as written.
    func rawText(_ member: Member) -> Substring {
        Substring(decoding: bytes[member.valueRange], as: UTF8.self)
    }

    /// The Boolean value of `member`, or nil if it is not `true` or `false`.
    func bool(_ member: Member) -> Bool? {
        guard member.kind == .bool else { return nil }
        return bytes[member.valueRange.lowerBound] == UInt8(ascii: "t")
    }

    static func column(of offset: Int, in bytes: [UInt8]) -> Int {
        var column = 1
        for byte in bytes[0..<min(offset, bytes.count)] where byte & 0xC0 != 0x80 { column += 1 }
        return column
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The top-level members of a valid JSON object, in order.
    static func scanMembers(_ bytes: [UInt8]) -> [Member] {
        var members: [Member] = []
        var index = bytes.firstIndex(of: UInt8(ascii: "{"))! + 1
        while true {
            index = skipWhitespace(bytes, from: index)
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return members }
            let keyStart = index
            let keyEnd = endOfString(bytes, from: keyStart)
            let key = decodeKey(bytes[keyStart..<keyEnd])
            index = skipWhitespace(bytes, from: keyEnd) + 1  // past ':'
            let valueStart = skipWhitespace(bytes, from: index)
            let valueEnd = endOfValue(bytes, from: valueStart)
            members.append(
                Member(
                    key: key, keyOffset: keyStart, valueRange: valueStart..<valueEnd,
                    kind: kind(of: bytes[valueStart])))
            index = skipWhitespace(bytes, from: valueEnd)
            guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return members }
            index += 1
        }
    }

    private static func kind(of first: UInt8) -> ValueKind {
        switch first {
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "n"): .null
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        default: .number
        }
    }

    private static func decodeKey(_ quoted: ArraySlice<UInt8>) -> String {
        let inner = quoted.dropFirst().dropLast()
        if !inner.contains(UInt8(ascii: "\\")) { return String(decoding: inner, as: UTF8.self) }
        let decoded = try? JSONSerialization.jsonObject(with: Data(quoted), options: [.fragmentsAllowed])
        return decoded as? String ?? String(decoding: inner, as: UTF8.self)
    }

    static func skipWhitespace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count && isWhitespace(bytes[index]) { index += 1 }
        return index
    }

    /// The index just past the string that starts with the quote at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
        return index
    }

    /// The index just past the value that starts at `start`.
    static func endOfValue(_ bytes: [UInt8], from start: Int) -> Int {
        guard start < bytes.count else { return start }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, from: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return index
        default:
            var index = start
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || isWhitespace(byte) { break }
                index += 1
            }
            return index
        }
    }
}
