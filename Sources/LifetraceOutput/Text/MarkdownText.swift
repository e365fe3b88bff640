import LifetraceFormat

/// The escaper for Markdown output (`report` and `diff` with `--format markdown`, pasted into
/// pull-request comments): names go in code spans, prose is escaped, and neither can break a
/// table row or start markup of its own.
public enum MarkdownText {
    /// A code span holding `text` exactly: delimited by one backtick more than the longest run
    /// inside, control characters shown as escapes (``TerminalText``), and `|` escaped when the
    /// span sits in a table (GitHub's tables split cells on `|` even inside code spans).
    public static func code(_ text: String, inTable: Bool = true) -> String {
        var body = TerminalText.escaped(text)
        if inTable { body = body.replacingEvery("|", with: "\\|") }
        var longest = 0
        var run = 0
        for scalar in body.unicodeScalars {
            run = scalar == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A space inside the fence keeps a leading or trailing backtick from joining it.
        let padded = body.hasPrefix("`") || body.hasSuffix("`") || body.isEmpty ? " \(body) " : body
        return fence + padded + fence
    }

    /// Prose inside a line: the characters that start Markdown or HTML markup there (emphasis,
    /// code, links, tags, strikethrough) and `|`, escaped with a backslash; control characters
    /// shown as escapes. (`>` and `#` start markup only at the start of a line, where a
    /// report's prose never is.)
    public static func prose(_ text: String) -> String {
        var output = ""
        for scalar in TerminalText.escaped(text).unicodeScalars {
            switch scalar {
            case "\\", "`", "*", "_", "[", "]", "<", "|", "~":
                output += "\\"
                output.unicodeScalars.append(scalar)
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

extension String {
    /// `self` with every `target` scalar replaced by `replacement`.
    package func replacingEvery(_ target: Unicode.Scalar, with replacement: String) -> String {
        var output = ""
        for scalar in unicodeScalars {
            if scalar == target { output += replacement } else { output.unicodeScalars.append(scalar) }
        }
        return output
    }
}
