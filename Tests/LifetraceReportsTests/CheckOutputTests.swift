import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceTestSupport
import Testing

/// The `check` output formats, on the samples.
struct CheckOutputTests {
    static func output(_ names: [String], strict: Bool = false) throws -> CheckOutput {
        CheckOutput(analyses: try names.map { try SampleTraces.analyze($0) }, rules: .all, strict: strict)
    }

    @Test("text: the verdict, each violation with its witnesses, and a summary")
    func text() throws {
        let text = try Self.output(["launch-stall.fail.jsonl", "launch-stall.pass.jsonl"]).rendered(.text)
        #expect(text == """
            launch-stall.fail.jsonl: 1 error, 0 warnings
              error[launch-stall] +0.010 s into the trace: The main thread was busy for 400 ms from +0.010 s, inside the \
            launch window (which ends at the first frame); the work on the main thread during it was \
            signpost "loadDatabase" (370 ms, in didFinishLaunching > loadDatabase); expected no main-thread \
            stall of 400 ms or more during launch. Why: "Only tasks that contribute to setting up the user \
            interface should be performed on the main thread." (Apple, App Programming Guide for iOS: The App \
            Life Cycle, "Threads and Concurrency")
                  launch reason=user at +0.000 s
                  callback.begin didFinishLaunching at +0.010 s
            launch-stall.pass.jsonl: ok (8 events, 1 lifetime)
            2 traces checked, 1 failed: 1 error, 0 warnings

            """)
    }

    @Test("json: the documented shape, times in nanoseconds")
    func json() throws {
        let text = try Self.output(["launch-stall.fail.jsonl"]).rendered(.json)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let traces = try #require(document["traces"] as? [[String: Any]])
        #expect(traces.count == 1)
        #expect(traces[0]["path"] as? String == "launch-stall.fail.jsonl")
        let violation = try #require((traces[0]["violations"] as? [[String: Any]])?.first)
        #expect(violation["rule"] as? String == "launch-stall")
        #expect(violation["severity"] as? String == "error")
        #expect((violation["ts"] as? NSNumber)?.int64Value == 10_000_000)
        #expect((violation["message"] as? String)?.hasPrefix("The main thread was busy for 400 ms") == true)
        let events = try #require(violation["events"] as? [[String: Any]])
        #expect(events.map { $0["type"] as? String } == ["launch", "callback.begin"])
        #expect(events[1]["name"] as? String == "didFinishLaunching")
        let lifetime = try #require((traces[0]["lifetimes"] as? [[String: Any]])?.first)
        let launch = try #require(lifetime["launch"] as? [String: Any])
        #expect(launch["kind"] as? String == "cold")
        #expect((launch["duration"] as? NSNumber)?.int64Value == 440_000_000)
        let stall = try #require((lifetime["stalls"] as? [[String: Any]])?.first)
        #expect((stall["start"] as? NSNumber)?.int64Value == 10_000_000)
        #expect((stall["duration"] as? NSNumber)?.int64Value == 400_000_000)
        let blame = try #require(stall["blame"] as? [[String: Any]])
        #expect(blame.map { $0["name"] as? String } == ["didFinishLaunching", "loadDatabase"])
        let work = try #require(stall["work"] as? [String: Any])
        #expect(work["name"] as? String == "loadDatabase")
        #expect(work["chain"] as? [String] == ["didFinishLaunching", "loadDatabase"])
        let fact = try #require(violation["fact"] as? [String: Any])
        #expect(fact["document"] as? String == "Apple, App Programming Guide for iOS: The App Life Cycle")
        #expect(fact["section"] as? String == "\"Threads and Concurrency\"")
        #expect(fact["translated"] as? Bool == false)
        let end = try #require(lifetime["end"] as? [String: Any])
        #expect(end["kind"] as? String == "endOfTrace")
        let summary = try #require(document["summary"] as? [String: Any])
        #expect((summary["errors"] as? NSNumber)?.intValue == 1)
        #expect(summary["passed"] as? Bool == false)
        #expect((summary["rules"] as? [String: Any])?["launch-stall"] as? NSNumber == 1)
    }

    @Test("junit: one test case per rule that ran per trace; a warning is in system-out, not a failure, unless strict")
    func junit() throws {
        let xml = try Self.output(["unexpected-exit.fail.jsonl"]).rendered(.junit)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == Rule.allCases.count)
        #expect(xml.contains("<testcase classname=\"unexpected-exit.fail.jsonl\" name=\"unexpected-exit\" time=\"0.000000\"/>"))
        #expect(xml.contains("&#10;warning unexpected-exit (does not fail the check without --strict):&#10;lifetime 1, +"))
        #expect(xml.contains("The process was killed by signal 11"))
        #expect(xml.contains("<property name=\"warnings\" value=\"1\"/>"))
        let parsed = try XMLDocument(xmlString: xml)
        #expect(try parsed.nodes(forXPath: "//failure").count == 0)
        let strict = try XMLDocument(xmlString: try Self.output(["unexpected-exit.fail.jsonl"], strict: true).rendered(.junit))
        #expect(try strict.nodes(forXPath: "//failure[@type='warning']").count == 1)
    }

    @Test("github: one workflow command per violation, errors first, escaped, no file=")
    func github() throws {
        let text = try Self.output(["background-time.fail.jsonl", "launch-sequence.fail.jsonl"]).rendered(.github)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        // The line of the offending event comes with it from the reader, wherever the trace is named from.
        #expect(lines[0].hasPrefix("::error title=launch-sequence in launch-sequence.fail.jsonl line 3::lifetime 1, +0.010 s into the trace: didFinishLaunching began"))
        #expect(lines[0].contains("%0A  callback.begin didFinishLaunching at +0.010 s"))
        #expect(lines[1].hasPrefix("::warning title=background-time in background-time.fail.jsonl line 14::lifetime 1, +31.500 s into the trace: The system expired"))
    }

    @Test("strict: warnings fail the check")
    func strict() throws {
        #expect(try Self.output(["background-time.fail.jsonl"]).passed)
        #expect(try !Self.output(["background-time.fail.jsonl"], strict: true).passed)
        #expect(try !Self.output(["time-order.fail.jsonl"]).passed)
    }

    @Test("without lifetime reports, an analysis finds the same violations and counts the same lifetimes")
    func withoutLifetimeReports() throws {
        for name in SampleTraces.files(suffix: ".jsonl") {
            let kept = try SampleTraces.analyze(name)
            let counted = try SampleTraces.analyze(name, options: AnalysisOptions(keepsLifetimes: false))
            #expect(counted.violations == kept.violations, "\(name)")
            #expect(counted.lifetimeCount == kept.lifetimes.count, "\(name)")
            #expect(kept.lifetimeCount == kept.lifetimes.count, "\(name)")
            #expect(counted.lifetimes.isEmpty, "\(name)")
            let text = CheckOutput(analyses: [counted], rules: .all, strict: false).text
            #expect(text == CheckOutput(analyses: [kept], rules: .all, strict: false).text, "\(name)")
        }
    }
}
