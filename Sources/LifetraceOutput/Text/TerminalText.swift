import LifetraceFormat

/// The escaper for text read by people on a terminal, in a log or in a CI page: `check`,
/// `report` and `replay` in text form, `info`, `dump --format text` and every error line.
///
/// A trace's names, metadata and paths are data: a name holding a newline would forge a line of
/// output, an ANSI escape would rewrite the terminal, a bidirectional override would reorder what
/// is shown. Each such character is written as a visible escape instead, the way Swift writes it
/// in a string literal (`\n`, `\r`, `\t`, `\u{1B}`); everything else passes unchanged.
public enum TerminalText {
    /// `text` with every control character (C0, DEL, C1) and bidirectional control escaped.
    public static func escaped(_ text: String) -> String {
        guard holdsEscape(text) else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                output.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default: output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return output
    }

    /// Whether any scalar of `text` is shown as an escape, read from its UTF-8 bytes: most text
    /// has none, and this pass settles it without decoding a scalar. The same set as
    /// ``needsEscape(_:)`` (a test compares them over every scalar): C0 and DEL; C1 (`C2 80` to
    /// `C2 9F`); U+061C (`D8 9C`); U+200E, U+200F and U+2028 to U+202E (`E2 80 8E`, `8F`, `A8` to
    /// `AE`); U+2066 to U+2069 (`E2 81 A6` to `A9`).
    static func holdsEscape(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let count = bytes.count
            var index = 0
            while index < count {
                let byte = bytes[index]
                index &+= 1
                if byte < 0x20 || byte == 0x7F { return true }
                // A lead byte is followed by its continuation bytes (a String is valid UTF-8).
                guard byte == 0xC2 || byte == 0xD8 || byte == 0xE2 else { continue }
                let second = bytes[index]
                switch byte {
                case 0xC2: if second <= 0x9F { return true }
                case 0xD8: if second == 0x9C { return true }
                default:
                    let third = bytes[index &+ 1]
                    if second == 0x80 && (third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third)) { return true }
                    if second == 0x81 && (0xA6...0xA9).contains(third) { return true }
                }
            }
            return false
        }
    }

    /// Whether `scalar` is shown as an escape.
    @inline(__always)
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // The line and paragraph separators, and the Bidi_Control characters.
        case 0x2028, 0x2029: true
        default: ControlCharacters.isBidiControl(scalar)
        }
    }
}
