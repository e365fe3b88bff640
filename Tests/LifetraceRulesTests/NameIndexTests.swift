import LifetraceFormat
@testable import LifetraceRules
import Testing

/// The shared index of the rules' names gives the same answers within its bounds and past them.
struct NameIndexTests {
    static let patterns = ["net*", "*-sync", "exact", "*", "n*t*k", "café", "cafe\u{301}*"].map(NamePattern.init)

    /// The ids of `patterns` a name matches, as each pattern alone says.
    static func expected(_ name: String, ids: [Int32]) -> [Int32] {
        zip(patterns, ids).filter { $0.0.matches(name) }.map(\.1).sorted()
    }

    @Test("answers equal pattern-by-pattern matching, remembered or not, within and past the bounds", arguments: [
        (1 << 20, 1 << 20), (3, 1 << 20), (1 << 20, 5), (0, 0),
    ])
    func boundsKeepTheAnswers(symbolLimit: Int, storageLimit: Int) {
        var index = NameIndex(symbolLimit: symbolLimit, storageLimit: storageLimit)
        let ids = Self.patterns.map { index.id($0, in: .mark) }
        var symbols = SymbolTable()
        let names = ["network", "feed-sync", "exact", "exactly", "", "nothing", "café", "cafe\u{301}", "ne", "n-t-k", "knot"]
        let interned = names.map { symbols.intern($0) }
        // Asked twice: the second time from what was remembered, where it was.
        for _ in 0..<2 {
            for (name, symbol) in zip(names, interned) {
                let (matches, _) = index.matches(symbol, in: .mark, symbols: symbols)
                #expect(matches.all == Self.expected(name, ids: ids), "\(name)")
                for id in ids { #expect(matches.contains(id) == Self.expected(name, ids: ids).contains(id)) }
            }
        }
        // Another group holds none of these patterns.
        #expect(index.matches(interned[0], in: .signpost, symbols: symbols).0.isEmpty)
    }
}
