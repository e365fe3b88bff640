import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Traces of many distinct names analysed side by side (`diff`, `report` and `check` of several
/// traces): at most one large name table at a time (docs/RELIABILITY.md, "Memory").
@Suite struct SideBySideNamesTests {
    typealias Workspace = HostileInputTests.Workspace

    /// A binary trace of one lifetime whose `count` scenes each move once: `count` distinct names.
    static func distinctScenes(_ count: Int, path: String) throws {
        var symbols = SymbolTable()
        let writer = try TraceWriter(path: path, metadata: TraceMetadata())
        try writer.append(
            TraceEvent(timestamp: 1000, payload: .launch(reason: .none, background: false, prewarm: false, pid: nil)),
            symbols: symbols)
        for index in 0..<count {
            let scene = symbols.intern("s\(index)")
            try writer.append(TraceEvent(timestamp: Int64(2000 + index), payload: .state(to: .inactive, scene: scene)), symbols: symbols)
        }
        try writer.close()
    }

    @Test("two traces past the small table size analysed side by side each take the turn, and give the same results as alone")
    func largeTablesTakeTurns() throws {
        let workspace = try Workspace()
        let first = workspace.path + "/a.ltrace", second = workspace.path + "/b.ltrace"
        try Self.distinctScenes(250_000, path: first)
        try Self.distinctScenes(250_001, path: second)
        let small = workspace.path + "/c.ltrace"
        try Self.distinctScenes(1000, path: small)
        let turns = NameTableTurns()
        let options = AnalysisOptions()
        let results = TraceInputs.analyze(paths: [first, small, second], options: options, turns: turns)
        // The two large tables each took the turn; the small one never needed it.
        #expect(turns.turnsTaken == 2)
        for (path, result) in zip([first, small, second], results) {
            let sideBySide = try result.get()
            let alone = try TraceInputs.analyze(path: path, options: options)
            #expect(sideBySide.eventCount == alone.eventCount)
            #expect(sideBySide.capped == alone.capped)
            #expect(sideBySide.violations.map(\.message) == alone.violations.map(\.message))
        }
    }

    /// A binary trace of one lifetime whose `count` scenes each move once, each named by 100 bytes.
    static func longSceneNames(_ count: Int, path: String) throws {
        var symbols = SymbolTable()
        let writer = try TraceWriter(path: path, metadata: TraceMetadata())
        try writer.append(
            TraceEvent(timestamp: 1000, payload: .launch(reason: .none, background: false, prewarm: false, pid: nil)),
            symbols: symbols)
        let stem = String(repeating: "s", count: 93)
        for index in 0..<count {
            let number = String(index)
            let scene = symbols.intern(stem + String(repeating: "0", count: 7 - number.count) + number)
            try writer.append(TraceEvent(timestamp: Int64(2000 + index), payload: .state(to: .inactive, scene: scene)), symbols: symbols)
        }
        try writer.close()
    }

    /// `diff` of a trace of 120,000 distinct 100-byte names against itself (a 468 KB trace): one
    /// table is about 20 MB resident. Measured as the child's peak resident memory (its own
    /// `ru_maxrss`), which counts what was touched whatever the machine reserves (a data-segment
    /// limit also counts thread stacks and allocator arenas, which grow with the core count and
    /// the stack limit). The table's cost is `check` of the trace less `check` of a trace of
    /// 1,000 such names; holding one table at a time, `diff` needs at most half of that more than
    /// `check` (in a debug build: 52 MB for `check`, 30 MB for the small trace, 54 MB for `diff`;
    /// 73 MB when both tables are held at once).
    @Test("diff of two traces of many long distinct names holds one large name table at a time (peak resident memory)")
    func diffHoldsOneLargeTableAtATime() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/scenes.ltrace", small = workspace.path + "/few.ltrace"
        try Self.longSceneNames(120_000, path: trace)
        try Self.longSceneNames(1000, path: small)
        let few = try ChildProcess.measuringPeakMemory(LifetraceCommand.path, ["check", small])
        let alone = try ChildProcess.measuringPeakMemory(LifetraceCommand.path, ["check", trace])
        let sideBySide = try ChildProcess.measuringPeakMemory(LifetraceCommand.path, ["diff", trace, "--", trace])
        #expect(few.result.status == 0 && alone.result.status == 0, "\(few.result.error.suffix(300)) \(alone.result.error.suffix(300))")
        #expect(sideBySide.result.status == 0, "\(sideBySide.result.error.suffix(500))")
        #expect(sideBySide.result.output.contains("launch"), "\(sideBySide.result.output.prefix(500))")
        let table = alone.peakResidentBytes - few.peakResidentBytes
        #expect(table > 10 << 20, "a table of 120,000 names costs \(table) bytes, less than expected: the measure does not see it")
        #expect(
            sideBySide.peakResidentBytes <= alone.peakResidentBytes + table / 2,
            "diff peaked at \(sideBySide.peakResidentBytes) bytes, check of one trace at \(alone.peakResidentBytes), one table \(table)")
    }
}
