import Foundation

/// Where Foundation's JSON parser stopped in a document, as a line and column people can find.
public struct JSONErrorLocation: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, counting characters (Unicode scalars), not bytes.
    public var column: Int
    /// Foundation's reason, on one line.
    public var reason: String

    /// The place and reason of `error`, thrown by `JSONSerialization` while parsing `bytes`.
    public init(of error: any Error, in bytes: [UInt8]) {
        let offset = min(Self.offset(of: error, length: bytes.count), bytes.count)
        let newline = UInt8(ascii: "\n")
        let lineStart = bytes[..<offset].lastIndex(of: newline).map { $0 + 1 } ?? 0
        line = 1 + bytes[..<lineStart].count { $0 == newline }
        column = 1 + bytes[lineStart..<offset].count { $0 & 0xC0 != 0x80 }
        let text = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? "\(error)"
        reason = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// `line 3, column 7: <reason>`.
    public var description: String { "line \(line), column \(column): \(reason)" }

    /// Foundation says "around character N" (a byte offset) for most syntax errors, and nothing for
    /// an unexpected end, which is at the end of the text.
    static func offset(of error: any Error, length: Int) -> Int {
        let userInfo = (error as NSError).userInfo
        if let index = userInfo["NSJSONSerializationErrorIndex"] as? Int { return index }
        let text = (userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
        if let range = text.range(of: "around character ") {
            let digits = text[range.upperBound...].prefix(while: \.isNumber)
            if let offset = Int(digits) { return offset }
        }
        return length
    }
}
