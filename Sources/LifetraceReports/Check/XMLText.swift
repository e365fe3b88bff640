import LifetraceFormat
import LifetraceOutput

/// Escaping for text that goes into an XML 1.0 document (the JUnit report), in element content
/// or in a quoted attribute value: the one XML escaper of the package. Control characters follow
/// the package's one rule (``ControlCharacters``).
enum XMLText {
    /// `text` with the markup characters as entities; tab, line feed and carriage return as
    /// character references (a parser turns them into spaces in an attribute, and a raw carriage
    /// return into a line feed anywhere); every other control and noncharacter as U+FFFD
    /// (``ControlCharacters/isUnwritable(_:)``: XML 1.0 cannot hold C0 controls, U+FFFE or U+FFFF
    /// at all, not even as references, and DEL and C1 are discouraged and shown by no reader).
    /// U+2028 and U+2029 stay: XML 1.0 reads them as ordinary text.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output += "&amp;"
            case 0x3C: output += "&lt;"
            case 0x3E: output += "&gt;"
            case 0x22: output += "&quot;"
            case 0x0A: output += "&#10;"
            case 0x0D: output += "&#13;"
            case 0x09: output += "&#9;"
            case _ where ControlCharacters.isUnwritable(scalar): output.unicodeScalars.append("\u{FFFD}")
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
