import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// `background-time` and a background task the system expires: ending it in its expiration
/// handler is what the app should do; not ending it (by the grace, before its suspension or its
/// end) is the warning (docs/LIFECYCLE.md, `background-time`, "An expired task").
struct ExpiredTaskTests {
    /// Active, then Background at 1 s with a task 7 begun, expired at 31 s; `then` adds what follows.
    static func expired(_ then: (inout TraceBuilder) -> Void) -> TraceAnalysis {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.toBackground(1000)
        trace.add(1010, .bgtaskBegin(id: 7, name: trace.symbol("upload")))
        trace.add(31_000, .bgtaskExpire(id: 7, name: trace.symbol("upload")))
        then(&trace)
        return trace.analyze()
    }

    /// The background-time warnings' moments (ms).
    static func warnings(_ analysis: TraceAnalysis) -> [Int64] {
        analysis.violations.filter { $0.rule == .backgroundTime }.map { $0.timestamp / 1_000_000 }
    }

    @Test func endedByItsExpirationHandlerIsNoFinding() {
        let analysis = Self.expired { trace in
            trace.add(31_002, .bgtaskEnd(id: 7, name: trace.symbol("upload")))
            trace.state(31_500, .suspended)
        }
        #expect(analysis.violations.isEmpty, "\(analysis.violations.map(\.message))")
        // A BGTaskScheduler run the system expires and its handler completes, likewise.
        var scheduled = TraceBuilder()
        scheduled.launch(0, background: true)
        scheduled.callback(1, "willFinishLaunching")
        scheduled.callback(2, "didFinishLaunching")
        let name = scheduled.symbol("BGProcessingTask:com.example.cleanup")
        scheduled.add(10, .bgtaskBegin(id: 1 << 62, name: name))
        scheduled.add(30_010, .bgtaskExpire(id: 1 << 62, name: name))
        scheduled.add(30_011, .bgtaskEnd(id: 1 << 62, name: name))
        scheduled.state(30_100, .suspended)
        #expect(scheduled.analyze().violations.isEmpty, "\(scheduled.analyze().violations.map(\.message))")
    }

    @Test func notEndedBeforeTheSuspensionIsAWarning() {
        let analysis = Self.expired { trace in trace.state(31_500, .suspended) }
        #expect(Self.warnings(analysis) == [31_500])
        #expect(analysis.violations.first?.message.hasPrefix(
            "The system expired background task 7 (\"upload\") at +31.000 s and the app had not ended it when it was "
                + "suspended at +31.500 s; expected its expiration handler to end it within 1.000 s of the expiry") == true)
        #expect(analysis.violations.first?.events.map(\.type) == [.bgtaskExpire, .state])
    }

    @Test func endedLateIsAWarningWhenTheGraceRanOut() {
        let analysis = Self.expired { trace in
            trace.add(34_000, .bgtaskEnd(id: 7, name: trace.symbol("upload")))
            trace.state(34_500, .suspended)
        }
        #expect(Self.warnings(analysis) == [32_000])
        #expect(analysis.violations.first?.message.contains("and the app ended it only at +34.000 s;") == true)
    }

    @Test func notEndedWhenTheProcessEndsIsAWarning() {
        let killed = Self.expired { trace in trace.exit(31_300, signal: 9) }
        #expect(Self.warnings(killed) == [31_300])
        #expect(killed.violations.first?.message.contains("had not ended it when the process ended at +31.300 s") == true)
    }

    @Test func aTraceThatStopsWithinTheGraceIsNotJudged() {
        let cut = Self.expired { trace in trace.mark(31_400, "last") }
        #expect(Self.warnings(cut) == [])
        let stopped = Self.expired { trace in trace.mark(33_000, "last") }
        #expect(Self.warnings(stopped) == [32_000])
        #expect(stopped.violations.first?.message.contains("by the end of the trace at +33.000 s") == true)
    }
}
