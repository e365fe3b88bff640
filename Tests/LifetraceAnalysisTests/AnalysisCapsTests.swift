import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// What an analysis keeps of what a trace claims: lifetimes, stalls, threads and scenes past
/// their caps are counted, not kept, and the rules still count every violation
/// (docs/RELIABILITY.md, "Memory: bounded per trace").
struct AnalysisCapsTests {
    @Test("lifetime reports past the limit are counted, not kept")
    func lifetimeLimit() {
        var trace = TraceBuilder()
        for index in 0..<8 { trace.launch(Double(index)) }
        var options = AnalysisOptions()
        options.lifetimeLimit = 5
        let analysis = trace.analyze(options)
        #expect(analysis.lifetimes.count == 5)
        #expect(analysis.lifetimeCount == 8)
        #expect(analysis.capped.lifetimes == 3)
        #expect(analysis.capNotes.first?.hasPrefix("3 more lifetimes were found and not listed") == true)
        #expect(CappedCounts.lifetimeLimit == AnalysisOptions().lifetimeLimit)
    }

    @Test("stalls past a lifetime's first 1000 are counted, and launch-stall and hang still judge each")
    func stallsPastLimit() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.callback(1, "willFinishLaunching", duration: 5)
        trace.callback(10, "didFinishLaunching", duration: 40)
        // 1,200 stalls inside the launch window (it closes at the first frame, below).
        var time = 100.0
        for _ in 0..<1200 {
            trace.wake(time)
            trace.sleep(time + 300)
            time += 301
        }
        trace.callback(time, "didBecomeActive", duration: 2)
        trace.frame(time + 10)
        time += 20
        // 300 stalls after it, in the foreground: hangs.
        for _ in 0..<300 {
            trace.wake(time)
            trace.sleep(time + 300)
            time += 301
        }
        trace.toBackground(time, states: false)
        time += 10
        // 200 in Background: neither.
        for _ in 0..<200 {
            trace.wake(time)
            trace.sleep(time + 300)
            time += 301
        }
        // 300 ms stalls: under the launch budget's default threshold (400 ms), so it is given.
        let analysis = trace.analyze(AnalysisOptions(stallThreshold: 250_000_000))
        let lifetime = analysis.lifetimes[0]
        #expect(lifetime.stalls.count == CappedCounts.lifetimeStallLimit)
        #expect(lifetime.omittedStalls == 700)
        #expect(lifetime.stallCount == 1700)
        #expect(analysis.capped.stalls == 700)
        #expect(analysis.count(of: .launchStall) == 1200)
        #expect(analysis.count(of: .hang) == 300)
        #expect(analysis.capNotes.contains { $0.hasPrefix("700 more stalls were found and not listed") })
    }

    @Test("stalls past the cap during a prewarm are neither launch stalls nor hangs, as the kept ones")
    func stallsPastLimitDuringPrewarm() {
        func trace(prewarm: Bool) -> TraceBuilder {
            var trace = TraceBuilder()
            trace.launch(0, prewarm: prewarm)
            trace.callback(1, "willFinishLaunching", duration: 5)
            trace.callback(10, "didFinishLaunching", duration: 40)
            // 1,100 stalls of 500 ms while the system prepares the app, then a pause of 10 s.
            var time = 100.0
            for _ in 0..<1100 {
                trace.wake(time)
                trace.sleep(time + 500)
                time += 501
            }
            trace.callback(time + 10_000, "didBecomeActive", duration: 2)
            trace.frame(time + 10_010)
            return trace
        }
        let prewarmed = trace(prewarm: true).analyze()
        #expect(prewarmed.lifetimes[0].launch.prewarm != nil)
        #expect(prewarmed.lifetimes[0].omittedStalls == 100)
        #expect(prewarmed.count(of: .launchStall) == 0)
        #expect(prewarmed.count(of: .hang) == 0)
        // Without the prewarm, the same stalls are the launch's: the kept and the counted alike.
        let cold = trace(prewarm: false).analyze()
        #expect(cold.count(of: .launchStall) == 1100)
        #expect(cold.count(of: .hang) == 0)
    }

    @Test("the trace's reports list at most 10,000 stalls together; each lifetime counts the rest")
    func traceStallLimit() {
        var trace = TraceBuilder()
        var time = 0.0
        for _ in 0..<11 {
            trace.launch(time)
            time += 1
            for _ in 0..<1000 {
                trace.wake(time)
                trace.sleep(time + 300)
                time += 301
            }
        }
        let analysis = trace.analyze()
        #expect(analysis.lifetimes.reduce(0) { $0 + $1.stalls.count } == CappedCounts.traceStallLimit)
        #expect(analysis.lifetimes[10].stalls.isEmpty)
        #expect(analysis.lifetimes[10].omittedStalls == 1000)
        #expect(analysis.capped.stalls == 1000)
    }

    @Test("open intervals on more than 10,000 threads: the begins past the cap are counted, not followed")
    func threadLimit() {
        var trace = TraceBuilder()
        trace.launch(0)
        for index in 0..<(CappedCounts.threadLimit + 5) {
            trace.signpostBegin(1 + Double(index) / 1000, "s", thread: .numbered(UInt64(index + 1)))
        }
        let analysis = trace.analyze()
        #expect(analysis.capped.threadBegins == 5)
        #expect(analysis.capNotes.contains { $0.hasPrefix("5 callback or signpost begins were not followed") })
        // A new lifetime follows threads again.
        var again = trace
        again.launch(100)
        again.signpostBegin(101, "s", thread: .numbered(999_999))
        again.signpostEnd(102, "s", thread: .numbered(999_999))
        #expect(again.analyze().capped.threadBegins == 5)
        #expect(again.analyze().count(of: .callbackNesting) == 0)
    }

    @Test("scenes past a lifetime's first 1,000 are counted, not followed; known scenes are found by name")
    func sceneLimit() {
        var trace = TraceBuilder()
        trace.launch(0)
        for index in 0..<(CappedCounts.sceneLimit + 3) {
            trace.state(1 + Double(index) / 1000, .inactive, scene: "s\(index)")
        }
        trace.state(10, .active, scene: "s0")
        let analysis = trace.analyze()
        #expect(analysis.capped.sceneEvents == 3)
        var analyzer = LifecycleAnalyzer()
        for event in trace.events { analyzer.consume(event, symbols: trace.symbols) }
        #expect(analyzer.sceneState(trace.symbols.intern("s0"))?.system == .active)
        #expect(analyzer.sceneState(trace.symbols.intern("s999"))?.system == .inactive)
        #expect(analyzer.sceneState(trace.symbols.intern("s1000")) == nil)
    }

    @Test("drop counts that add past 2^63 saturate, and the note says at least")
    func droppedSaturates() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.add(1, .dropped(count: Int64.max / 2 + 1))
        trace.add(2, .dropped(count: Int64.max / 2 + 1))
        trace.add(3, .dropped(count: 5))
        let lifetime = trace.analyze().lifetimes[0]
        #expect(lifetime.droppedEvents == Int64.max)
        #expect(lifetime.end.facts.contains { $0.hasPrefix("The recorder lost at least \(Int64.max) events") })
    }
}
