import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace diff` as a gate: noise from one generator passes, a real regression fails with
/// its shift and interval, a new error fails, new stalls are a finding.
@Suite struct DiffGateTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let baseline = root + "/Samples/launches/baseline"
    static let candidate = root + "/Samples/launches/candidate"

    /// Ten synthesized runs per side from one generator (seeds 1-10 and 11-20, 20,000 events
    /// each): two samples of the same distribution.
    static func sameGenerator() throws -> (baseline: String, candidate: String) {
        let directory = try ScratchDirectory.make("same-generator")
        for side in ["baseline", "candidate"] {
            try FileManager.default.createDirectory(atPath: directory + "/" + side, withIntermediateDirectories: true)
        }
        for seed in 1...20 {
            let side = seed <= 10 ? "baseline" : "candidate"
            let result = try LifetraceCommand.run([
                "synth", "--events", "20000", "--seed", "\(seed)", "-o", "\(directory)/\(side)/seed-\(seed).ltrace",
            ])
            #expect(result.status == 0, "\(result.error)")
        }
        return (directory + "/baseline", directory + "/candidate")
    }

    @Test("runs of one generator against runs of the same generator pass, with and without --max-regression")
    func sameGeneratorPasses() throws {
        let sides = try Self.sameGenerator()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: sides.baseline).deletingLastPathComponent().path) }
        let plain = try LifetraceCommand.run(["diff", sides.baseline, "--", sides.candidate])
        #expect(plain.status == 0, "\(plain.output)\(plain.error)")
        // The hang warnings rose from 2.1 to 2.8 per run: tested, and not significant.
        #expect(plain.output.contains("  hang  warning         21         28            2.1/2.8  0.1958    1.0000  more, not significant"))
        #expect(plain.output.contains("10 tests, Holm-adjusted"))
        // Without the correction launch.prewarmed (p 0.0274) would have been called worse.
        #expect(plain.output.contains("launch.prewarmed"))
        #expect(!plain.output.contains("worse (significant)"))
        let gated = try LifetraceCommand.run(["diff", "--max-regression", "10%", sides.baseline, "--", sides.candidate])
        #expect(gated.status == 0, "\(gated.output)")
        #expect(gated.output.contains("ok   launch.prewarmed median +10% at most: median +824.3%"))
        #expect(gated.output.contains("No regression over +10%, no more errors per run than the baseline"))
    }

    @Test("8 runs a side with 14 zeros of 16: the exact permutation p-value, and too few runs to tell said as such")
    func tiesInSmallSamplesAreExact() throws {
        let result = try LifetraceCommand.run(["diff", "--no-config", Self.baseline, "--", Self.candidate])
        #expect(result.output.contains(
            "stalls.count              8/8                0                 0       -                 0 [0, 0]  0.4667    0.9333          +0.25  "
                + "too few runs to tell (p 0.4667 at best)"), "\(result.output)")
        let json = try LifetraceCommand.run(["diff", "--no-config", "--format", "json", Self.baseline, "--", Self.candidate])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let stalls = try #require((document["metrics"] as? [[String: Any]])?.first { $0["metric"] as? String == "stalls.count" })
        #expect(abs((stalls["p"] as? Double ?? 0) - 0.4666666666666667) < 1e-9)
        #expect(stalls["method"] as? String == "exact")
        #expect(stalls["verdict"] as? String == "too few runs to tell (p 0.4667 at best)")
    }

    @Test("the slower launch against the normal one fails, printing the shift and its interval")
    func heavyLaunchFails() throws {
        let result = try LifetraceCommand.run(["diff", "--max-regression", "10%", Self.baseline, "--", Self.candidate])
        #expect(result.status == 1)
        #expect(result.output.contains(
            "FAIL launch.cold median +10% at most: median +16.4%, shift +45 ms [+29 ms, +64 ms], p 0.0003, 0.0012 after Holm"))
        #expect(result.output.contains(
            "FAIL launch.cold.busy median +10% at most: median +31.6%, shift +42 ms [+30 ms, +57 ms], p 0.0002, 0.0008 after Holm"))
        let json = try LifetraceCommand.run(["diff", "--max-regression", "10%", "--format", "json", Self.baseline, "--", Self.candidate])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(document["tests"] as? Int == 5)
        #expect(document["correction"] as? String == "holm")
        let metrics = try #require(document["metrics"] as? [[String: Any]])
        let cold = try #require(metrics.first { $0["metric"] as? String == "launch.cold" })
        let shift = try #require(cold["shift"] as? [String: Any])
        #expect(shift["estimate"] as? Int == 45_000_000)
        #expect(shift["low"] as? Int == 29_000_000)
        #expect(shift["high"] as? Int == 64_000_000)
    }

    @Test("stalls only the candidate has are a finding, not too few samples")
    func newStallsAreAFinding() throws {
        let result = try LifetraceCommand.run(["diff", Self.baseline, "--", Self.candidate])
        #expect(result.output.contains("stalls.duration           0/2                -            300 ms       -")
            && result.output.contains("new: only in the candidate"), "\(result.output)")
        #expect(!result.output.contains("too few samples"))
    }

    @Test("a new error-severity violation fails, even in one run against one")
    func newErrorFails() throws {
        let traces = Self.root + "/Samples/traces"
        let result = try LifetraceCommand.run(["diff", traces + "/launch-stall.pass.jsonl", "--", traces + "/launch-stall.fail.jsonl"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("more launch-stall (1 against 0, error)"), "\(result.output)")
        let allowed = try LifetraceCommand.run([
            "diff", "--allow-more-violations", traces + "/launch-stall.pass.jsonl", "--", traces + "/launch-stall.fail.jsonl",
        ])
        #expect(allowed.status == 0, "\(allowed.output)")
    }

    @Test("two hangs in eight runs against none is no significant rise in a warning")
    func fewNewWarningsPass() throws {
        let result = try LifetraceCommand.run(["diff", Self.baseline, "--", Self.candidate])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("  hang  warning          0          2             0/0.25  0.2500    0.7500  more, not significant"))
    }
}
