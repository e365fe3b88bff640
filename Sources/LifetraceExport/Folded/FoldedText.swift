import LifetraceFormat
import LifetraceOutput

/// Escaping for one frame of a folded-stacks line (``FoldedStacks``): the one folded escaper.
///
/// The collapsed format of Brendan Gregg's FlameGraph tools is one stack per line, its frames
/// joined by `;`, then a space and the count; readers split the line at its last space and the
/// stack at every `;`. The grammar has no escape, so what would change that split is replaced,
/// following the package's one rule for control characters (``ControlCharacters``):
///
/// - `;` (the frames' separator) is written `:`, which reads much the same in a function name;
/// - a line break of any reader (line feed, carriage return, vertical tab, form feed, U+0085,
///   U+2028, U+2029: ``ControlCharacters/breaksLines(_:)``) and every other control or
///   noncharacter (``ControlCharacters/isUnwritable(_:)``) is written as U+FFFD REPLACEMENT
///   CHARACTER, as in the GitHub workflow commands, the other line-read grammar without escapes;
/// - an empty name is written `?`, so that no frame is empty;
/// - the spaces or tabs right before a number that ends a name (`f 12`, `g\t3.5`) are written as
///   U+FFFD: flamegraph.pl takes a line that ends with two numbers for a differential one (a
///   count before and after), so an innermost frame ending that way would lose its number to a
///   second count.
///
/// Other spaces and tabs stay: a reader takes the count after the last space of the line, which
/// is always the count the writer appended.
public enum FoldedText {
    /// `name` as one frame of a folded line: no `;`, no line break, no control character, no
    /// number standing apart at its end.
    public static func frame(_ name: String) -> String {
        if name.isEmpty { return "?" }
        var scalars = Array(name.unicodeScalars)
        var changed = false
        for index in scalars.indices where needsReplacing(scalars[index]) {
            scalars[index] = scalars[index] == ";" ? ":" : "\u{FFFD}"
            changed = true
        }
        // A number at the end (digits, then "." and digits perhaps), and the blanks before it.
        var end = scalars.endIndex
        while end > 0, isDigit(scalars[end - 1]) { end -= 1 }
        if end > 0, end < scalars.endIndex, scalars[end - 1] == "." {
            end -= 1
            while end > 0, isDigit(scalars[end - 1]) { end -= 1 }
        }
        if end < scalars.endIndex, isDigit(scalars[end]) {
            while end > 0, scalars[end - 1] == " " || scalars[end - 1] == "\t" {
                scalars[end - 1] = "\u{FFFD}"
                end -= 1
                changed = true
            }
        }
        guard changed else { return name }
        var output = ""
        output.unicodeScalars.append(contentsOf: scalars)
        return output
    }

    @inline(__always)
    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    @inline(__always)
    private static func needsReplacing(_ scalar: Unicode.Scalar) -> Bool {
        scalar == ";" || ControlCharacters.breaksLines(scalar) || ControlCharacters.isUnwritable(scalar)
    }
}
