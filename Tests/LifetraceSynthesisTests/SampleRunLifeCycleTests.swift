import Foundation
import LifetraceFormat
import Testing

/// The sample runs under `Samples/runs/` follow the life cycle as strictly as synthesized traces.
struct SampleRunLifeCycleTests {
    static var paths: [String] {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/runs")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { directory.appendingPathComponent($0).path }
    }

    @Test(arguments: Self.paths)
    func samplesFollowTheLifeCycle(path: String) throws {
        var reader = try JSONLTraceReader(path: path)
        var check = LifeCycleCheck(symbols: reader.symbols)
        var count = 0
        while let event = try reader.next() {
            check = LifeCycleCheck(continuing: check, symbols: reader.symbols)
            check.observe(event)
            count += 1
        }
        #expect(check.problems == [])
        #expect(check.lifetimes == 1)
        #expect(count > 50)
        #expect(reader.metadata["app"] != nil)
    }

}
