import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceTestSupport
import Testing

@testable import LifetraceHistory

/// A baseline from the history (`history:BRANCH[:N]`), the add that the same job may repeat,
/// and `check --history`'s verdict, on real store files.
@Suite struct HistoryBaselineTests {
    /// A run of cold launches of the given durations (ms), one lifetime each.
    static func run(_ path: String, launches: [Int64]) -> HistoryRun {
        let lifetimes = launches.enumerated().map { position, launch in
            var milestones = LaunchMilestones()
            milestones.firstFrame = launch * 1_000_000
            return HistoryRun.Lifetime(
                position: position, launchKind: .cold, launchDuration: launch * 1_000_000, busyInWindow: launch * 500_000,
                milestones: milestones, stalls: [], omittedStalls: 0, timeInStates: [("active", 4_000_000_000)], end: .terminated,
                endCode: 0, endSignal: nil)
        }
        return HistoryRun(
            path: path, source: "trace", events: 20, lifetimeCount: lifetimes.count, metadata: TraceMetadata(), lifetimes: lifetimes,
            violations: [])
    }

    /// A build's 8 runs of 3 launches around `level` ms (a fixed spread of ±4 %, shifted by build).
    static func runs(build: Int, level: Double) -> [HistoryRun] {
        (0..<8).map { index in
            let launches = (0..<3).map { launch in
                Int64(level * (0.96 + 0.08 * Double((build * 7 + index * 3 + launch * 5) % 11) / 10))
            }
            return run("run-\(index).jsonl", launches: launches)
        }
    }

    static func record(_ id: Int, branch: String = "main") -> BuildRecord {
        BuildRecord(buildID: String(id), commit: "c0ffee\(id)", branch: branch, date: "2026-11-28T00:00:00Z")
    }

    /// A store of `levels.count` builds of main, build n (from 1) at `levels[n - 1]` ms.
    static func store(_ label: String, levels: [Double]) throws -> HistoryStore {
        let store = try HistoryStore(path: try ScratchDirectory.make(label) + "/history.sqlite", access: .write)
        for (offset, level) in levels.enumerated() {
            try store.add(record(offset + 1), runs: runs(build: offset + 1, level: level))
        }
        return store
    }

    @Test func theSpecificationNamesABranchAndACount() throws {
        #expect(try HistoryBaseline(parsing: "history:main") == HistoryBaseline(branch: "main", builds: 10))
        #expect(try HistoryBaseline(parsing: "history:release/4.2:5") == HistoryBaseline(branch: "release/4.2", builds: 5))
        #expect(try HistoryBaseline(parsing: "history:2024:3") == HistoryBaseline(branch: "2024", builds: 3))
        for (text, reason) in [
            ("main", "a baseline from the history is written history:BRANCH[:N]"),
            ("history:", "the branch is missing: history:BRANCH[:N]"),
            ("history::4", "the branch is missing: history:BRANCH[:N]"),
            ("history:main:0", "N in history:BRANCH:N is a number of builds, 1 or more (\"0\" is not)"),
            ("history:main:ten", "N in history:BRANCH:N is a number of builds, 1 or more (\"ten\" is not)"),
        ] {
            let error = #expect(throws: HistoryBaseline.SyntaxError.self) { try HistoryBaseline(parsing: text) }
            #expect(error?.description == "\(text): \(reason)")
        }
    }

    @Test func theBaselineIsTheLastBuildsOfItsBranch() throws {
        let store = try Self.store("baseline-last", levels: Array(repeating: 200, count: 6))
        try store.add(Self.record(7, branch: "feature"), runs: Self.runs(build: 7, level: 300))
        try store.add(Self.record(8), runs: Self.runs(build: 8, level: 200))
        let found = try HistoryBaseline(branch: "main", builds: 4).runs(in: store)
        #expect(found.builds.map(\.record.buildID) == ["4", "5", "6", "8"])
        #expect(found.runs.count == 32)
        // Before build 8: the four main builds before it.
        let before = try #require(try store.build(id: "8")).row
        #expect(try HistoryBaseline(branch: "main", builds: 4).builds(in: store, before: before).map(\.record.buildID) == ["3", "4", "5", "6"])
        // Fewer builds than asked for: all of them.
        #expect(try HistoryBaseline(branch: "feature", builds: 4).builds(in: store).map(\.record.buildID) == ["7"])
    }

    @Test func aBranchWithoutBuildsOrRunsIsOneLine() throws {
        let store = try Self.store("baseline-errors", levels: [200, 200])
        try store.add(Self.record(3, branch: "lonely"), runs: [Self.run("only.jsonl", launches: [200])])
        let none = #expect(throws: HistoryBaselineError.self) { try HistoryBaseline(branch: "develop").runs(in: store) }
        #expect(none?.description == "\(store.path): no build of branch develop (its branches: lonely, main)")
        let few = #expect(throws: HistoryBaselineError.self) { try HistoryBaseline(branch: "lonely").runs(in: store) }
        #expect(few?.description == "\(store.path): the last build of branch lonely hold 1 run; a baseline needs at least 2")
    }

    @Test func theSameBuildAddedAgainAddsNothing() throws {
        let store = try Self.store("baseline-once", levels: [200])
        let before = try store.runs(ofBuild: try #require(try store.build(id: "1")).row)
        #expect(try store.addOnce(Self.record(1), runs: Self.runs(build: 1, level: 200)) == false)
        #expect(try store.runs(ofBuild: try #require(try store.build(id: "1")).row) == before)
        // Some of its runs and one it does not have: refused as `history add` refuses it.
        let mixed = [Self.run("run-0.jsonl", launches: [200]), Self.run("new.jsonl", launches: [200])]
        let error = #expect(throws: HistoryStoreError.self) { try store.addOnce(Self.record(1), runs: mixed) }
        #expect(error?.kind == .duplicateRun(build: "1", path: "run-0.jsonl"))
        #expect(try store.runs(ofBuild: try #require(try store.build(id: "1")).row) == before)
        #expect(try store.addOnce(Self.record(2), runs: Self.runs(build: 2, level: 200)) == true)
    }

    @Test func aStepFailsTheBuildThatStartsItAndNoOther() throws {
        // Ten builds at 200 ms, then three at 260 ms.
        let store = try Self.store("baseline-step", levels: Array(repeating: 200, count: 10) + [260, 260, 260])
        let gate = HistoryGate()
        for build in 1...10 {
            #expect(try gate.verdict(store: store, buildID: String(build), added: true).passed, "build \(build)")
        }
        let step = try gate.verdict(store: store, buildID: "11", added: true)
        #expect(step.changes.count == 2)
        #expect(step.changes.first?.hasPrefix("launch.cold median rose 30.") == true)
        #expect(step.changes.first?.contains("at build 11, commit c0ffee11, compared to build 10, commit c0ffee10") == true)
        #expect(step.comparedTo == "build 10, commit c0ffee10")
        #expect(step.baseline == "the last 10 builds of main (builds 1 to 10, 80 runs)")
        // The builds after it are on the new level: the change is build 11's.
        #expect(try gate.verdict(store: store, buildID: "12", added: true).passed)
        #expect(try gate.verdict(store: store, buildID: "13", added: true).passed)
        // The same verdict for the same build, however often it is asked.
        #expect(try gate.verdict(store: store, buildID: "11", added: false).changes == step.changes)
    }

    @Test func noiseAndSmallChangesFailNothing() throws {
        // A 3 % step is below the 5 % worth naming; the rest is the builds' own spread.
        let store = try Self.store("baseline-noise", levels: Array(repeating: 200, count: 10) + [206, 206])
        for build in 1...12 {
            #expect(try HistoryGate().verdict(store: store, buildID: String(build), added: true).passed, "build \(build)")
        }
    }

    @Test func aBuildWithoutEarlierBuildsPasses() throws {
        let store = try Self.store("baseline-first", levels: [200])
        let verdict = try HistoryGate().verdict(store: store, buildID: "1", added: true)
        #expect(verdict.passed)
        #expect(verdict.comparedTo == nil)
        #expect(verdict.baseline == "no baseline: \(store.path): no build of branch main before this one (its branches: main)")
    }
}
