import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Every output names a moment one way: its time since the trace's first event, labelled
/// (docs/REPORTS.md, "One clock"). The trace's third lifetime launches 5 s after its first
/// event and stalls 10 ms after its launch: every output says `+5.010 s`, none `+0.010 s`.
@Suite struct OneClockTests {
    static func analysis() throws -> (path: String, analysis: TraceAnalysis) {
        let path = try ScratchDirectory.make("clock") + "/clock.jsonl"
        try LaunchKindRankingTests.trace.write(toFile: path, atomically: true, encoding: .utf8)
        var source = try TraceInputs.open(path: path)
        return (path, try LifecycleAnalyzer.analyze(&source, path: path, options: AnalysisOptions()))
    }

    @Test func violationsAreTimedSinceTheTracesFirstEvent() throws {
        let (_, analysis) = try Self.analysis()
        let stall = try #require(analysis.violations.last { $0.rule.id == "launch-stall" })
        #expect(stall.lifetime == 2)
        #expect(stall.sinceLaunch == 10_000_000)
        #expect(stall.sinceStart == 5_010_000_000)
        #expect(stall.when == "+5.010 s into the trace")
        #expect(stall.message.hasPrefix("The main thread was busy for 400 ms from +5.010 s, inside the launch window"))
        #expect(stall.events.map(\.description) == ["launch reason=user at +5.000 s", "callback.begin didFinishLaunching at +5.010 s"])
    }

    @Test func everyCheckFormatPrintsTheSameMoment() throws {
        let (_, analysis) = try Self.analysis()
        let output = CheckOutput(analyses: [analysis], rules: .all, strict: false)
        let statement = "+5.010 s into the trace: The main thread was busy for 400 ms from +5.010 s"
        #expect(output.text.contains("  error[launch-stall] lifetime 3, " + statement), "\(output.text)")
        for format in [CheckOutput.Format.junit, .github, .markdown, .sarif] {
            let rendered = output.rendered(format)
            #expect(rendered.contains(statement), "\(format): \(rendered)")
            #expect(!rendered.contains("+0.010 s"), "\(format) names a moment since the launch: \(rendered)")
        }
        #expect(output.rendered(.junit).contains("message=\"lifetime 2, +2.010 s into the trace: The main thread was busy for 1.500 s from +2.010 s"))
        let json = output.rendered(.json)
        #expect(json.contains("\"sinceStart\": 5010000000"), "\(json)")
        #expect(json.contains("\"origin\": 0"), "\(json)")
        #expect(json.contains("from +5.010 s"))
        #expect(!output.text.contains("+0.010 s"))
    }

    @Test func reportsAndThePageCountFromTheFirstEvent() throws {
        let (path, analysis) = try Self.analysis()
        let text = TraceReport(analysis: analysis, options: AnalysisOptions()).text
        #expect(text.contains("Times are since the trace's first event (+0.000 s); durations after a launch say so"))
        #expect(text.contains("Lifetime 3: cold launch (reason user, at +5.000 s into the trace)"), "\(text)")
        #expect(text.contains("    +5.010 s  400 ms  "), "\(text)")
        // Milestones are durations after the launch, never a second kind of moment.
        #expect(text.contains("  Milestones: willFinishLaunching 1 ms, didFinishLaunching returned 410 ms, first active 422 ms, first frame 500 ms after the launch"), "\(text)")
        #expect(!text.contains("+0.010 s") && !text.contains("+0.500 s"), "\(text)")
        let html = try TraceHTMLReport.make(path: path, options: AnalysisOptions()).html
        #expect(html.contains("Times are since the trace&#39;s first event (+0.000 s); durations after a launch say so."))
        #expect(html.contains("Stall 2: lifetime 3, at +5.010 s into the trace (10 ms after its launch), 400 ms in didFinishLaunching"), "\(html)")
        #expect(!html.contains("time since the launch"))
        #expect(!html.contains("+0.010 s"))
    }

    @Test func replayAndDumpUseTheSameClock() throws {
        let (path, _) = try Self.analysis()
        var lines: [String] = []
        try ReplayTranscript.write(path: path, options: AnalysisOptions(), from: 5_000_000_000, to: 6_000_000_000) { lines.append($0) }
        #expect(lines.first == ReplayTranscript.header)
        #expect(lines.dropFirst().first?.hasPrefix("    +5.000 s  launch") == true, "\(lines)")
        #expect(lines.contains { $0.contains("from +5.010 s") }, "\(lines)")
        #expect(try TraceClock.sinceStart(parsing: "+5.010 s") == 5_010_000_000)
        #expect(try TraceClock.sinceStart(parsing: "-0.003 s") == -3_000_000)
        #expect(try TraceClock.sinceStart(parsing: "5.01s") == 5_010_000_000)
        #expect(TraceClock.preciseMoment(5_010_000_999) == "+5.010000 s")
        #expect(TraceClock.labelled(-3_000_000) == "-0.003 s into the trace")
    }
}
