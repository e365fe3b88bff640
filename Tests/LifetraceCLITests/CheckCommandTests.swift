import LifetraceAnalysis
import LifetraceReports
import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace check`, `report` and `replay` end to end: the built executable, exit codes, errors.
struct CheckCommandTests {
    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    static func sample(_ name: String) -> String { SampleTraces.path(name) }

    @Test("help lists the options")
    func help() throws {
        let result = try Self.run(["check", "--help"])
        #expect(result.status == 0)
        for option in [
            "--format <format>", "--stall-threshold", "--launch-watchdog", "--background-limit", "--hang-threshold",
            "--background-callback-limit", "--only <rule>", "--disable <rule>", "--strict",
        ] {
            #expect(result.output.contains(option), "\(option)")
        }
        #expect(result.output.contains("violation, 1 when one has (or a warning, with --strict), 2 for bad input or\nusage"))
    }

    @Test("every command's help states its exit codes")
    func helpStatesExitCodes() throws {
        let commands = ["import", "dump", "info", "synth", "record", "check", "report", "diff", "replay", "export", "recover"]
        for command in [[]] + commands.map({ [$0] }) {
            let result = try Self.run(command + ["--help"])
            #expect(result.status == 0)
            let text = result.output.replacingOccurrences(of: "\n", with: " ")
            #expect(text.contains("Exit status") || text.contains("Exit codes"), "\(command)")
            #expect(text.contains(" 2 "), "\(command)")
        }
    }

    @Test("exit 0 when clean, 1 on an error, warnings only with --strict")
    func exitStatus() throws {
        #expect(try Self.run(["check", Self.sample("launch-stall.pass.jsonl")]).status == 0)
        #expect(try Self.run(["check", Self.sample("launch-stall.fail.jsonl")]).status == 1)
        #expect(try Self.run(["check", Self.sample("unexpected-exit.fail.jsonl")]).status == 0)
        #expect(try Self.run(["check", "--strict", Self.sample("unexpected-exit.fail.jsonl")]).status == 1)
        #expect(try Self.run(["check", "--disable", "launch-stall", Self.sample("launch-stall.fail.jsonl")]).status == 0)
        #expect(try Self.run(["check", "--only", "time-order", Self.sample("launch-stall.fail.jsonl")]).status == 0)
        #expect(try Self.run(["check", "--stall-threshold", "500ms", Self.sample("launch-stall.fail.jsonl")]).status == 0)
        // Minutes, as a scenario file writes them.
        #expect(try Self.run(["check", "--stall-threshold", "2m", Self.sample("launch-stall.fail.jsonl")]).status == 0)
        #expect(try Self.run(["check", "--stall-threshold", "0.1s", Self.sample("launch-stall.fail.jsonl")]).status == 1)
        #expect(try Self.run(["check", "--strict", Self.sample("hang.fail.jsonl")]).status == 1)
        #expect(try Self.run(["check", "--strict", "--hang-threshold", "500ms", Self.sample("hang.fail.jsonl")]).status == 0)
        #expect(try Self.run(["check", Self.sample("background-callback.fail.jsonl")]).status == 1)
        #expect(try Self.run(["check", "--background-callback-limit", "7s", Self.sample("background-callback.fail.jsonl")]).status == 0)
        #expect(try Self.run(["check", "--hang-threshold", "soon", Self.sample("hang.fail.jsonl")]).status == 2)
    }

    @Test("--list-rules lists every rule with its severity, when it is violated and its source")
    func listRules() throws {
        let result = try Self.run(["--list-rules"])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == Rule.allCases.count * 2 + 1)
        #expect(result.output.hasPrefix("no-terminate-while-suspended (error): willTerminate is delivered"))
        #expect(result.output.contains("""
            hang (warning): a main-thread stall at or above the hang threshold starts after launch while \
            the app is in the foreground (even if the user leaves during it), or as it returns there
                source: Apple, App Programming Guide for iOS: The App Life Cycle, "Threads and Concurrency"
            """))
        #expect(result.output.contains("""
            background-callback (error): didEnterBackground, sceneDidEnterBackground or willTerminate runs \
            longer than the background callback limit, or the main thread stays busy that long after the app \
            left the foreground
                source: Apple, UIApplicationDelegate: applicationDidEnterBackground(_:), Discussion
            """))
        #expect(result.output.contains("    source: Apple, Managing your app's life cycle, \"Respond to scene-based life-cycle events\" (quoted in translation)"))
        #expect(!result.output.contains("seed"))
    }

    @Test("a directory is searched for traces")
    func directory() throws {
        let result = try Self.run(["check", SampleTraces.directory.path])
        #expect(result.status == 1)
        #expect(result.output.hasSuffix("36 traces checked, 15 failed: 15 errors, 3 warnings\n"))
    }

    @Test("several traces: results and input errors in the order given, whatever finishes first")
    func severalTraces() throws {
        let directory = NSTemporaryDirectory() + "lifetrace-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broken = directory + "/broken.jsonl"
        try Data("{\"ts\": 1, \"type\": \"launch\"}\n{\"ts\": oops}\n".utf8).write(to: URL(fileURLWithPath: broken))
        let empty = directory + "/empty.ltrace"
        try Data().write(to: URL(fileURLWithPath: empty))
        let names = ["launch-stall.fail.jsonl", "launch-stall.pass.jsonl", "unexpected-exit.fail.jsonl"]
        let result = try Self.run(["check", Self.sample(names[0]), broken, Self.sample(names[1]), empty, Self.sample(names[2])])
        #expect(result.status == 2)
        let errors = result.error.split(separator: "\n")
        #expect(errors.count == 2)
        #expect(errors.first?.contains("broken.jsonl:2:") == true)
        #expect(errors.last?.contains("empty.ltrace") == true)
        // Each trace's verdict line, in the order the paths were given.
        let verdicts = result.output.split(separator: "\n").compactMap { line in names.firstIndex { line.hasPrefix(Self.sample($0) + ":") } }
        #expect(verdicts == [0, 1, 2])
        #expect(result.output.hasSuffix("3 traces checked, 1 failed: 1 error, 1 warning; 2 traces could not be read\n"))
    }

    @Test("junit and github list a trace that could not be read; github points at the event's line")
    func gatesListUnreadableTraces() throws {
        let directory = NSTemporaryDirectory() + "lifetrace-gates-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let broken = directory + "/broken.jsonl"
        try Data("{\"ts\": 1, \"type\": \"launch\"}\n{\"ts\": 2, \"type\": \"mark\", \"nmae\": \"x\"}\n".utf8)
            .write(to: URL(fileURLWithPath: broken))
        let junit = try Self.run(["check", "--format", "junit", Self.sample("launch-stall.pass.jsonl"), broken])
        #expect(junit.status == 2)
        #expect(junit.output.contains("errors=\"1\""))
        #expect(junit.output.contains("""
            hostname="\(JUnitReport.machineName)" tests="1" failures="0" errors="1" time="0.000000">
                <properties>
                </properties>
                <testcase classname="\(broken)" name="read" time="0.000000">
                  <error type="unknownField" message="\(broken):2:27: unknown field &quot;nmae&quot; for type &quot;mark&quot;">
            """))
        let github = try Self.run(["check", "--format", "github", Self.sample("resign-before-background.fail.jsonl"), broken])
        #expect(github.status == 2)
        let lines = github.output.split(separator: "\n")
        #expect(lines.count == 2)
        // No file= (a trace is not source in the pull request): the rule, the trace and the
        // line are in the title. The unreadable trace comes first, the most severe.
        #expect(lines.first == "::error title=unreadable trace \(broken) line 2 column 27::\(broken):2:27: unknown field \"nmae\" for type \"mark\"")
        // The offending didEnterBackground is on line 7 of the sample (a callback shorthand).
        #expect(lines.last?.hasPrefix("::error title=resign-before-background in \(Self.sample("resign-before-background.fail.jsonl")) line 7::") == true)
        // The witness is the callback.end: its own line, or the shorthand's that it came from.
        let ended = try Self.run(["check", "--format", "github", Self.sample("background-callback.fail.jsonl")])
        #expect(ended.output.contains("::error title=background-callback in \(Self.sample("background-callback.fail.jsonl")) line 11::"), "\(ended.output)")
        let shorthand = directory + "/shorthand.jsonl"
        try Data("""
            {"ts":0,"type":"launch","reason":"user"}
            {"ts":1000000,"type":"callback","name":"willFinishLaunching","dur":5000000}
            {"ts":10000000,"type":"callback","name":"didFinishLaunching","dur":40000000}
            {"ts":60000000,"type":"callback","name":"didBecomeActive","dur":2000000}
            {"ts":1000000000,"type":"callback","name":"willResignActive","dur":1000000}
            {"ts":1005000000,"type":"callback","name":"didEnterBackground","dur":6000000000}
            {"ts":9000000000,"type":"mark","name":"later"}

            """.utf8).write(to: URL(fileURLWithPath: shorthand))
        let fromShorthand = try Self.run(["check", "--format", "github", shorthand])
        #expect(fromShorthand.output.contains("::error title=background-callback in \(shorthand) line 6::"), "\(fromShorthand.output)")
    }

    @Test("bad input and usage exit 2 with one line on stderr")
    func badInput() throws {
        let missing = try Self.run(["check", "/nonexistent/trace.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.error == "lifetrace: /nonexistent/trace.jsonl: no such file or directory\n")
        let duration = try Self.run(["check", "--launch-watchdog", "soon", Self.sample("launch-stall.pass.jsonl")])
        #expect(duration.status == 2)
        #expect(duration.error == "lifetrace: The value 'soon' is invalid for '--launch-watchdog <duration>': "
            + "it has no unit (write a number and a unit: 250ms, 1.5s, 20s)\n")
        let from = try Self.run(["replay", "--from", "1.2.3s", Self.sample("launch-stall.pass.jsonl")])
        #expect(from.status == 2)
        #expect(from.error == "lifetrace: The value '1.2.3s' is invalid for '--from <from>': "
            + "\"1.2.3\" is not a non-negative number (write a number and a unit: 250ms, 1.5s, 20s)\n")
        let rule = try Self.run(["check", "--only", "no-such-rule", Self.sample("launch-stall.pass.jsonl")])
        #expect(rule.status == 2)
        #expect(rule.error.contains("unknown rule \"no-such-rule\""))
    }

    @Test("report and replay")
    func reportAndReplay() throws {
        let report = try Self.run(["report", "--format", "markdown", Self.sample("launch-stall.fail.jsonl")])
        #expect(report.status == 0)
        #expect(report.output.contains("### Stalls (>= 250 ms)"))
        let replay = try Self.run(["replay", "--from", "1s", "--to", "1.1s", Self.sample("silent-while-suspended.fail.jsonl")])
        #expect(replay.status == 0)
        let lines = replay.output.split(separator: "\n")
        #expect(lines.first == "time since the trace's first event (as --from and --to take it), event, views")
        #expect(lines.dropFirst().first?.hasPrefix("    +1.000 s  state to=inactive") == true)
        // The times are printed the way --from takes them.
        let printed = try Self.run(["replay", "--from", "+1.000 s", "--to", "+1.100 s", Self.sample("silent-while-suspended.fail.jsonl")])
        #expect(printed.status == 0)
        #expect(printed.output == replay.output)
        #expect(lines.last?.hasPrefix("    +1.100 s  state to=suspended") == true)
    }
}
