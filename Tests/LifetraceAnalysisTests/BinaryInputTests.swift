import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd
import LifetraceTestSupport
import Testing

/// `check` reads binary traces as well as JSONL, with the same result.
struct BinaryInputTests {
    @Test("a sample written as a binary trace gives the same analysis", arguments: ["launch-stall", "unexpected-exit", "scene-connection"])
    func sameAsJSONL(rule: String) throws {
        let name = "\(rule).fail.jsonl"
        let (events, symbols) = try SampleTraces.load(name)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-\(rule)-\(getpid()).ltrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceWriter(path: path, metadata: TraceMetadata([("app", "com.example.sample")]))
        for event in events { try writer.append(event, symbols: symbols) }
        try writer.close()

        let binary = try LifecycleAnalyzer.analyze(path: path, options: AnalysisOptions(), prefetch: true)
        let text = try SampleTraces.analyze(name)
        #expect(binary.eventCount == text.eventCount)
        #expect(binary.violations.map(\.rule) == [Rule(id: rule)!])
        #expect(binary.violations.map(\.message) == text.violations.map(\.message))
        #expect(binary.lifetimes == text.lifetimes)
    }
}
