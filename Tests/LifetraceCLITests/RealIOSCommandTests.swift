import Foundation
import LifetraceTestSupport
import Testing

/// `--textbook` on the analysis commands: the allowances for real iOS are on by default, and the
/// flag brings back the textbook's violations.
struct RealIOSCommandTests {
    static func real(_ name: String) -> String {
        SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("real/\(name)").path
    }

    @Test("check passes a quick minimise, and --textbook reports it under legal-transition")
    func checkTextbook() throws {
        let file = Self.real("quick-minimise.jsonl")
        #expect(try LifetraceCommand.run(["check", file]).status == 0)
        let strict = try LifetraceCommand.run(["check", "--textbook", file])
        #expect(strict.status == 1)
        #expect(strict.output.contains("error[legal-transition]"))
    }

    @Test("report, replay and export take --textbook too")
    func everyAnalysisCommand() throws {
        let file = Self.real("double-activation-ios12.jsonl")
        let report = try LifetraceCommand.run(["report", "--textbook", file])
        #expect(report.status == 0)
        #expect(!report.output.contains("Violations: none"), "\(report.output)")
        #expect(try LifetraceCommand.run(["report", file]).output.contains("Violations: none"))
        let replay = try LifetraceCommand.run(["replay", "--textbook", file])
        #expect(replay.output.contains("error[balanced-activation]"), "\(replay.output)")
        #expect(!(try LifetraceCommand.run(["replay", file]).output.contains("error[balanced-activation]")))
        for command in ["check", "report", "replay", "export"] {
            #expect(try LifetraceCommand.run([command, "--help"]).output.contains("--textbook"), "\(command)")
        }
    }

    @Test("the report shows a prewarm apart and an abandoned launch as abandoned")
    func reportShowsPrewarmAndAbandonment() throws {
        let prewarm = try LifetraceCommand.run(["report", Self.real("prewarm-through-didfinish.jsonl")])
        #expect(prewarm.output.contains("Prewarm"), "\(prewarm.output)")
        #expect(prewarm.output.contains("the launch is timed from the resume"))
        let abandoned = try LifetraceCommand.run(["report", Self.real("abandoned-launch.jsonl")])
        #expect(abandoned.output.contains("(abandoned)"), "\(abandoned.output)")
        let json = try LifetraceCommand.run(["check", "--format", "json", Self.real("prewarm-state-events.jsonl")])
        #expect(json.output.contains("\"resumeFoundBy\": \"state\""), "\(json.output)")
    }

    @Test("a stall threshold given applies in the launch window; the default there is 400 ms")
    func launchBudget() throws {
        let file = Self.real("launch-budget-355ms-turn.jsonl")
        #expect(try LifetraceCommand.run(["check", file]).status == 0)
        #expect(try LifetraceCommand.run(["check", "--stall-threshold", "300ms", file]).status == 1)
    }
}
