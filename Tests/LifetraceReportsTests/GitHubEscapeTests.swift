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
}
