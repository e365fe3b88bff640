import LifetraceFormat
@testable import LifetraceRules
import Testing

/// Globs are tried only on names that hold their key piece, and give the answers each glob alone
/// gives (docs/RULES.md).
struct GlobKeyTests {
    @Test("1,000 globs *q{i}*z*: a name holding none of their pieces tries none of them; one holding q7 tries only those keyed q7")
    func globsThatCannotMatchAreNotTried() {
        var index = NameIndex()
        let patterns = (0..<1000).map { NamePattern("*q\($0)*z*") }
        let ids = patterns.map { index.id($0, in: .mark) }
        var symbols = SymbolTable()
        let plain = symbols.intern("name-12345")
        #expect(index.matches(plain, in: .mark, symbols: symbols).0.isEmpty)
        #expect(index.globsTried == 0)
        // "xq7yz" holds the key "q7" of one glob (the key is the longest piece, "q7" over "z").
        let near = symbols.intern("xq7yz")
        let (found, _) = index.matches(near, in: .mark, symbols: symbols)
        #expect(found.all == [ids[7]])
        #expect(index.globsTried == 1)
    }

    @Test("keyed matching gives the same answers as each glob alone, keys overlapping, nested and longer than the key limit")
    func keyedAnswersEqualPlainMatching() {
        let long = String(repeating: "ab", count: 50)
        let texts = [
            "a*", "*a", "*ab*", "*b*", "*", "**", "ab*ba", "*abab*", "*a*b*a*", "x*" + long + "*y", "*" + long + "c*",
            "*he*", "*she*", "*his*", "*hers*", "h*s", "exact", "caf\u{E9}*", "cafe\u{301}*",
        ]
        var index = NameIndex()
        let patterns = texts.map(NamePattern.init)
        let ids = patterns.map { index.id($0, in: .signpost) }
        var symbols = SymbolTable()
        let names = [
            "", "a", "b", "ab", "ba", "abba", "ababab", "ushers", "his", "she", "hers", "x" + long + "y",
            "x" + long + "cy", long + "c", "exact", "caf\u{E9}!", "cafe\u{301}!", "aXbXa", "hs",
        ]
        for name in names {
            let symbol = symbols.intern(name)
            let expected = zip(patterns, ids).filter { $0.0.matches(name) }.map(\.1).sorted()
            #expect(index.matches(symbol, in: .signpost, symbols: symbols).0.all == expected, "\(name)")
        }
    }
}
