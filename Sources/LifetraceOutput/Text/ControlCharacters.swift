import LifetraceFormat

/// The one rule for control characters in what Lifetrace writes.
///
/// A trace's names, scenes, metadata and paths are data and may hold any Unicode scalar (the text
/// form takes JSON escapes such as `\u0007`), but never invalid UTF-8 nor a lone surrogate: the
/// text reader refuses a line that is not UTF-8 or that escapes half a surrogate pair, and the
/// binary reader a string definition that is not UTF-8 (`TraceTextEscapingTests`). Every output
/// escaper decides the same way, grammar by grammar:
///
/// - **Tab, line feed and carriage return** are written as the grammar's escape for them where
///   raw they would change the meaning (a markup attribute, a JSON string, a workflow command, a
///   terminal line), raw where they are ordinary text.
/// - **The other controls** (``isUnwritable(_:)``: C0 U+0000 to U+001F but those three, DEL
///   U+007F, C1 U+0080 to U+009F, and the noncharacters such as U+FFFE and U+FFFF) are written as
///   the grammar's escape where it has one that keeps the character (JSON `\u0007`, the terminal's
///   `\u{7}`), and as U+FFFD REPLACEMENT CHARACTER where it has none: XML 1.0 cannot hold C0
///   controls even as references, HTML reads every control as a parse error and turns a reference
///   to a C1 control into another character (`&#x80;` is `€`), and GitHub's workflow commands have
///   no escape. JSON, whose grammar needs only C0 escaped, writes DEL and C1 raw, as RFC 8259 allows.
/// - **U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR** (with U+0085 NEXT LINE, a C1
///   control) end a line for some readers (``breaksLines(_:)``): they are escaped in what is read
///   line by line (the JSON reports as `\u2028`, the terminal as `\u{2028}`, a workflow command as
///   U+FFFD) and kept as they are in markup, where they are ordinary text.
public enum ControlCharacters {
    /// Whether `scalar` is a control that no markup or workflow command may hold raw and that
    /// has no escape there: C0 but tab, line feed and carriage return; DEL; C1; a noncharacter.
    @inline(__always)
    public static func isUnwritable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x20..<0xFDD0: false
        default: scalar.properties.isNoncharacterCodePoint
        }
    }

    /// Whether `scalar` ends a line for some reader of line-oriented text: line feed, vertical
    /// tab, form feed, carriage return, U+0085, U+2028, U+2029 (the breaks Python's
    /// `str.splitlines()` and Unicode's line-breaking rules take, but the file separators).
    @inline(__always)
    public static func breaksLines(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Whether `scalar` is one of the Bidi_Control characters (Unicode's property: the Arabic
    /// letter mark, the left-to-right and right-to-left marks, embeddings, overrides and
    /// isolates), which reorder what a reader is shown around them: a name holding U+202E shows
    /// `hang in evil.jsonl` for `hang in lnosj.live`. The terminal writes them as escapes; a
    /// workflow command, which has none, as U+FFFD.
    @inline(__always)
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether any scalar of `text` may need escaping by a markup escaper: one of the UTF-8
    /// bytes that start a control (below 0x20 but tab and line feed, DEL, the lead byte 0xC2 of
    /// C1, and the lead bytes of the noncharacters U+FDD0... and U+FFFE/U+FFFF). A fast test on
    /// bytes; the escaper looks at the scalars only when it is true.
    @inline(__always)
    package static func mayHoldUnwritable(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A) || byte == 0x7F || byte == 0xC2 || byte == 0xEF || byte >= 0xF0
    }
}
