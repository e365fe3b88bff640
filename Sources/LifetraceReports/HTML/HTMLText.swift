import LifetraceFormat
import LifetraceOutput

/// Escaping for text that goes into an HTML document, in element content or in a quoted
/// attribute value (the inline SVG of the page included: it is read by the HTML parser).
/// Everything that comes from a trace (names, scenes, metadata, paths, messages) passes through
/// here. Control characters follow the package's one rule (``ControlCharacters``).
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, so that it can
    /// neither close an element or attribute nor open a tag; a carriage return as `&#13;` (the
    /// parser would read it raw as a line feed); tab and line feed as they are (HTML keeps them,
    /// in attributes too); every other control and noncharacter as U+FFFD
    /// (``ControlCharacters/isUnwritable(_:)``: HTML reads them as parse errors, and would turn a
    /// reference to a C1 control into another character). U+2028 and U+2029 stay: text to HTML.
    public static func escape(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 || ControlCharacters.mayHoldUnwritable($0)
            })
        else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\r": result += "&#13;"
            case _ where ControlCharacters.isUnwritable(character): result.unicodeScalars.append("\u{FFFD}")
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A fragment identifier made of `prefix` and `number`, safe in `id` and `href`.
    public static func anchor(_ prefix: String, _ number: Int) -> String { "\(prefix)-\(number)" }
}
