/// Where the members of a JSON object document are written: each key's line and column, and
/// those of its value, for errors about a JSON input file (a budget file) that Foundation's
/// parser, which gives no positions, has already read. The scan is ``JSONLObject``'s, over a
/// whole document instead of one line.
public struct JSONMemberPositions: Sendable {
    /// A member: its key, and where the key and the value start.
    public struct Member: Sendable, Hashable {
        /// The unescaped key.
        public var key: String
        /// The key's line and column (from 1; columns count characters).
        public var line: Int
        public var column: Int
        /// The value's line and column.
        public var valueLine: Int
        public var valueColumn: Int
        /// The value's bytes in the document.
        var valueRange: Range<Int>
    }

    /// The document's bytes.
    private let bytes: [UInt8]
    /// The object's members, in the order written.
    public let members: [Member]

    /// The members of the object that is `bytes` (a document Foundation has parsed: valid JSON
    /// whose top level is an object).
    public init(document bytes: [UInt8]) {
        self.init(bytes: bytes, object: 0..<bytes.count)
    }

    private init(bytes: [UInt8], object: Range<Int>) {
        self.bytes = bytes
        let slice = Array(bytes[object])
        guard slice.contains(UInt8(ascii: "{")) else {
            members = []
            return
        }
        members = JSONLObject.scanMembers(slice).map { member in
            let key = Self.position(of: object.lowerBound + member.keyOffset, in: bytes)
            let value = Self.position(of: object.lowerBound + member.valueRange.lowerBound, in: bytes)
            return Member(
                key: member.key, line: key.line, column: key.column, valueLine: value.line, valueColumn: value.column,
                valueRange: (object.lowerBound + member.valueRange.lowerBound)..<(object.lowerBound + member.valueRange.upperBound))
        }
    }

    /// The member `key`, the last if it is written more than once (as Foundation keeps it).
    public func member(_ key: String) -> Member? { members.last { $0.key == key } }

    /// The members of the object that is `key`'s value, or nil when it is not an object.
    public func object(_ key: String) -> JSONMemberPositions? {
        guard let member = member(key), bytes[member.valueRange.lowerBound] == UInt8(ascii: "{") else { return nil }
        return JSONMemberPositions(bytes: bytes, object: member.valueRange)
    }

    /// The 1-based line and column (in characters) of byte `offset` of `bytes`.
    public static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let newline = UInt8(ascii: "\n")
        let end = min(offset, bytes.count)
        let lineStart = bytes[..<end].lastIndex(of: newline).map { $0 + 1 } ?? 0
        let line = 1 + bytes[..<lineStart].count { $0 == newline }
        return (line, JSONLObject.column(of: end - lineStart, in: Array(bytes[lineStart..<end])))
    }
}
