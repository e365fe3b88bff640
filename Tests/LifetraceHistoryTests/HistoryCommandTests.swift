import Foundation
import LifetraceHistory
import LifetraceTestSupport
import Synchronization
import Testing

/// `lifetrace history add` and `show` end to end, on builds of the repository's own launch runs
/// (scripts/make-history-builds.py) and synthesized traces (`lifetrace synth`).
@Suite struct HistoryCommandTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Writes `builds` builds of `runs` launch runs, slower from build `regression` (0: never).
    static func writeBuilds(_ directory: String, builds: Int, runs: Int, regression: Int) throws {
        let python = try #require(ChildProcess.onPath("python3"))
        let made = try ChildProcess.run(python, [
            repository.appendingPathComponent("scripts/make-history-builds.py").path, directory, "--builds", String(builds),
            "--runs", String(runs), "--regression", String(regression),
        ])
        #expect(made.status == 0, "\(made.error)")
    }

    /// Adds each build folder under `directory` in order, as build 1, 2, ...
    static func addBuilds(_ directory: String, count: Int, store: String) throws {
        for build in 1...count {
            let added = try LifetraceCommand.run([
                "history", "add", "--no-config", "--history", store, "--build", String(build), "--commit", "commit\(build)",
                String(format: "%@/build-%02d", directory, build),
            ])
            #expect(added.status == 0, "\(added.error)")
        }
    }

    static func show(_ store: String, _ arguments: [String] = []) throws -> [String: Any] {
        let shown = try LifetraceCommand.run(["history", "show", "--no-config", "--history", store, "--format", "json"] + arguments)
        #expect(shown.status == 0, "\(shown.error)")
        return try #require(JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
    }

    static func changes(_ document: [String: Any]) -> [(metric: String, build: String)] {
        let series = document["series"] as? [[String: Any]] ?? []
        return series.flatMap { series in
            (series["changes"] as? [[String: Any]] ?? []).map { (series["metric"] as? String ?? "", $0["build"] as? String ?? "") }
        }
    }

    /// `make demo`'s builds: 20, slower from the eleventh (the Makefile's `demo`).
    static let demo = (builds: 20, regression: 11)

    @Test func anInjectedLaunchRegressionIsFoundAtTheBuildItStarts() throws {
        let directory = try ScratchDirectory.make("history-step")
        try Self.writeBuilds(directory, builds: Self.demo.builds, runs: 8, regression: Self.demo.regression)
        let store = directory + "/history.sqlite"
        try Self.addBuilds(directory, count: Self.demo.builds, store: store)
        let document = try Self.show(store)
        let launch = Self.changes(document).filter { $0.metric.hasPrefix("launch.cold.") }
        #expect(launch.map(\.metric) == ["launch.cold.p50", "launch.cold.p90"] || launch.map(\.metric) == ["launch.cold.p50"])
        #expect(launch.allSatisfy { $0.build == String(Self.demo.regression) })
        // Nothing else changed: the runs differ only in their launch.
        #expect(Self.changes(document).count == launch.count)
        // Found with a clear margin: p a fifth of the cut or less, not at its edge.
        let series = document["series"] as? [[String: Any]] ?? []
        let p50 = series.first { $0["metric"] as? String == "launch.cold.p50" }
        let pValue = ((p50?["changes"] as? [[String: Any]])?.first?["pValue"] as? NSNumber)?.doubleValue
        #expect(try #require(pValue) <= EDivisive().significance / 5)
        let text = try LifetraceCommand.run(["history", "show", "--no-config", "--history", store])
        #expect(text.output.contains("launch.cold.p50 rose"))
        #expect(text.output.contains("from build \(Self.demo.regression), commit commit\(Self.demo.regression), p = 0.0001"))
    }

    @Test func buildsWithoutAStepHaveNoChangePoint() throws {
        let directory = try ScratchDirectory.make("history-flat")
        try Self.writeBuilds(directory, builds: Self.demo.builds, runs: 8, regression: 0)
        let store = directory + "/history.sqlite"
        try Self.addBuilds(directory, count: Self.demo.builds, store: store)
        let document = try Self.show(store)
        #expect(Self.changes(document).isEmpty)
        #expect((document["points"] as? [Any])?.count == Self.demo.builds)
    }

    @Test func synthesizedBuildsWithoutAStepHaveNoChangePoint() throws {
        let directory = try ScratchDirectory.make("history-synth")
        let store = directory + "/history.sqlite"
        for build in 1...16 {
            let folder = directory + "/build-\(build)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for run in 1...2 {
                let seed = String(build * 10 + run)
                let made = try LifetraceCommand.run(["synth", "--events", "4000", "--seed", seed, "-o", folder + "/run-\(run).ltrace"])
                #expect(made.status == 0, "\(made.error)")
            }
            let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", String(build), folder])
            #expect(added.status == 0, "\(added.error)")
        }
        let document = try Self.show(store)
        #expect(Self.changes(document).isEmpty)
        // Synthesized runs have every launch kind, stalls and several endings: all those series are there.
        let metrics = (document["series"] as? [[String: Any]] ?? []).compactMap { $0["metric"] as? String }
        #expect(metrics.contains("launch.cold.p50"))
        #expect(metrics.contains("hangRate"))
        #expect(metrics.contains("stalls.perRun"))
        #expect(metrics.contains { $0.hasPrefix("exits.") })
    }

    @Test func aBuildsFiguresAreTheSummarysOwn() throws {
        let directory = try ScratchDirectory.make("history-summary")
        try Self.writeBuilds(directory, builds: 1, runs: 8, regression: 0)
        let store = directory + "/history.sqlite"
        try Self.addBuilds(directory, count: 1, store: store)
        let report = try LifetraceCommand.run(["report", "--no-config", directory + "/build-01", "--format", "json"])
        let summary = try #require(JSONSerialization.jsonObject(with: Data(report.output.utf8)) as? [String: Any])
        let cold = try #require((summary["launch"] as? [String: Any])?["cold"] as? [String: Any])
        let series = try #require(Self.show(store)["series"] as? [[String: Any]])
        let p50 = try #require(series.first { $0["metric"] as? String == "launch.cold.p50" })
        let figure = try #require((p50["figures"] as? [[String: Any]])?.first)
        #expect((figure["value"] as? NSNumber)?.int64Value == (cold["median"] as? NSNumber)?.int64Value)
        #expect((figure["low"] as? NSNumber)?.int64Value == (cold["min"] as? NSNumber)?.int64Value)
        #expect((figure["high"] as? NSNumber)?.int64Value == (cold["max"] as? NSNumber)?.int64Value)
        #expect((figure["n"] as? NSNumber)?.intValue == (cold["n"] as? NSNumber)?.intValue)
    }

    @Test func versionsAreOrderedAsNumbers() throws {
        let directory = try ScratchDirectory.make("history-versions")
        try Self.writeBuilds(directory, builds: 10, runs: 2, regression: 0)
        let store = directory + "/history.sqlite"
        // Added newest first: the version order does not depend on the order of adding.
        for build in (1...10).reversed() {
            let added = try LifetraceCommand.run([
                "history", "add", "--no-config", "--history", store, "--build", String(build),
                String(format: "%@/build-%02d", directory, build),
            ])
            #expect(added.status == 0, "\(added.error)")
        }
        let document = try Self.show(store, ["--by", "version"])
        let labels = (document["points"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        #expect(labels == (1...10).map { "1.\($0)" })
    }

    @Test func theBuildComesFromTheCIEnvironment() throws {
        let directory = try ScratchDirectory.make("history-ci")
        try Self.writeBuilds(directory, builds: 1, runs: 2, regression: 0)
        let store = directory + "/history.sqlite"
        let added = try ChildProcess.run(
            LifetraceCommand.path, ["history", "add", "--no-config", "--history", store, directory + "/build-01"],
            environment: ["GITHUB_RUN_NUMBER": "4711", "GITHUB_SHA": "0123456789abcdef0123", "GITHUB_REF_NAME": "main", "GITHUB_HEAD_REF": ""])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output == "added 2 runs to build 4711, version 1.1 (101), commit 0123456789ab in \(store)\n")
        let point = try #require((Self.show(store)["points"] as? [[String: Any]])?.first)
        #expect(point["branch"] as? String == "main")
        #expect(point["device"] as? String == "iPhone15,2")
        #expect(point["os"] as? String == "iOS 17.5")
        #expect(point["buildNumber"] as? String == "101")
    }

    @Test func twoProcessesAddingAtOnceLoseNothing() throws {
        let directory = try ScratchDirectory.make("history-processes")
        try Self.writeBuilds(directory, builds: 2, runs: 6, regression: 0)
        let store = directory + "/history.sqlite"
        let statuses = Mutex<[Int32]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { job in
            let result = try? LifetraceCommand.run([
                "history", "add", "--no-config", "--history", store, "--build", "job\(job)",
                String(format: "%@/build-%02d", directory, job + 1),
            ])
            statuses.withLock { $0.append(result?.status ?? -1) }
        }
        #expect(statuses.withLock { $0 } == [0, 0])
        let points = try #require(Self.show(store)["points"] as? [[String: Any]])
        #expect(Set(points.compactMap { $0["build"] as? String }) == ["job0", "job1"])
        #expect(points.compactMap { ($0["runs"] as? NSNumber)?.intValue } == [6, 6])
    }
}

/// The HTML page: a chart per metric, its change marked at its build, every point's build,
/// commit and figures on hover.
@Suite struct HistoryPageTests {
    @Test func thePageMarksTheChangeAndNamesEachPoint() throws {
        let directory = try ScratchDirectory.make("history-page")
        try HistoryCommandTests.writeBuilds(directory, builds: 16, runs: 8, regression: 10)
        let store = directory + "/history.sqlite"
        try HistoryCommandTests.addBuilds(directory, count: 16, store: store)
        let page = directory + "/history.html"
        let shown = try LifetraceCommand.run(["history", "show", "--no-config", "--history", store, "--format", "html", "-o", page])
        #expect(shown.status == 0, "\(shown.error)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let series = try #require(HistoryCommandTests.show(store)["series"] as? [[String: Any]])
        #expect(html.components(separatedBy: "<svg class=\"chart\"").count - 1 == series.count)
        #expect(html.components(separatedBy: "<line class=\"change\"").count - 1 == 1)
        #expect(html.contains("<text class=\"change\" x=\"") && html.contains(">build 10: +20.1 %</text>"))
        // 16 points per chart, each with its hover.
        #expect(html.components(separatedBy: "<circle class=\"point\"").count - 1 == 16 * series.count)
        #expect(html.contains("<title>build 10, commit commit10, version 1.10\nlaunch.cold.p50: "))
    }
}
