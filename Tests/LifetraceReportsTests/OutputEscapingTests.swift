import Foundation
import Testing

@testable import LifetraceOutput
@testable import LifetraceFormat
@testable import LifetraceReports

/// One escaper per output grammar, all under the one control-character rule
/// (`ControlCharacters`): a name holding C0 and C1 controls, DEL, the Unicode line and paragraph
/// separators and a noncharacter, as each output writes it.
@Suite struct OutputEscapingTests {
    /// Tab, LF, CR; a C0 control (BEL), ESC, DEL, a C1 control (NEL), U+2028, U+2029, U+FFFE;
    /// and the markup characters.
    static let hostile = "a\tb\nc\rd\u{7}e\u{1B}f\u{7F}g\u{85}h\u{2028}i\u{2029}j\u{FFFE}k<&>\"'"

    @Test func theRuleIsOneSetOfScalars() {
        let unwritable = (0...0xA0).compactMap(Unicode.Scalar.init).filter(ControlCharacters.isUnwritable).map(\.value)
        #expect(unwritable == Array(0...8) + [0x0B, 0x0C] + Array(0x0E...0x1F) + Array(0x7F...0x9F))
        #expect(ControlCharacters.isUnwritable("\u{FFFE}") && ControlCharacters.isUnwritable("\u{FFFF}"))
        #expect(ControlCharacters.isUnwritable(Unicode.Scalar(0xFDD0)!) && ControlCharacters.isUnwritable(Unicode.Scalar(0x10FFFF)!))
        #expect(!ControlCharacters.isUnwritable("\u{2028}") && !ControlCharacters.isUnwritable("é"))
        #expect(!ControlCharacters.isUnwritable("\u{FFFD}") && !ControlCharacters.isUnwritable("😀"))
        let breaks = (0...0x3000).compactMap(Unicode.Scalar.init).filter(ControlCharacters.breaksLines).map(\.value)
        #expect(breaks == [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029])
    }

    @Test func html() {
        // Tab and LF kept (HTML keeps them), CR as a reference, the rest of the controls as U+FFFD.
        #expect(HTMLText.escape(Self.hostile)
            == "a\tb\nc&#13;d\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{2028}i\u{2029}j\u{FFFD}k&lt;&amp;&gt;&quot;&#39;")
        #expect(HTMLText.escape("didFinishLaunching µs 😀") == "didFinishLaunching µs 😀")
    }

    @Test func xml() {
        // Tab, LF and CR as references (attributes would fold them), the rest as U+FFFD.
        #expect(XMLText.escape(Self.hostile)
            == "a&#9;b&#10;c&#13;d\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{2028}i\u{2029}j\u{FFFD}k&lt;&amp;&gt;&quot;'")
    }

    @Test func githubWorkflowCommands() {
        // Line breaks of every kind never reach the log raw: LF and CR escaped, the others U+FFFD.
        #expect(GitHubAnnotations.escape(Self.hostile, property: false)
            == "a\tb%0Ac%0Dd\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{FFFD}i\u{FFFD}j\u{FFFD}k<&>\"'")
    }

    @Test func json() {
        func string(_ text: String, lineSeparators: Bool) -> String {
            String(decoding: JSONOutput.quoted(text, lineSeparators: lineSeparators), as: UTF8.self)
        }
        // C0 escaped; DEL, C1 and the noncharacter raw (RFC 8259 allows them); the reports escape
        // U+0085, U+2028 and U+2029 too, since their rows are read line by line.
        #expect(string(Self.hostile, lineSeparators: true)
            == "\"a\\tb\\nc\\rd\\u0007e\\u001bf\u{7F}g\\u0085h\\u2028i\\u2029j\u{FFFE}k<&>\\\"'\"")
        #expect(string(Self.hostile, lineSeparators: false)
            == "\"a\\tb\\nc\\rd\\u0007e\\u001bf\u{7F}g\u{85}h\u{2028}i\u{2029}j\u{FFFE}k<&>\\\"'\"")
        #expect(JSONValue.string(Self.hostile).rendered() == string(Self.hostile, lineSeparators: true))
    }

    @Test func terminalAndMarkdown() {
        // Every control and separator as a visible escape that keeps it.
        let terminal = #"a\tb\nc\rd\u{7}e\u{1B}f\u{7F}g\u{85}h\u{2028}i\u{2029}j"# + "\u{FFFE}k<&>\"'"
        #expect(TerminalText.escaped(Self.hostile) == terminal)
        #expect(MarkdownText.prose(Self.hostile) == terminal.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "<", with: "\\<"))
    }

    @Test func theTerminalsByteTestIsTheScalarRule() {
        // The escaper reads bytes first and decodes scalars only when the bytes hold one it
        // escapes: both tests must agree on every scalar, alone and between plain characters.
        var escaped = 0
        var disagreeing: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let rule = TerminalText.needsEscape(scalar)
            if rule { escaped += 1 }
            let alone = String(scalar)
            // Between other characters too, where a neighbour's bytes could be misread (every
            // escaped scalar is below U+3000).
            let embedded = value < 0x3000 ? TerminalText.holdsEscape("a" + alone + "é") : rule
            if TerminalText.holdsEscape(alone) != rule || embedded != rule {
                disagreeing.append(value)
            }
        }
        #expect(disagreeing == [])
        // C0 (32), DEL and C1 (33), the two separators and the twelve bidirectional controls.
        #expect(escaped == 32 + 33 + 2 + 12)
        #expect(TerminalText.escaped("plain ASCII, µs, → and 😀") == "plain ASCII, µs, → and 😀")
        #expect(TerminalText.escaped("a\u{202E}b") == #"a\u{202E}b"#)
    }

    @Test func fixedPointNumbers() {
        func number(_ scaled: Int64, _ decimals: Int) -> String {
            var bytes: [UInt8] = []
            JSONOutput.write(to: &bytes) { $0.value(scaled: scaled, decimals: decimals) }
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(number(1_234_567, 3) == "1234.567")
        #expect(number(5, 3) == "0.005")
        #expect(number(-1_000, 3) == "-1.000")
        #expect(number(0, 3) == "0.000")
        #expect(number(Int64.min, 3) == "-9223372036854775.808")
        #expect(number(42, 0) == "42")
    }
}
