import LifetraceFormat

/// JSON text written straight into UTF-8 bytes, member by member: the one JSON writer of the
/// package. Every JSON document Lifetrace writes goes through it: `check` and `report`'s
/// documents, SARIF and the summaries (the reports' `JSONValue` trees are written by it), the
/// Trace Event Format export, and the strings of the trace's own text form (``appendString(_:lineSeparators:to:)``).
///
/// It writes into a byte array the caller owns, so a large document is streamed a piece at a
/// time (a lifetime as it ends, an exported event), the caller writing each piece out before the
/// next: memory stays that of one piece, whatever the document's length.
///
/// ```swift
/// JSONOutput.write(to: &bytes, indent: 2, level: 4) { json in
///     json.object { json in
///         json.member("index", 3)
///         json.member("names", strings: ["a", "b"])
///     }
/// }
/// ```
package struct JSONOutput {
    /// The text written so far.
    package var bytes: [UInt8]
    /// Spaces per level, or nil for compact text.
    package let indent: Int?
    /// Whether strings escape U+0085, U+2028 and U+2029 too (``appendString(_:lineSeparators:to:)``).
    package let lineSeparators: Bool
    /// The indentation level of the members of the innermost open object or array.
    private var level: Int
    /// Whether the innermost open object or array has no member or element yet.
    private var empty = true

    private init(indent: Int?, level: Int, lineSeparators: Bool) {
        bytes = []
        self.indent = indent
        self.level = level
        self.lineSeparators = lineSeparators
    }

    /// Appends to `output` the value `body` writes, for a value that starts at `level` of a
    /// document indented by `indent` spaces per level (compact without). With `lineSeparators`
    /// (the reports', read line by line) strings escape U+0085, U+2028 and U+2029 too.
    package static func write(
        to output: inout [UInt8], indent: Int? = nil, level: Int = 0, lineSeparators: Bool = true,
        _ body: (inout JSONOutput) -> Void
    ) {
        write(to: &output, indent: indent, level: level, empty: true, lineSeparators: lineSeparators, body)
    }

    /// Writes an object whose members `body` writes (`{}` when it writes none).
    package mutating func object(_ body: (inout JSONOutput) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// Writes an array whose elements `body` writes (`[]` when it writes none).
    package mutating func array(_ body: (inout JSONOutput) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    /// Appends to `output` more members of an object that is already open and has members, one
    /// at each `level` of a document indented by `indent` spaces per level: a streamed document
    /// writes the rest of an entry after what it wrote piece by piece.
    package static func appendMembers(to output: inout [UInt8], indent: Int? = nil, level: Int, _ body: (inout JSONOutput) -> Void) {
        write(to: &output, indent: indent, level: level, empty: false, lineSeparators: true, body)
    }

    private static func write(
        to output: inout [UInt8], indent: Int?, level: Int, empty: Bool, lineSeparators: Bool, _ body: (inout JSONOutput) -> Void
    ) {
        var json = JSONOutput(indent: indent, level: level, lineSeparators: lineSeparators)
        json.empty = empty
        // The bytes move in and out rather than being copied: `output` may hold a spool's megabyte.
        swap(&json.bytes, &output)
        body(&json)
        swap(&json.bytes, &output)
    }

    /// Starts the member `key` of the open object; the value written next is its value. A key
    /// written in the source is copied as it is: it holds nothing to escape, which is checked.
    package mutating func key(_ key: StaticString) {
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
    package mutating func key(escaping key: String) {
        separate()
        Self.appendString(key, lineSeparators: lineSeparators, to: &bytes)
        colon()
    }

    /// Starts the member whose key is `quoted`, a string already written as JSON (quotes
    /// included): a writer that names many members alike escapes each name once.
    package mutating func key(quoted: [UInt8]) {
        separate()
        bytes.append(contentsOf: quoted)
        colon()
    }

    private mutating func colon() {
        bytes.append(UInt8(ascii: ":"))
        if indent != nil { bytes.append(UInt8(ascii: " ")) }
    }

    /// Starts the next element of the open array; the value written next is the element.
    package mutating func separate() {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        newline()
    }

    /// Writes a string.
    package mutating func value(_ value: String) { Self.appendString(value, lineSeparators: lineSeparators, to: &bytes) }

    /// Writes a string already written as JSON (quotes included), as ``quoted(_:)`` gives it.
    package mutating func value(quoted: [UInt8]) { bytes.append(contentsOf: quoted) }

    /// `string` as a JSON string, quotes included (``appendString(_:lineSeparators:to:)``).
    package static func quoted(_ string: String, lineSeparators: Bool) -> [UInt8] {
        var quoted: [UInt8] = []
        appendString(string, lineSeparators: lineSeparators, to: &quoted)
        return quoted
    }

    /// Writes the number `scaled` / 10^`decimals` with exactly `decimals` decimals (`1234567`
    /// with 3 is `1234.567`): a fixed-point number, such as nanoseconds written as microseconds,
    /// with no rounding and no `Double` on the way.
    package mutating func value(scaled: Int64, decimals: Int) {
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        var divisor: UInt64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        value(scaled.magnitude / divisor)
        guard decimals > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var fraction = scaled.magnitude % divisor
        let start = bytes.count
        for _ in 0..<decimals {
            bytes.append(UInt8(ascii: "0") &+ UInt8(fraction % 10))
            fraction /= 10
        }
        bytes[start...].reverse()
    }

    /// Writes a number with a fraction in its shortest exact form (`0.05`, `1e-09`), `null` when
    /// it is not finite.
    package mutating func value(_ value: Double) {
        bytes.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
    }

    /// Writes an integer.
    package mutating func value(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        self.value(value.magnitude)
    }

    /// Writes an unsigned integer (a thread number may be past `Int64.max`).
    package mutating func value(_ value: UInt64) {
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
    package mutating func value(_ value: Bool) { bytes.append(contentsOf: (value ? "true" : "false").utf8) }

    /// Writes a string, or `null` when nil.
    package mutating func value(_ value: String?) {
        if let value { self.value(value) } else { null() }
    }

    /// Writes an integer, or `null` when nil.
    package mutating func value(_ value: Int64?) {
        if let value { self.value(value) } else { null() }
    }

    /// Writes `null`.
    package mutating func null() { bytes.append(contentsOf: "null".utf8) }

    /// Writes the member `key` with a string value (`null` when nil).
    package mutating func member(_ key: StaticString, _ value: String?) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key` with an integer value (`null` when nil).
    package mutating func member(_ key: StaticString, _ value: Int64?) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key` with a boolean value.
    package mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        self.value(value)
    }

    /// Writes the member `key` with an object value whose members `body` writes.
    package mutating func member(_ key: StaticString, object body: (inout JSONOutput) -> Void) {
        self.key(key)
        object(body)
    }

    /// Writes the member `key` with an array value whose elements `body` writes.
    package mutating func member(_ key: StaticString, array body: (inout JSONOutput) -> Void) {
        self.key(key)
        array(body)
    }

    /// Writes the member `key` with an array of `elements`, each written by `write`.
    package mutating func member<Element>(
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
    package mutating func member(_ key: StaticString, strings: some Sequence<String>) {
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

    /// Appends `string` as a JSON string (RFC 8259), quotes included: the one JSON string escaper
    /// of the package (the trace's text form, the reports, the Trace Event Format export).
    /// Escapes `"`, `\` and the control characters U+0000 to U+001F, nothing else (not `/`, not
    /// non-ASCII; DEL and C1 raw, as RFC 8259 allows: ``ControlCharacters``).
    ///
    /// With `lineSeparators`, also U+0085 NEXT LINE, U+2028 LINE SEPARATOR and U+2029 PARAGRAPH
    /// SEPARATOR, as `\u0085`, `\u2028`, `\u2029`: the JSON reports and rows do, because readers
    /// that split text into lines (Python's `str.splitlines()`, JavaScript before ES2019) break a
    /// line at them; the trace's own text form does not, so that `import` and `dump` give canonical
    /// text back byte for byte (docs/JSONL.md).
    package static func appendString(_ string: String, lineSeparators: Bool, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // A string with nothing to escape, the usual case, is copied from its UTF-8 storage as
        // it is (`withUTF8` copies only a string that is not stored as UTF-8).
        var text = string
        let copied = text.withUTF8 { utf8 in
            // 0xC2 and 0xE2 lead the UTF-8 of U+0085 and of U+2028/U+2029.
            guard !utf8.contains(where: {
                $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || (lineSeparators && ($0 == 0xC2 || $0 == 0xE2))
            }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let utf8 = string.utf8
        let hex = Array("0123456789abcdef".utf8)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            utf8.formIndex(after: &index)
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0..<0x20:
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            case 0xC2 where lineSeparators && index != utf8.endIndex && utf8[index] == 0x85:
                utf8.formIndex(after: &index)
                bytes.append(contentsOf: #"\u0085"#.utf8)
            case 0xE2 where lineSeparators && index != utf8.endIndex && utf8[index] == 0x80:
                let second = utf8.index(after: index)
                if second != utf8.endIndex, utf8[second] == 0xA8 || utf8[second] == 0xA9 {
                    bytes.append(contentsOf: (utf8[second] == 0xA8 ? #"\u2028"# : #"\u2029"#).utf8)
                    index = utf8.index(after: second)
                } else {
                    bytes.append(byte)
                }
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
