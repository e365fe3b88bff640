import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceTestSupport
import Testing

/// `lifetrace report` and `lifetrace replay` output.
struct TraceReportTests {
    @Test("text report of a trace that ends in willTerminate")
    func text() throws {
        let analysis = try SampleTraces.analyze("nothing-after-terminate.pass.jsonl")
        let text = TraceReport(analysis: analysis, options: AnalysisOptions()).rendered(.text)
        #expect(text == """
            Trace nothing-after-terminate.pass.jsonl: 18 events, 1 lifetime
            Times are since the trace's first event (+0.000 s); durations after a launch say so
            Metadata: app=com.example.sample, rule=nothing-after-terminate, expect=pass

            Lifetime 1: cold launch (reason user, at +0.000 s into the trace)
              Launch: 80 ms (to the first frame)
              Milestones: willFinishLaunching 1 ms, didFinishLaunching returned 50 ms, first active 62 ms, first frame 80 ms after the launch
              Main thread busy in window: 47 ms (from callbacks)
              Stalls (>= 250 ms): none
              Time in states (system view): inactive 65 ms, active 940 ms, background 105 ms
              End: terminated (willTerminate, then exit)
                - The system view was background since +1.005 s.
                - willTerminate began at +1.100 s and returned at +1.105 s.
                - The process exited with code 0 at +1.110 s.
              Violations: none

            """)
    }

    @Test("markdown report has the tables")
    func markdown() throws {
        let analysis = try SampleTraces.analyze("launch-stall.fail.jsonl")
        let markdown = TraceReport(analysis: analysis, options: AnalysisOptions()).rendered(.markdown)
        #expect(markdown.hasPrefix("# Lifetrace report: `launch-stall.fail.jsonl`\n"))
        #expect(markdown.contains(
            "| +0.010 s | 400 ms | signpost \"loadDatabase\" (370 ms, in didFinishLaunching > loadDatabase); "
                + "also callback didFinishLaunching 400 ms |"))
        #expect(markdown.contains("- **error** `launch-stall` at +0.010 s into the trace: The main thread was busy"))
    }

    @Test("replay shows both views before and after each event")
    func replay() throws {
        let (events, symbols) = try SampleTraces.load("silent-while-suspended.fail.jsonl")
        var analyzer = LifecycleAnalyzer()
        let steps = events.map { analyzer.step($0, symbols: symbols) }
        let lines = steps.map { $0.line(origin: events[0].timestamp) }
        #expect(lines.first == "    +0.000 s  launch reason=user  |  system notRunning -> inactive  |  app notRunning -> inactive")
        #expect(lines.contains("    +1.005 s  callback.begin didEnterBackground  |  system background  |  app inactive -> background"))
        #expect(lines.contains("    +1.100 s  state to=suspended  |  system background -> suspended  |  app background"))
        #expect(steps.last?.violations.map(\.rule) == [.silentWhileSuspended])
        #expect(steps.dropLast().allSatisfy { $0.violations.isEmpty })
    }

    @Test("the text report and the JSON say when a launch time was inferred")
    func inferredLaunch() {
        // No `launch` event: a run-loop wake at 0, then the launch callbacks.
        var trace = TraceBuilder()
        trace.wake(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 40)
        trace.callback(60, "didBecomeActive", duration: 2)
        let analysis = trace.analyze()
        let text = TraceReport(analysis: analysis, options: AnalysisOptions()).rendered(.text)
        #expect(text.contains("Lifetime 1: cold launch (at +0.000 s into the trace, inferred: no launch event, the first event's time)\n"))
        #expect(CheckJSONDocument.rendered([analysis], strict: false).contains("\"inferred\": true"))
    }
}
