import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRunner
import LifetraceTestSupport
import Testing

/// `report --format ndjson` and the summary computed from its rows.
struct TraceRowsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func rows(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test("a lifetime row per lifetime and a closing row per trace, in path order; a bad trace is an error row")
    func rowsAndErrorRows() throws {
        let directory = NSTemporaryDirectory() + "lifetrace-rows-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bad = directory + "/bad.ltrace"
        try Data("not a trace\n".utf8).write(to: URL(fileURLWithPath: bad))
        let runs = Self.root + "/Samples/runs"
        let result = try LifetraceCommand.run(["report", "--format", "ndjson", bad, runs])
        #expect(result.status == 2)
        let rows = try Self.rows(result.output)
        #expect(rows.allSatisfy { $0["schema"] as? Int == 1 })
        let error = try #require(rows.first)
        #expect(error["row"] as? String == "error")
        #expect(error["path"] as? String == bad)
        #expect(result.error == "lifetrace: \(error["error"] as? String ?? "?")\n")
        // Each readable trace: its lifetime rows (index 0, 1, ...), then its trace row.
        let files = try TraceInputs.expand([runs])
        var position = 1
        for file in files {
            let analysis = try TraceInputs.analyze(path: file, options: AnalysisOptions())
            for lifetime in analysis.lifetimes {
                let row = rows[position]
                #expect(row["row"] as? String == "lifetime" && row["path"] as? String == file)
                #expect(row["index"] as? Int == lifetime.index)
                let launch = try #require(row["launch"] as? [String: Any])
                #expect(launch["kind"] as? String == lifetime.launch.kind.rawValue)
                #expect((launch["duration"] as? Int).map(Int64.init) == lifetime.launch.duration)
                let end = try #require(row["end"] as? [String: Any])
                #expect(end["kind"] as? String == lifetime.end.kind.rawValue)
                let stalls = try #require(row["stalls"] as? [String: Any])
                #expect(stalls["count"] as? Int == lifetime.stalls.count)
                position += 1
            }
            let closing = rows[position]
            #expect(closing["row"] as? String == "trace" && closing["path"] as? String == file)
            #expect(closing["events"] as? Int == analysis.eventCount)
            #expect(closing["lifetimes"] as? Int == analysis.lifetimes.count)
            #expect((closing["metadata"] as? [String: String])?["app"] == analysis.metadata["app"])
            position += 1
        }
        #expect(position == rows.count)
    }

    @Test("a lifetime row counts its own violations; the trace row all of them, by rule with severity and order")
    func violationCounts() throws {
        let path = Self.root + "/Samples/traces/launch-stall.fail.jsonl"
        let rows = try Self.rows(try LifetraceCommand.run(["report", "--format", "ndjson", path]).output)
        #expect(rows.count == 2)
        for row in rows {
            let violations = try #require(row["violations"] as? [[String: Any]])
            #expect(violations.count == 1)
            #expect(violations.first?["rule"] as? String == "launch-stall")
            #expect(violations.first?["severity"] as? String == "error")
            #expect(violations.first?["order"] as? Int == Rule.launchStall.order)
            #expect(violations.first?["count"] as? Int == 1)
        }
        #expect(rows[0]["severities"] as? [String: Int] == ["error": 1, "warning": 0])
    }

    @Test("the summary with an unreadable trace: the rest summarised, the trace named and counted, exit 2")
    func summaryWithUnreadableTrace() throws {
        let directory = NSTemporaryDirectory() + "lifetrace-summary-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for name in ["background-fetch.jsonl", "cold-launch-scenes.jsonl"] {
            try FileManager.default.copyItem(atPath: Self.root + "/Samples/runs/" + name, toPath: directory + "/" + name)
        }
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: directory + "/cut.ltrace"))
        let json = try LifetraceCommand.run(["report", "--format", "json", directory])
        #expect(json.status == 2)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(document["traces"] as? Int == 2)
        let unreadable = try #require(document["unreadable"] as? [[String: String]])
        #expect(unreadable.map { $0["path"] } == [directory + "/cut.ltrace"])
        let text = try LifetraceCommand.run(["report", directory])
        #expect(text.status == 2)
        #expect(text.output.hasPrefix("Summary of 2 traces, 2 lifetimes, "))
        #expect(text.output.contains("; 1 trace could not be read\n"))
        #expect(text.output.contains("Traces that could not be read:\n  \(directory)/cut.ltrace: "))
    }

    @Test("percentiles are exact in integers: type 7 interpolation, hundredths, durations rounded half up")
    func exactPercentiles() throws {
        let four = SampleDistribution(integers: [4, 1, 3, 2])
        #expect(four.percentileHundredths(0) == 100)
        #expect(four.percentileHundredths(50) == 250)
        #expect(four.percentileHundredths(90) == 370)
        #expect(four.percentileHundredths(99) == 397)
        #expect(four.percentileHundredths(100) == 400)
        #expect(SampleDistribution(integers: []).percentileHundredths(50) == nil)
        // No overflow at the ends of Int64: 100 * x needs more than 64 bits.
        let wide = SampleDistribution(integers: [.min, .max])
        #expect(wide.percentileHundredths(50) == Int128(Int64.min) * 100 + 50 * (Int128(Int64.max) - Int128(Int64.min)))
        func duration(_ values: [Int64], _ percent: Int) -> JSONValue? {
            RunSummary.value(
                RunSummary.DistributionRow(label: "", metric: .stallDuration, distribution: SampleDistribution(integers: values)),
                percent: percent)
        }
        #expect(duration([1, 2], 50) == .int(2))
        #expect(duration([0, 1], 50) == .int(1))
        #expect(duration([-2, -1], 50) == .int(-1))
        #expect(duration([0, 10], 99) == .int(10))
        #expect(duration([0, 100], 99) == .int(99))
        let counts = RunSummary.DistributionRow(label: "", metric: .stallCount, distribution: SampleDistribution(integers: [0, 1, 1, 4]))
        #expect(RunSummary.value(counts, percent: 50) == .number(1))
        #expect(RunSummary.value(counts, percent: 90) == .number(3.1))
    }
}
