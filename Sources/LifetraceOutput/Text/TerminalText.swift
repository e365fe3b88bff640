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
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
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
