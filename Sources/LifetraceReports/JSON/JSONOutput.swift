/// JSON text written straight into UTF-8 bytes, member by member: the one spelling of every JSON
/// document the reports write (``JSONValue`` writes through it). The streamed documents write a
/// lifetime this way as it ends, without building its tree of values first.
///
/// ```swift
/// JSONOutput.write(to: &bytes, indent: 2, level: 4) { json in
///     json.object { json in
///         json.member("index", 3)
///         json.member("names", strings: ["a", "b"])
///     }
/// }
/// ```
struct JSONOutput {
    /// The text written so far.
    var bytes: [UInt8]
    /// Spaces per level, or nil for compact text.
    let indent: Int?
    /// The indentation level of the members of the innermost open object or array.
    private var level: Int
    /// Whether the innermost open object or array has no member or element yet.
    private var empty = true

    private init(indent: Int?, level: Int) {
        bytes = []
        self.indent = indent
        self.level = level
    }

    /// Appends to `output` the value `body` writes, for a value that starts at `level` of a
    /// document indented by `indent` spaces per level (compact without).
    static func write(to output: inout [UInt8], indent: Int? = nil, level: Int = 0, _ body: (inout JSONOutput) -> Void) {
        write(to: &output, indent: indent, level: level, empty: true, body)
    }

    /// Writes an object whose members `body` writes (`{}` when it writes none).
    mutating func object(_ body: (inout JSONOutput) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// Writes an array whose elements `body` writes (`[]` when it writes none).
    mutating func array(_ body: (inout JSONOutput) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    /// Appends to `output` more members of an object that is already open and has members, one
    /// at each `level` of a document indented by `indent` spaces per level: a streamed document
    /// writes the rest of an entry after what it wrote piece by piece.
    static func appendMembers(to output: inout [UInt8], indent: Int? = nil, level: Int, _ body: (inout JSONOutput) -> Void) {
        write(to: &output, indent: indent, level: level, empty: false, body)
    }

    private static func write(
        to output: inout [UInt8], indent: Int?, level: Int, empty: Bool, _ body: (inout JSONOutput) -> Void
    ) {
        var json = JSONOutput(indent: indent, level: level)
        json.empty = empty
        // The bytes move in and out rather than being copied: `output` may hold a spool's megabyte.
        swap(&json.bytes, &output)
        body(&json)
        swap(&json.bytes, &output)
    }

    /// Starts the member `key` of the open object; the value written next is its value. A key
    /// written in the source is copied as it is: it holds nothing to escape, which is checked.
    mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { name in
            assert(name.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") })
            bytes.append(contentsOf: name)
        }
        bytes.append(UInt8(ascii: "\""))
        colon()
    }

    /// Starts the member `key` of the open object, a key that comes from the data (escaped).
    mutating func key(escaping key: String) {
        separate()
        JSONValue.writeString(key, to: &bytes)
        colon()
    }

    private mutating func colon() {
        bytes.append(UInt8(ascii: ":"))
        if indent != nil { bytes.append(UInt8(ascii: " ")) }
    }

    /// Starts the next element of the open array; the value written next is the element.
    mutating func separate() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        newline()
    }

    /// Writes a string.
    mutating func value(_ value: String) { JSONValue.writeString(value, to: &bytes) }

    /// Writes an integer.
    mutating func value(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        self.value(value.magnitude)
    }

    /// Writes an unsigned integer (a thread number may be past `Int64.max`).
    mutating func value(_ value: UInt64) {
        var magnitude = value
        guard magnitude >= 10 else {
            bytes.append(UInt8(ascii: "0") &+ UInt8(magnitude))
            return
        }
        // At most 20 digits, written backwards into a fixed buffer, then appended in order:
        // no String per number (a timestamp has more digits than a String holds inline).
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            while magnitude > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            }
            bytes.append(contentsOf: buffer[index...])
        }
    }

    /// Writes `true` or `false`.
    mutating func value(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// Writes a string, or `null` when nil.
    mutating func value(_ value: String?) {
        if let value { self.value(value) } else { null() }
    }

    /// Writes an integer, or `null` when nil.
    mutating func value(_ value: Int64?) {
        if let value { self.value(value) } else { null() }
    }

    /// Writes a value built as a tree.
    mutating func value(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let value): self.value(value)
        case .int(let value): self.value(value)
        case .number(let value): bytes.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
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

    /// Writes `null`.
    mutating func null() { bytes.append(contentsOf: "null".utf8) }

    /// Writes the member `key` with a string value (`null` when nil).
    mutating func member(_ key: StaticString, _ value: String?) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key` with an integer value (`null` when nil).
    mutating func member(_ key: StaticString, _ value: Int64?) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key` with a boolean value.
    mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key` with an object value whose members `body` writes.
    mutating func member(_ key: StaticString, object body: (inout JSONOutput) -> Void) {
        self.key(key)
        object(body)
    }

    /// Writes the member `key` with an array value whose elements `body` writes.
    mutating func member(_ key: StaticString, array body: (inout JSONOutput) -> Void) {
        self.key(key)
        array(body)
    }

    /// Writes the member `key` with an array of `elements`, each written by `write`.
    mutating func member<Element>(
        _ key: StaticString, each elements: some Sequence<Element>, _ write: (Element, inout JSONOutput) -> Void
    ) {
        self.key(key)
        array { json in
            for element in elements {
                json.separate()
                write(element, &json)
            }
        }
    }

    /// Writes the member `key` with an array of strings.
    mutating func member(_ key: StaticString, strings: some Sequence<String>) {
        self.key(key)
        array { json in
            for string in strings {
                json.separate()
                json.value(string)
            }
        }
    }

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout JSONOutput) -> Void) {
        bytes.append(open)
        let outer = empty
        empty = true
        level += 1
        body(&self)
        level -= 1
        if !empty { newline() }
        bytes.append(close)
        empty = outer
    }

    private mutating func newline() {
        guard let indent else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * level))
    }
}
