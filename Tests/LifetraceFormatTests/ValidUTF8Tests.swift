import LifetraceFormat
import Testing

/// `String(validUTF8:)`, which every reader of names and paths uses, and its fallback for the
/// platforms without `String(validating:as:)`: both accept and reject the same bytes.
@Suite struct ValidUTF8Tests {
    static let valid: [[UInt8]] = [
        [], Array("didFinishLaunching".utf8), Array("café – 東京 🚀".utf8), [0x00, 0x41], [0xF4, 0x8F, 0xBF, 0xBF], [0xEF, 0xBF, 0xBD],
    ]
    static let invalid: [[UInt8]] = [
        [0x80],  // a continuation byte alone
        [0xC0, 0x80],  // overlong NUL
        [0xE0, 0x80, 0x80],  // overlong
        [0xED, 0xA0, 0x80],  // a surrogate (U+D800)
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0xE2, 0x82],  // cut short
        [0x41, 0xF5, 0x80, 0x80, 0x80],  // a byte that never occurs
        [0xFF],
    ]

    @Test("valid bytes read back as they were; invalid ones give nil, through both paths")
    func knownCases() {
        for bytes in Self.valid {
            #expect(String(validUTF8: bytes).map { Array($0.utf8) } == bytes)
            #expect(String.validUTF8Fallback(bytes).map { Array($0.utf8) } == bytes)
        }
        for bytes in Self.invalid {
            #expect(String(validUTF8: bytes) == nil, "\(bytes)")
            #expect(String.validUTF8Fallback(bytes) == nil, "\(bytes)")
        }
    }

    @Test("the fallback agrees with String(validating:as:) on 20,000 short random byte strings")
    func fallbackAgrees() {
        // A fixed generator (xorshift), biased towards the bytes that start and continue sequences.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var disagreements: [[UInt8]] = []
        var accepted = 0
        for _ in 0..<20_000 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let length = Int(state % 7)
            var bytes: [UInt8] = []
            for index in 0..<length {
                let byte = UInt8(truncatingIfNeeded: state >> (index * 8))
                bytes.append(index % 2 == 0 ? byte : 0x80 | (byte & 0x3F))
            }
            let expected = String(validating: bytes, as: UTF8.self)
            if expected != nil { accepted += 1 }
            if String.validUTF8Fallback(bytes) != expected { disagreements.append(bytes) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        // Both outcomes occur often enough for the comparison to mean something.
        #expect(accepted > 1_000 && accepted < 19_000, "\(accepted) accepted")
    }
}
