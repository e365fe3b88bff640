/// Escaping for text that goes into an HTML document, in element content or in a quoted
/// attribute value. Everything that comes from a trace (names, scenes, metadata, paths, messages)
/// passes through here.
public enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references, so that it can
    /// neither close an element or attribute nor open a tag.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else {
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
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A fragment identifier made of `prefix` and `number`, safe in `id` and `href`.
    public static func anchor(_ prefix: String, _ number: Int) -> String { "\(prefix)-\(number)" }
}
