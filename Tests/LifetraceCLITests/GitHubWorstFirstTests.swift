import Foundation
import LifetraceTestSupport
import Testing

/// `check --format github` annotates the worst violations first, whatever trace they are in.
@Suite struct GitHubWorstFirstTests {
    /// `876 ms`, `2.600 s`, `840 µs` in nanoseconds.
    static func nanoseconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let value = Double(parts[0]) else { return nil }
        let scale: [Substring: Double] = ["ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9]
        return scale[parts[1]].map { value * $0 }
    }

    @Test func hangWarningsAreRankedByDurationAcrossTraces() throws {
        let directory = NSTemporaryDirectory() + "lifetrace-worst-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Seed 35's 533 ms hang is longer than the later hangs of seed 01 and seed 02's only one.
        for seed in ["01", "02", "35"] {
            let made = try LifetraceCommand.run(["synth", "--events", "20000", "--seed", seed, "-o", "\(directory)/seed-\(seed).ltrace"])
            #expect(made.status == 0, "\(made.error)")
        }
        let result = try LifetraceCommand.run(["check", "--only", "hang", "--format", "github", directory])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("::warning title=hang in ") }
        let durations = lines.compactMap { line -> Double? in
            guard let start = line.range(of: "busy for ")?.upperBound, let end = line[start...].range(of: " from ")?.lowerBound
            else { return nil }
            return Self.nanoseconds(line[start..<end])
        }
        #expect(durations.count == lines.count)
        #expect(durations.count >= 4)
        #expect(durations == durations.sorted(by: >), "\(lines)")
        // Not the traces' order: a later trace's hang comes before an earlier trace's.
        let traces = lines.map { $0.contains("seed-35") ? 35 : $0.contains("seed-02") ? 2 : 1 }
        #expect(traces != traces.sorted())
        // The same output on every run.
        let again = try LifetraceCommand.run(["check", "--only", "hang", "--format", "github", directory])
        #expect(again.output == result.output)
    }
}
