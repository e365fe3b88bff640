import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The metadata an allowance reads is never taken against the events: a `recordingStart` later than
/// an event the app recorded is a problem of the trace, not a `late-recording` allowance; and an
/// allowance that did apply is named by the analysis (docs/LIFECYCLE.md, "Real iOS").
struct RecordingStartContradictionTests {
    /// A launch whose scene connection never returns: the main thread stuck 20 s in
    /// sceneWillConnect, no launch callback recorded, then the kill.
    static func stuckConnection() -> TraceBuilder {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.wake(200)
        trace.begin(210, "sceneWillConnect", scene: "main")
        trace.exit(20_150)
        return trace
    }

    static func analyze(recordingStart ms: Double, textbook: Bool = false) -> TraceAnalysis {
        let trace = stuckConnection()
        return LifecycleAnalyzer.analyze(
            trace.events, symbols: trace.symbols,
            metadata: TraceMetadata([("recordingStart", String(TraceBuilder.ns(ms)))]),
            options: AnalysisOptions(textbook: textbook))
    }

    @Test("a recordingStart after the app's first event is a problem of the trace, and the launch is judged")
    func contradictedRecordingStart() throws {
        let analysis = Self.analyze(recordingStart: 20_000)
        let problem = try #require(analysis.issues.first)
        #expect(analysis.issues.count == 1)
        #expect(problem.kind == .invalidValue)
        #expect(problem.message.contains("recordingStart (\(TraceBuilder.ns(20_000)) ns) is later than an event the app recorded (at \(TraceBuilder.ns(200)) ns)"))
        #expect(analysis.isIncomplete(strict: false))
        #expect(Set(analysis.violations.map(\.rule)) == [.launchWatchdog, .launchStall])
        #expect(analysis.allowancesUsed.isEmpty)
    }

    @Test("under --textbook the contradiction is a problem of the trace too")
    func contradictionUnderTextbook() {
        let analysis = Self.analyze(recordingStart: 20_000, textbook: true)
        #expect(analysis.issues.count == 1)
        #expect(analysis.isIncomplete(strict: false))
    }

    @Test("a recordingStart before the app's first event is the late-recording allowance, and it is named")
    func lateRecordingIsNamed() throws {
        let analysis = Self.analyze(recordingStart: 100)
        #expect(analysis.issues.isEmpty)
        #expect(analysis.violations.filter { $0.severity == .error }.isEmpty)
        #expect(analysis.allowancesUsed == [.lateRecording])
        let note = try #require(analysis.allowanceNote)
        #expect(analysis.capNotes.contains(note))
        #expect(note.contains("late-recording (sentry-cocoa SentryAppStartTracker"))
    }

    @Test("a recordingStart equal to the app's first event is no contradiction")
    func recordingStartAtFirstEvent() {
        let analysis = Self.analyze(recordingStart: 200)
        #expect(analysis.issues.isEmpty)
        #expect(analysis.allowancesUsed == [.lateRecording])
    }
}
