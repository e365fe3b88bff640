import LifetraceFormat
import Testing

@testable import LifetraceAnalysis

/// Two event summaries are equal only when their names, scenes and fields have the same bytes:
/// canonically equivalent names are different names.
@Suite struct EventSummaryBytesTests {
    static func summary(name: String, scene: String) -> EventSummary {
        var symbols = SymbolTable()
        let event = TraceEvent(timestamp: 5, payload: .callbackBegin(name: symbols.intern(name), scene: symbols.intern(scene)))
        return EventSummary(event, symbols: symbols, launch: 0)
    }

    @Test("summaries of canonically equivalent names or scenes differ; of the same bytes they are equal")
    func comparedByBytes() {
        #expect(Self.summary(name: "cafe\u{301}", scene: "s") != Self.summary(name: "caf\u{E9}", scene: "s"))
        #expect(Self.summary(name: "n", scene: "\u{212B}") != Self.summary(name: "n", scene: "\u{C5}"))
        #expect(Self.summary(name: "cafe\u{301}", scene: "\u{212B}") == Self.summary(name: "cafe\u{301}", scene: "\u{212B}"))
        var a = Self.summary(name: "n", scene: "s")
        var b = a
        a.fields = [(key: "reason", value: "cafe\u{301}")]
        b.fields = [(key: "reason", value: "caf\u{E9}")]
        #expect(a != b)
    }
}
