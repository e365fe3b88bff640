import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// One launch moment and one numbering of lifetimes in every output: a prewarmed lifetime's
/// durations after its launch all count from the resume (`launch.ts` in JSON), every CI format
/// names the lifetime (counted from 1) next to the moment, and `replay` shows a violation of its
/// window.
@Suite struct LifetimeIdentityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func analysis(_ path: String) throws -> TraceAnalysis {
        var source = try TraceInputs.open(path: path)
        return try LifecycleAnalyzer.analyze(&source, path: path, options: AnalysisOptions())
    }

    /// The prewarm runs from the `launch` event at +0.000 s; the user's launch resumes at
    /// +1800.000 s and stalls there 600 ms. Every "after its launch" is from the resume.
    @Test func aPrewarmedLifetimeIsTimedFromItsResumeEverywhere() throws {
        let path = Self.root + "/Samples/real/prewarm-stall-after-resume.control.jsonl"
        let analysis = try Self.analysis(path)
        let lifetime = try #require(analysis.lifetimes.first)
        let resume = try #require(lifetime.launch.prewarm?.resume)
        #expect(lifetime.launch.timestamp == resume)
        let stall = try #require(lifetime.stalls.first)
        #expect(stall.sinceLaunch == stall.start - resume)
        #expect(lifetime.end.sinceLaunch == lifetime.end.timestamp - resume)
        let violation = try #require(analysis.violations.first { $0.rule.id == "launch-stall" })
        #expect(violation.sinceLaunch == violation.timestamp - resume)
        for event in violation.events { #expect(event.sinceLaunch == event.timestamp - resume) }

        let json = CheckOutput(analyses: [analysis], rules: .all, strict: false).rendered(.json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let trace = try #require((document["traces"] as? [[String: Any]])?.first)
        let row = try #require((trace["lifetimes"] as? [[String: Any]])?.first)
        let launchTS = try #require((row["launch"] as? [String: Any])?["ts"] as? Int64)
        let stalled = try #require((row["stalls"] as? [[String: Any]])?.first)
        #expect(stalled["sinceLaunch"] as? Int64 == (stalled["start"] as? Int64).map { $0 - launchTS })
        let found = try #require((trace["violations"] as? [[String: Any]])?.first)
        #expect(found["sinceLaunch"] as? Int64 == (found["ts"] as? Int64).map { $0 - launchTS })

        let html = try TraceHTMLReport.make(path: path, options: AnalysisOptions()).html
        #expect(html.contains("Stall 1: lifetime 1, at +1800.000 s into the trace (0 ns after its launch), 600 ms"), "\(html)")
        let text = TraceReport(analysis: analysis, options: AnalysisOptions()).text
        #expect(text.contains("Milestones: first active 600 ms, first frame 650 ms after the launch"), "\(text)")
    }

    /// The third lifetime's launch stall (index 2): "lifetime 3" in every format for people and
    /// CI, `lifetime` 2 (its index) and `lifetimeNumber` 3 in JSON, `lifetimeNumber` 3 in SARIF.
    @Test func everyCheckFormatNamesTheLifetimeOneWay() throws {
        let (_, analysis) = try OneClockTests.analysis()
        let output = CheckOutput(analyses: [analysis], rules: .all, strict: false)
        let named = "lifetime 3, +5.010 s into the trace: The main thread was busy for 400 ms"
        #expect(output.text.contains("error[launch-stall] " + named), "\(output.text)")
        for format in [CheckOutput.Format.junit, .github, .markdown, .sarif] {
            let rendered = output.rendered(format)
            #expect(rendered.contains(named), "\(format): \(rendered)")
            #expect(!rendered.contains("lifetime 4,") && !rendered.contains("lifetime 2, +5.010 s"), "\(format)")
        }
        let json = output.rendered(.json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let trace = try #require((document["traces"] as? [[String: Any]])?.first)
        let stall = try #require((trace["violations"] as? [[String: Any]])?.last { $0["rule"] as? String == "launch-stall" })
        #expect(stall["lifetime"] as? Int == 2)
        #expect(stall["lifetimeNumber"] as? Int == 3)
        let sarif = output.rendered(.sarif)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let result = try #require(results.last { $0["ruleId"] as? String == "launch-stall" })
        let properties = try #require(result["properties"] as? [String: Any])
        #expect(properties["lifetimeNumber"] as? Int == 3)
        #expect(properties["lifetime"] == nil)
    }

    /// A hang is judged as its lifetime ends: here at an `exit` past the window. The window
    /// around the hang's moment shows it all the same, after its events; a window before it
    /// does not.
    @Test func replayShowsAViolationWhoseMomentIsInTheWindow() throws {
        let sample = try String(contentsOfFile: Self.root + "/Samples/traces/hang.fail.jsonl", encoding: .utf8)
        let path = try ScratchDirectory.make("replay-window") + "/hang-exit.jsonl"
        try (sample + "{\"ts\":3000000000,\"type\":\"exit\",\"code\":0}\n").write(toFile: path, atomically: true, encoding: .utf8)
        func replay(from: Int64, to: Int64) throws -> [String] {
            var lines: [String] = []
            try ReplayTranscript.write(path: path, options: AnalysisOptions(), from: from, to: to) { lines.append($0) }
            return lines
        }
        let around = try replay(from: 1_900_000_000, to: 2_500_000_000)
        #expect(around.contains { $0.contains("warning[hang] +2.000 s into the trace: The main thread was busy for 410 ms") }, "\(around)")
        #expect(!around.contains { $0.contains("exit") })
        let whole = try replay(from: .min, to: .max)
        // Without a window the hang is under the `exit` that revealed it.
        let exit = try #require(whole.firstIndex { $0.contains("+3.000 s  exit code=0") })
        #expect(whole.dropFirst(exit + 1).contains { $0.hasPrefix("    warning[hang]: The main thread was busy for 410 ms") }, "\(whole)")
        let before = try replay(from: 0, to: 1_000_000_000)
        #expect(!before.contains { $0.contains("warning[hang]") }, "\(before)")
    }
}
