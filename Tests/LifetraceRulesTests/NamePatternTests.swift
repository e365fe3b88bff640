import LifetraceRules
import Testing

/// Globs match by bytes, in time linear in the name and the pattern.
struct NamePatternTests {
    @Test func exactAndGlobs() {
        #expect(NamePattern("network").matches("network"))
        #expect(!NamePattern("network").matches("network2"))
        #expect(NamePattern("network*").matches("network-sync"))
        #expect(NamePattern("*-sync").matches("network-sync"))
        #expect(!NamePattern("*-sync").matches("network-sync2"))
        #expect(NamePattern("*").matches(""))
        #expect(NamePattern("a*b*c").matches("abc"))
        #expect(NamePattern("a*b*c").matches("a-b-b-c"))
        #expect(!NamePattern("a*b*c").matches("ac"))
        // The pieces may not overlap the head and the tail.
        #expect(!NamePattern("ab*ba").matches("aba"))
        #expect(NamePattern("ab*ba").matches("abba"))
        // Borders: the search falls back within the piece, never in the name.
        #expect(NamePattern("*aab*").matches("aaab"))
        #expect(NamePattern("*abab*").matches("abaabab"))
        #expect(!NamePattern("*abab*").matches("abaaba"))
        #expect(NamePattern("**x**").matches("x"))
    }

    @Test func bytesNotCanonicalEquivalence() {
        #expect(!NamePattern("caf\u{E9}").matches("cafe\u{301}"))
        #expect(!NamePattern("\u{C5}").matches("\u{212B}"))
        #expect(NamePattern("cafe*").matches("cafe\u{301}"))
        #expect(!NamePattern("caf\u{E9}*").matches("cafe\u{301}"))
        #expect(NamePattern("*\u{301}").matches("cafe\u{301}"))
        #expect(NamePattern("caf\u{E9}") != NamePattern("cafe\u{301}"))
    }

    @Test("the issue's glob on a 32k-character name: matched, and not matched, without quadratic work")
    func longNames() {
        let pattern = NamePattern("*" + String(repeating: "a", count: 32_000) + "b*")
        #expect(!pattern.matches(String(repeating: "a", count: 32_768)))
        #expect(pattern.matches(String(repeating: "a", count: 40_000) + "b"))
    }
}
