import Foundation
import LifetraceFormat
import Testing
@testable import LifetraceAnalysis

/// The stall sample pass names frames through the resolver the options carry; the analysis itself
/// runs no tool and reads no image file.
struct StackSymbolResolverTests {
    /// Answers from a table, as a symbolizer would from the images' files.
    struct TableResolver: StackSymbolResolver {
        var table: [UInt64: FrameSymbol]
        func symbols(for stacks: SampledStacks) throws -> [UInt64: FrameSymbol] { table }
    }

    /// A resolver that cannot run (no tool on PATH).
    struct FailingResolver: StackSymbolResolver {
        struct Missing: Error {}
        func symbols(for stacks: SampledStacks) throws -> [UInt64: FrameSymbol] { throw Missing() }
    }

    @Test func theOptionsResolverNamesAddressesAndTheTracesOwnSymbolsWin() {
        var stacks = StallSamplePassTests.stacks()
        stacks.addSymbol(FrameSymbol(function: "main", file: "main.swift", line: 3), for: StallSamplePassTests.main)
        var options = AnalysisOptions()
        #expect(!options.symbolicates)
        #expect(TraceSymbolNames(stacks: stacks, options: options).name(StallSamplePassTests.rebuild).function == "MyApp+0x200")
        options.symbolication = StackSymbolication(TableResolver(table: [
            StallSamplePassTests.main: FrameSymbol(function: "resolvedMain"),
            StallSamplePassTests.rebuild: FrameSymbol(function: "SearchIndex.rebuild()", file: "SearchIndex.swift", line: 12),
        ]))
        #expect(options.symbolicates)
        let names = TraceSymbolNames(stacks: stacks, options: options)
        #expect(names.name(StallSamplePassTests.rebuild).function == "SearchIndex.rebuild()")
        #expect(names.name(StallSamplePassTests.main).function == "main")
    }

    @Test func aResolverThatCannotRunLeavesImageAndOffset() {
        let stacks = StallSamplePassTests.stacks()
        var options = AnalysisOptions()
        options.symbolication = StackSymbolication(FailingResolver())
        #expect(TraceSymbolNames(stacks: stacks, options: options).name(StallSamplePassTests.rebuild).function == "MyApp+0x200")
    }

    @Test func resolutionsCompareByTheirResolversType() {
        #expect(StackSymbolication(TableResolver(table: [:])) == StackSymbolication(TableResolver(table: [1: FrameSymbol(function: "f")])))
        #expect(StackSymbolication(TableResolver(table: [:])) != StackSymbolication(FailingResolver()))
    }

    @Test("the analysis module imports no Foundation: it runs no process and reads no file of its own accord")
    func theAnalysisDoesNoIOOfItsOwn() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources/LifetraceAnalysis")
        let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 40)
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import Foundation"), "\(file) imports Foundation")
            #expect(!text.contains("Process()"), "\(file) runs a process")
        }
    }
}
