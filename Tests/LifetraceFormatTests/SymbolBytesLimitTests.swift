import Testing

@testable import LifetraceFormat

/// Symbols kept beside the stacks: bounded by their text, not only by their count.
struct SymbolBytesLimitTests {
    @Test("symbol text past 16 MiB is counted, not kept, whether added or grown by replacing")
    func symbolTextIsBounded() {
        var stacks = SampledStacks()
        let long = String(repeating: "f", count: 4096)
        // 4,096 symbols of 8 KiB would be 32 MiB: half are kept.
        for address in 0..<4096 { stacks.addSymbol(FrameSymbol(function: long, file: long), for: UInt64(address)) }
        #expect(stacks.symbols.count == SampledStacks.maxSymbolBytes / 8192)
        #expect(stacks.lostSymbols == 4096 - SampledStacks.maxSymbolBytes / 8192)
        #expect(stacks.lossNote?.contains("symbols") == true)
        // Empty symbols cost nothing, and replacing them with long ones is held to the same limit.
        var grown = SampledStacks()
        for address in 0..<4096 { grown.addSymbol(FrameSymbol(function: ""), for: UInt64(address)) }
        for address in 0..<4096 { grown.addSymbol(FrameSymbol(function: long, file: long), for: UInt64(address)) }
        let kept = grown.symbols.values.filter { !$0.function.isEmpty }.count
        #expect(kept == SampledStacks.maxSymbolBytes / 8192)
    }
}
