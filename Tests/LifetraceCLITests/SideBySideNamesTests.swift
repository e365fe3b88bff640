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
    /// table is about 18 MB. RLIMIT_DATA counts the data mappings as reserved (a table's chunk and
    /// index arrays are allocated whole, each thread's heap apart), above the resident size: the
    /// run holding one table at a time needs less than 64 MiB of it (about 50 MB resident in a
    /// release build), two tables at once more than 70 MiB (70 MB resident), so a limit of
    /// 70 MiB tells them apart with room on both sides.
    @Test("diff of two traces of many long distinct names holds one large name table at a time (within 70 MiB of data)")
    func diffHoldsOneLargeTableAtATime() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/scenes.ltrace"
        try Self.longSceneNames(120_000, path: trace)
        let result = try ChildProcess.run(
            "/bin/sh", ["-c", "ulimit -d 72000 && exec \"$0\" \"$@\"", LifetraceCommand.path, "diff", trace, "--", trace])
        #expect(result.status == 0, "\(result.error.suffix(500))")
        #expect(result.output.contains("launch"), "\(result.output.prefix(500))")
    }
}
