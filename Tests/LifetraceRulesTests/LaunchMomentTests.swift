import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRules
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// A rule file's `launch` scope, and `max-duration` of `launch`, start at the analyzer's launch
/// moment: for a prewarmed launch the resume of the user's launch, as every report counts it
/// (docs/LIFECYCLE.md, `prewarm-resume`), not the prewarm.
struct LaunchMomentTests {
    typealias T = RuleTrace

    /// What a team writes about its launch: no stall, no long didFinishLaunching, a short launch.
    static let launchRules = """
        rules:
          - id: no-stall-in-launch
            scope: launch
            never: stall
          - id: short-did-finish
            scope: launch
            max-duration: {of: callback didFinishLaunching, limit: 300ms}
          - id: launch-within-1s
            max-duration: {of: launch, limit: 1s}
        """

    /// The violations of `yaml` on the sample `name` under `Samples/real/`, as `id@ms`.
    static func check(_ yaml: String, sample name: String, textbook: Bool = false) throws -> [String] {
        let path = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("real/\(name)").path
        var options = AnalysisOptions(stallThreshold: 250_000_000, rules: RuleSet())
        options.userRules = UserRules(try RuleFileParser.parse(yaml: yaml, file: "team.yml"))
        options.textbook = textbook
        var source = try TraceInputs.open(path: path)
        return try LifecycleAnalyzer.analyze(&source, path: path, options: options).violations.map {
            "\($0.rule.id)@\($0.timestamp / 1_000_000)"
        }
    }

    @Test func thePrewarmIsNotTheLaunch() throws {
        // The prewarm runs didFinishLaunching (450 ms, a stall), pauses two hours, then the user opens the app.
        #expect(try Self.check(Self.launchRules, sample: "prewarm-through-didfinish.jsonl") == [])
        #expect(try Self.check(Self.launchRules, sample: "prewarm-through-didfinish-suspended-record.jsonl") == [])
        // Resumed by a `state` event: didFinishLaunching came in the prewarm, before it.
        let noDidFinish = T.rule("never: callback didFinishLaunching", scope: "launch")
        #expect(try Self.check(noDidFinish, sample: "prewarm-state-events.jsonl") == [])
        // The textbook model has no prewarm: its launch is the `launch` event.
        #expect(try Self.check(noDidFinish, sample: "prewarm-state-events.jsonl", textbook: true) == ["r@10"])
        #expect(try Self.check(Self.launchRules, sample: "prewarm-through-didfinish.jsonl", textbook: true)
            == ["no-stall-in-launch@10", "short-did-finish@310", "launch-within-1s@1000"])
    }

    @Test func theUsersLaunchIsStillJudged() throws {
        // A 600 ms stall in didBecomeActive after the resume at 1800 s.
        #expect(try Self.check(Self.launchRules, sample: "prewarm-stall-after-resume.control.jsonl") == ["no-stall-in-launch@1800000"])
        // The user's launch, from its resume at 900 s to its first frame, took 25 s.
        #expect(try Self.check(Self.launchRules, sample: "prewarm-slow-user-launch.control.jsonl") == ["launch-within-1s@901000"])
    }

    @Test func theStretchAndTheIntervalStartAtTheResume() throws {
        let analysis = try T.analyze(T.rule("never: stall", scope: "launch"), Self.prewarmed(pauses: [5_000], stallAt: 5_001))
        let message = analysis.violations.first?.message ?? ""
        #expect(message.contains("in the launch window from +5.000 s"), "\(message)")
        // Counted from the resume, as the analyzer counts every time in the lifetime.
        #expect(analysis.violations.first?.sinceLaunch == 1_000_000)
        let long = try T.analyze(
            "rules:\n  - id: r\n    max-duration: {of: launch, limit: 10ms}\n", Self.prewarmed(pauses: [5_000], stallAt: nil))
        #expect(long.violations.map(\.timestamp) == [5_010_000_000])
        #expect(long.violations.first?.message.contains("launch from +5.000 s lasted 60 ms") == true)
    }

    @Test func theLastPauseBeforeTheForegroundWins() throws {
        let rule = T.rule("never: stall", scope: "launch")
        // Woken at 5 s for more prewarm work (a stall), paused again, opened at 10 s.
        #expect(try T.check(rule, Self.prewarmed(pauses: [5_000, 10_000], stallAt: 5_001)) == [])
        #expect(try T.check(rule, Self.prewarmed(pauses: [5_000, 10_000], stallAt: 10_001)) == ["r@10001"])
        // `require` is judged in the stretch from the last resume only.
        let require = T.rule("require: mark opened", scope: "launch")
        #expect(try T.check(require, Self.prewarmed(pauses: [5_000, 10_000], stallAt: nil, markAt: 10_002)) == [])
        #expect(try T.check(require, Self.prewarmed(pauses: [5_000, 10_000], stallAt: nil, markAt: 5_002)) == ["r@10060"])
    }

    @Test func aPrewarmWithoutAPauseIsTimedFromItsLaunch() throws {
        // No pause and no `state` event: the analyzer times the launch from the `launch` event,
        // and what was kept aside until the first move to the foreground is reported.
        let rule = T.rule("never: stall", scope: "launch")
        #expect(try T.check(rule, Self.prewarmed(pauses: [], stallAt: 60)) == ["r@60"])
        // And at the lifetime's end when the app never came to the foreground while its main
        // thread still worked (the user's launch may have begun without a pause).
        let stuck = [
            T.event("launch", 0, #""prewarm":true"#), T.event("callback.begin", 20, #""name":"didFinishLaunching""#),
            T.event("mark", 600, #""name":"progress","thread":2"#),
        ]
        #expect(try T.check(rule, stuck) == ["r@20"])
        // A prewarm that ended with its main thread idle was never opened: it had no launch to
        // judge, for the built-in rules and a rule file's `launch` alike (docs/LIFECYCLE.md,
        // `prewarm-resume`).
        let purged = [T.event("launch", 0, #""prewarm":true"#), T.event("callback", 20, #""name":"didFinishLaunching","dur":400000000"#)]
        #expect(try T.check(rule, purged) == [])
    }

    @Test func whatIsKeptAsideIsBounded() throws {
        // 1,100 long signposts in a prewarmed launch never paused: the first 1,024 are kept whole
        // until the launch moment settles, the rest counted, and all are reported.
        var lines = [T.event("launch", 0, #""prewarm":true"#)]
        for index in 0..<1_100 {
            let at = Int64(index) * 2
            lines.append(T.event("signpost.begin", at + 1, #""name":"load""#))
            lines.append(T.event("signpost.end", at + 2, #""name":"load""#))
        }
        lines.append(T.event("callback", 3_000, #""name":"didBecomeActive","dur":1000000"#))
        let analysis = try T.analyze(
            "rules:\n  - id: r\n    scope: launch\n    max-duration: {of: signpost load, limit: 0ns}\n", lines)
        #expect(analysis.violations.count + (analysis.omittedViolations.values.reduce(0, +)) == 1_100)
        #expect(analysis.violations.count == 1_000)
    }

    /// A prewarmed launch through didFinishLaunching, with app-side `pauses` (each the time the app
    /// wakes after one), a 300 ms main-thread stall at `stallAt`, a mark `opened` at `markAt`, then
    /// the user's activation and first frame 50 and 60 ms after the last pause (without one, at
    /// 1.050 s and 1.060 s).
    static func prewarmed(pauses: [Int64], stallAt: Int64?, markAt: Int64? = nil) -> [String] {
        var lines = [
            T.event("launch", 0, #""reason":"user","prewarm":true"#),
            T.event("callback", 1, #""name":"willFinishLaunching","dur":5000000"#),
            T.event("callback", 10, #""name":"didFinishLaunching","dur":40000000"#),
        ]
        var timed: [(Int64, String)] = pauses.map { ($0, T.mark($0, "woken")) }
        if let stallAt {
            timed.append((stallAt, T.event("runloop.wake", stallAt)))
            timed.append((stallAt + 300, T.event("runloop.sleep", stallAt + 300)))
        }
        if let markAt { timed.append((markAt, T.mark(markAt, "opened"))) }
        let opened = (pauses.last ?? 1_000) + 50
        timed.append((opened, T.event("callback", opened, #""name":"didBecomeActive","dur":2000000"#)))
        timed.append((opened + 10, T.event("frame", opened + 10, #""first":true"#)))
        lines += timed.sorted { $0.0 < $1.0 }.map(\.1)
        return lines
    }
}
