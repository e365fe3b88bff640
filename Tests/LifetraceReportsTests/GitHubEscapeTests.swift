import Testing

@testable import LifetraceReports

/// The workflow-command escaper against names a hostile trace can carry.
struct GitHubEscapeTests {
    @Test("control characters and Unicode line separators never reach the log raw; tab and text stay")
    func controlCharactersAreReplaced() {
        let name = "a\u{1B}]0;T\u{07}b\u{2028}c\u{85}d\te%\r\n"
        let escaped = GitHubAnnotations.escape(name, property: false)
        #expect(escaped == "a\u{FFFD}]0;T\u{FFFD}b\u{FFFD}c\u{FFFD}d\te%25%0D%0A")
        #expect(!escaped.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" })
        #expect(GitHubAnnotations.escape("x:y,z\u{7F}", property: true) == "x%3Ay%2Cz\u{FFFD}")
    }

    @Test("Bidi controls in a trace's name never reach an annotation's title or message raw")
    func bidiControlsAreReplaced() {
        let bidi: [Unicode.Scalar] = ["\u{061C}", "\u{200E}", "\u{200F}", "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}",
            "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}"]
        for scalar in bidi {
            let name = "runs/\(Character(scalar))lnosj.live"
            #expect(GitHubAnnotations.escape(name, property: true) == "runs/\u{FFFD}lnosj.live")
            #expect(GitHubAnnotations.escape(name, property: false) == "runs/\u{FFFD}lnosj.live")
        }
        // Right-to-left text itself is a name like any other.
        #expect(GitHubAnnotations.escape("\u{05E9}\u{05DC}\u{05D5}\u{05DD}", property: true) == "\u{05E9}\u{05DC}\u{05D5}\u{05DD}")
    }
}
