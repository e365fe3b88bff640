import Foundation
import GRDB
import LifetraceTestSupport
import Testing

/// `diff --baseline history:BRANCH[:N]` and `check --history` end to end, on builds of the
/// repository's own launch runs (scripts/make-history-builds.py), in real store files.
@Suite struct HistoryBaselineCommandTests {
    /// `builds` builds of 8 runs, slower from `regression` on, the first `added` of them added to
    /// a store as builds 1, 2, ... of main.
    static func history(_ label: String, builds: Int, added: Int, regression: Int) throws -> (directory: String, store: String) {
        let directory = try ScratchDirectory.make(label)
        try HistoryCommandTests.writeBuilds(directory, builds: builds, runs: 8, regression: regression)
        let store = directory + "/history.sqlite"
        for build in 0..<added {
            let result = try LifetraceCommand.run([
                "history", "add", "--no-config", "--history", store, "--build", String(build + 1), "--commit", "c0ffee\(build + 1)",
                "--branch", "main", folder(directory, build + 1),
            ])
            #expect(result.status == 0, "\(result.error)")
        }
        return (directory, store)
    }

    static func folder(_ directory: String, _ build: Int) -> String { String(format: "%@/build-%02d", directory, build) }

    static func check(_ store: String, _ directory: String, build: Int, _ arguments: [String] = []) throws -> ChildProcess.Result {
        try LifetraceCommand.run(
            ["check", "--no-config", "--history", store, "--build", String(build), "--commit", "c0ffee\(build)", "--branch", "main"]
                + arguments + [folder(directory, build)])
    }

    static func runs(_ store: String) throws -> Int {
        try DatabaseQueue(path: store).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM run") ?? -1 }
    }

    @Test func diffComparesACandidateWithTheLastBuildsOfABranch() throws {
        let (directory, store) = try Self.history("baseline-diff", builds: 12, added: 9, regression: 10)
        // The slower build 12 against builds 5 to 9: a significant regression of the cold launch.
        let slower = try LifetraceCommand.run([
            "diff", "--no-config", "--history", store, "--baseline", "history:main:5", "--max-regression", "10%", "--format", "json",
            Self.folder(directory, 12),
        ])
        #expect(slower.status == 1, "\(slower.error)")
        #expect(slower.error == "lifetrace: baseline: the last 5 builds of main (builds 5 to 9, 40 runs) in \(store)\n")
        let document = try #require(JSONSerialization.jsonObject(with: Data(slower.output.utf8)) as? [String: Any])
        let rows = try #require(document["metrics"] as? [[String: Any]])
        let cold = try #require(rows.first { $0["metric"] as? String == "launch.cold" })
        #expect(cold["regression"] as? Bool == true)
        #expect(document["baselineRuns"] as? Int == 40)
        #expect(document["candidateRuns"] as? Int == 8)
        // A build on the same level (build 8 against builds 1 to 7, after '--'): no regression.
        let (same, sameStore) = try Self.history("baseline-diff-same", builds: 8, added: 7, regression: 0)
        let passed = try LifetraceCommand.run([
            "diff", "--no-config", "--history", sameStore, "--baseline", "history:main", "--max-regression", "10%", "--", Self.folder(same, 8),
        ])
        #expect(passed.status == 0, "\(passed.output)\(passed.error)")
        #expect(passed.error == "lifetrace: baseline: the last 7 builds of main (builds 1 to 7, 56 runs) in \(sameStore)\n")
    }

    @Test func diffNamesWhatTheHistoryCannotGive() throws {
        let (directory, store) = try Self.history("baseline-diff-errors", builds: 2, added: 1, regression: 0)
        let candidate = Self.folder(directory, 2)
        func diff(_ arguments: [String]) throws -> ChildProcess.Result {
            try LifetraceCommand.run(["diff", "--no-config"] + arguments + [candidate])
        }
        let branch = try diff(["--history", store, "--baseline", "history:develop"])
        #expect(branch.status == 2)
        #expect(branch.error == "lifetrace: \(store): no build of branch develop (its branches: main)\n")
        let missing = try diff(["--history", directory + "/none.sqlite", "--baseline", "history:main"])
        #expect(missing.status == 2)
        #expect(missing.error == "lifetrace: \(directory)/none.sqlite: no history store here (`lifetrace history add` makes one)\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/none.sqlite"))
        let written = try diff(["--baseline", "main", "--history", store])
        #expect(written.status == 2)
        #expect(written.error.contains("main: a baseline from the history is written history:BRANCH[:N]"))
        let noStore = try diff(["--baseline", "history:main"])
        #expect(noStore.status == 2)
        #expect(noStore.error.contains("no history store: give --history PATH, or `history:` in .lifetrace.yml"))
        // One run in the branch's builds: too few to compare with.
        let one = try LifetraceCommand.run([
            "history", "add", "--no-config", "--history", store, "--build", "solo", "--branch", "solo", candidate + "/run-01.jsonl",
        ])
        #expect(one.status == 0, "\(one.error)")
        let few = try diff(["--history", store, "--baseline", "history:solo"])
        #expect(few.status == 2)
        #expect(few.error == "lifetrace: \(store): the last build of branch solo hold 1 run; a baseline needs at least 2\n")
        // A damaged store and a newer one: the store's own lines, and the files left as they were.
        let garbage = directory + "/garbage.sqlite"
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: garbage))
        let damaged = try diff(["--history", garbage, "--baseline", "history:main"])
        #expect(damaged.status == 2)
        #expect(damaged.error == "lifetrace: \(garbage): not a readable history store (the file is not an SQLite database, or it is damaged); left as it is\n")
        let newer = try DatabaseQueue(path: store)
        try newer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try newer.close()
        let bytes = FileManager.default.contents(atPath: store)
        let future = try diff(["--history", store, "--baseline", "history:main"])
        #expect(future.status == 2)
        #expect(future.error == "lifetrace: \(store): written by a newer lifetrace (schema steps v99-from-the-future unknown to this one); left as it is\n")
        #expect(FileManager.default.contents(atPath: store) == bytes)
    }

    @Test func checkFailsOnTheBuildThatStartsAChange() throws {
        let (directory, store) = try Self.history("baseline-check", builds: 12, added: 0, regression: 10)
        for build in 1...9 {
            let result = try Self.check(store, directory, build: build)
            #expect(result.status == 0, "build \(build): \(result.output)\(result.error)")
        }
        let step = try Self.check(store, directory, build: 10)
        #expect(step.status == 1, "\(step.output)\(step.error)")
        let line = try #require(step.output.split(separator: "\n").first { $0.hasPrefix("history ") })
        #expect(line.hasPrefix("history \(store): build 10, version 1.10 (110), commit c0ffee10 added; starts "))
        #expect(line.contains("launch.cold median rose "))
        #expect(line.contains("at build 10, commit c0ffee10, compared to build 9, commit c0ffee9, the last of the 9 builds of main "
            + "before it (72 runs), p < 0.0001 (Mann-Whitney U, Holm-adjusted)"))
        // The next builds carry the change on: they pass.
        for build in 11...12 {
            let result = try Self.check(store, directory, build: build)
            #expect(result.status == 0, "build \(build): \(result.output)\(result.error)")
        }
        // The same job again: nothing added, the same verdict.
        let runs = try Self.runs(store)
        let again = try Self.check(store, directory, build: 10)
        #expect(again.status == 1)
        #expect(try Self.runs(store) == runs)
        #expect(again.output.contains("history \(store): build 10, version 1.10 (110), commit c0ffee10 already there; starts "))
        // `history show` has the builds `check` added, as `history add` adds them.
        let shown = try HistoryCommandTests.show(store)
        #expect((shown["points"] as? [Any])?.count == 12)
        #expect((shown["points"] as? [[String: Any]])?.first?["branch"] as? String == "main")
    }

    @Test func checkWithoutAStepPassesEveryBuild() throws {
        let (directory, store) = try Self.history("baseline-check-flat", builds: 14, added: 0, regression: 0)
        for build in 1...14 {
            let result = try Self.check(store, directory, build: build)
            #expect(result.status == 0, "build \(build): \(result.output)\(result.error)")
            #expect(result.output.contains("history \(store): build \(build), version 1.\(build) (\(100 + build)), commit c0ffee\(build) added; starts no change"))
        }
    }

    @Test func everyFormatGivesTheVerdict() throws {
        let (directory, store) = try Self.history("baseline-formats", builds: 11, added: 9, regression: 10)
        var outputs: [String: String] = [:]
        for format in ["json", "junit", "sarif", "markdown", "github", "text"] {
            let result = try Self.check(store, directory, build: 10, ["--format", format])
            #expect(result.status == 1, "\(format): \(result.error)")
            outputs[format] = result.output
        }
        let json = try #require(JSONSerialization.jsonObject(with: Data((outputs["json"] ?? "").utf8)) as? [String: Any])
        let summary = try #require(json["summary"] as? [String: Any])
        let history = try #require(summary["history"] as? [String: Any])
        #expect(summary["passed"] as? Bool == false)
        #expect(history["passed"] as? Bool == false)
        #expect(history["comparedTo"] as? String == "build 9, version 1.9 (109), commit c0ffee9")
        #expect((history["changes"] as? [String])?.first?.hasPrefix("launch.cold median rose ") == true)
        #expect(outputs["junit"]?.contains("<property name=\"history.comparedTo\" value=\"build 9, version 1.9 (109), commit c0ffee9\"/>") == true)
        #expect(outputs["junit"]?.contains("<failure type=\"change\" message=\"launch.cold median rose ") == true)
        let sarif = try #require(JSONSerialization.jsonObject(with: Data((outputs["sarif"] ?? "").utf8)) as? [String: Any])
        let invocation = try #require(((sarif["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        let sarifHistory = try #require((invocation["properties"] as? [String: Any])?["history"] as? [String: Any])
        #expect(sarifHistory["passed"] as? Bool == false)
        #expect(outputs["markdown"]?.contains("### History") == true)
        #expect(outputs["markdown"]?.contains("## Lifetrace check: failed") == true)
        #expect(outputs["github"]?.hasPrefix("::error title=lifetrace history ") == true)
        // A build that starts no change: a notice, and the JSON passes.
        let calm = try Self.check(store, directory, build: 9, ["--format", "github"])
        #expect(calm.status == 0)
        #expect(calm.output.contains("::notice title=lifetrace history "))
    }

    @Test func checksBuildOptionsNeedAHistory() throws {
        let result = try LifetraceCommand.run(["check", "--no-config", "--build", "7", "Samples/runs"])
        #expect(result.status == 2)
        #expect(result.error.contains("--build names what --history adds; give --history PATH too"))
    }
}
