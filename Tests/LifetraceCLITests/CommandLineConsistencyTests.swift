import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// What every command shares, end to end through the built executable: one spelling per option,
/// one exit status per kind of failure, the configuration file, and the schema version of every
/// JSON document.
@Suite("the command line is the same in every command")
struct CommandLineConsistencyTests {
    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    static let fail = SampleTraces.path("launch-stall.fail.jsonl")
    static let hang = SampleTraces.path("hang.fail.jsonl")
    static let runs = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("launches").path

    /// Writes `text` as a configuration file in a new directory and returns its path.
    static func configuration(_ text: String) throws -> String {
        let path = try ScratchDirectory.make("config") + "/.lifetrace.yml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("lifetrace alone prints its help on standard error and exits 2")
    func bare() throws {
        let result = try Self.run([])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("OVERVIEW: Record, inspect and analyse traces"))
        #expect(result.error.contains("SUBCOMMANDS:"))
    }

    @Test("export takes --format like every other command, and --to as before")
    func exportFormat() throws {
        let directory = try ScratchDirectory.make("spelling")
        let new = try Self.run(["export", Self.fail, "--format", "chrome-json", "-o", directory + "/new.json"])
        let old = try Self.run(["export", Self.fail, "--to", "chrome-json", "-o", directory + "/old.json"])
        #expect(new.status == 0 && old.status == 0, "\(new.error) \(old.error)")
        #expect(FileManager.default.contents(atPath: directory + "/new.json") == FileManager.default.contents(atPath: directory + "/old.json"))
        let both = try Self.run(["export", Self.fail, "--to", "ctf", "--format", "ctf", "-o", directory + "/x"])
        #expect(both.status == 2)
        #expect(both.error == "lifetrace: give the format once, with --format\n")
        let none = try Self.run(["export", Self.fail, "-o", directory + "/x"])
        #expect(none.status == 2)
        #expect(none.error == "lifetrace: give the output format with --format: perfetto, chrome-json, ctf or folded\n")
        let ctf = try Self.run(["export", Self.fail, "--format", "ctf", "-o", "-"])
        #expect(ctf.error == "lifetrace: --format ctf writes a directory: give one with -o\n")
    }

    @Test("an output that cannot be written exits 7 in every command that writes one")
    func unwritableOutput() throws {
        let missing = "/nonexistent/dir/out"
        let commands: [[String]] = [
            ["import", Self.fail, "-o", missing], ["dump", Self.fail, "-o", missing], ["synth", "--events", "100", "-o", missing],
            ["report", Self.fail, "-o", missing], ["report", Self.fail, "--format", "json", "-o", missing],
            ["report", Self.runs, "--format", "ndjson", "-o", missing], ["export", Self.fail, "--format", "perfetto", "-o", missing],
        ]
        for command in commands {
            let result = try Self.run(command)
            #expect(result.status == 7, "\(command): \(result.error)")
            #expect(result.error.contains(missing), "\(command): \(result.error)")
            #expect(result.error.split(separator: "\n").count == 1, "\(command): \(result.error)")
        }
        // Bad input stays 2 in the same commands.
        #expect(try Self.run(["import", "/nonexistent/in.jsonl", "-o", try ScratchDirectory.make("in") + "/x"]).status == 2)
        #expect(try Self.run(["export", "/nonexistent/in.jsonl", "--format", "perfetto", "-o", "/dev/null"]).status == 2)
    }

    @Test("check --list-rules lists the built-in rules and the rule files' rules; lifetrace --list-rules still works")
    func listRules() throws {
        let check = try Self.run(["check", "--list-rules"])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output.hasPrefix("no-terminate-while-suspended (error): "))
        #expect(try Self.run(["--list-rules"]).output == check.output)
        let rules = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("rules/team.yml").path
        let withFile = try Self.run(["check", "--list-rules", "--rules", rules])
        #expect(withFile.output.hasPrefix(check.output))
        #expect(withFile.output.contains("save-state-before-suspension (error): "))
        #expect(withFile.output.contains("    source: \(rules):5\n"))
        let none = try Self.run(["check"])
        #expect(none.status == 2)
        #expect(none.error == "lifetrace: give the traces to check: files, or directories of traces\n")
    }

    @Test("synth writes to standard output without -o, the same bytes as with -o -")
    func synthToStandardOutput() throws {
        let jsonl = try Self.run(["synth", "--events", "100", "--format", "jsonl"])
        #expect(jsonl.status == 0)
        #expect(jsonl.output == (try Self.run(["synth", "--events", "100", "--format", "jsonl", "-o", "-"])).output)
        #expect(jsonl.output.split(separator: "\n").count == 101)
        let path = try ScratchDirectory.make("synth") + "/out.ltrace"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let binary = try ChildProcess.run(
            LifetraceCommand.path, ["synth", "--events", "100"], output: try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
        #expect(binary.status == 0)
        #expect(BinaryTraceFormat.isBinaryTrace(prefix: try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(try Self.run(["info", path]).output.contains("events:     100"))
    }

    /// `text` with every run of spaces and line breaks made one space, as help reads once unwrapped.
    static func unwrapped(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    @Test("synth refuses to write a binary trace to a terminal, with one line and exit 2")
    func synthToTerminal() throws {
        // `script` runs the command with a pseudo-terminal as its standard output.
        let script = try #require(ChildProcess.onPath("script"))
        let result = try ChildProcess.run(script, ["-qec", "'\(LifetraceCommand.path)' synth --events 100", "/dev/null"])
        #expect(result.status == 2)
        #expect(result.output.contains("lifetrace: standard output is a terminal, and a binary trace is not text"), "\(result.output)")
        let jsonl = try ChildProcess.run(script, ["-qec", "'\(LifetraceCommand.path)' synth --events 100 --format jsonl", "/dev/null"])
        #expect(jsonl.status == 0)
        #expect(jsonl.output.contains("\"type\":\"meta\""))
    }

    @Test("check's help promises no launch budget; diff's does")
    func helpMatchesWhatCommandsDo() throws {
        var check = try Self.run(["check", "--help"])
        check.output = Self.unwrapped(check.output)
        #expect(!check.output.contains("budget"))
        #expect(check.output.contains("--list-rules"))
        #expect(check.output.contains("--config <file>"))
        #expect(check.output.contains("(values: text, json, junit, github"))
        #expect(try Self.run(["diff", "--help"]).output.contains("--budget"))
        let report = Self.unwrapped(try Self.run(["report", "--help"]).output)
        #expect(report.contains("(values: text, json, markdown, html, ndjson; default: text)"))
        // The defaults come from the analysis options, written as the tool prints durations.
        #expect(check.output.contains("(default: 250 ms, 400 ms in the launch window)"))
    }

    @Test("every JSON document carries its schema version")
    func schemaVersions() throws {
        for command in [["check", "--format", "json", Self.fail], ["report", "--format", "json", Self.fail], ["report", "--format", "json", Self.runs]] {
            let result = try Self.run(command)
            let document = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            #expect(document?["schema"] as? Int == 1, "\(command)")
        }
        let baseline = Self.runs + "/baseline", candidate = Self.runs + "/candidate"
        let diff = try Self.run(["diff", "--format", "json", baseline, "--", candidate])
        let document = try JSONSerialization.jsonObject(with: Data(diff.output.utf8)) as? [String: Any]
        #expect(document?["schema"] as? Int == 1)
    }

    @Test("the configuration file sets thresholds and rule selection; the command line wins; --no-config ignores it")
    func configurationFile() throws {
        // The hang sample fails with --strict at the default hang threshold, and passes at 500 ms.
        let config = try Self.configuration("hang-threshold: 500ms\nstrict: true\n")
        #expect(try Self.run(["check", "--strict", Self.hang]).status == 1)
        #expect(try Self.run(["check", "--config", config, Self.hang]).status == 0)
        #expect(try Self.run(["check", "--config", config, "--hang-threshold", "250ms", Self.hang]).status == 1)
        #expect(try Self.run(["check", "--config", config, "--no-strict", "--hang-threshold", "250ms", Self.hang]).status == 0)
        let disable = try Self.configuration("disable: [launch-stall]\n")
        #expect(try Self.run(["check", "--config", disable, Self.fail]).status == 0)
        #expect(try Self.run(["check", "--config", disable, "--disable", "hang", Self.fail]).status == 1)
        #expect(try Self.run(["check", "--config", disable, "--no-config", Self.fail]).status == 2)
        // Found from the working directory upward.
        let directory = (disable as NSString).deletingLastPathComponent + "/a/b"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let found = try ChildProcess.run("/bin/sh", ["-c", "cd '\(directory)' && '\(LifetraceCommand.path)' check '\(Self.fail)'"])
        #expect(found.status == 0, "\(found.output) \(found.error)")
        let ignored = try ChildProcess.run("/bin/sh", ["-c", "cd '\(directory)' && '\(LifetraceCommand.path)' check --no-config '\(Self.fail)'"])
        #expect(ignored.status == 1)
    }

    @Test("a bad configuration value is one line naming the file, line and column, exit 2", arguments: [
        ("hang-threshold: fast\n", "1:17: `hang-threshold`: invalid duration \"fast\": it has no unit"),
        ("strict: yes please\n", "1:9: `strict` must be true or false, not \"yes please\""),
        ("hang-threshhold: 1s\n", "1:1: unknown key `hang-threshhold`; the keys are `stall-threshold`"),
        ("only:\n  - launch-stall\n  - no-such-rule\n", "3:5: unknown rule \"no-such-rule\"; the rules are: "),
        ("budget:\n  launch.cold.p50: soon\n", "2:20: launch.cold.p50: invalid duration \"soon\""),
        ("alpha: 2\n", "1:8: `alpha` \"2\": it must be a number between 0 and 1, such as 0.05"),
        ("rules: [a: b]\n", "1:9: every entry of `rules` must be a single value"),
        ("hang-threshold: [1s\n", ": not YAML: "),
    ])
    func badConfiguration(text: String, expected: String) throws {
        let config = try Self.configuration(text)
        let result = try Self.run(["check", "--config", config, Self.fail])
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("lifetrace: \(config):"), "\(result.error)")
        #expect(result.error.contains(expected), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test("every rule option is spelled as its spec names it, on the command line and in the configuration file")
    func ruleOptionsFromTheSpecs() throws {
        let names = Set(BuiltInRule.allCases.flatMap { $0.options.map(\.name) })
        #expect(!names.isEmpty)
        let help = try Self.run(["check", "--help"])
        let pass = SampleTraces.path("hang.pass.jsonl")
        for name in names.sorted() {
            #expect(help.output.contains("--\(name) <duration>"), "--\(name) in check's help")
            let given = try Self.run(["check", "--\(name)", "2s", pass])
            #expect(given.status == 0, "--\(name): \(given.error)")
            let config = try Self.configuration("\(name): 2s\n")
            let configured = try Self.run(["check", "--config", config, pass])
            #expect(configured.status == 0, "\(name): in the configuration file: \(configured.error)")
            #expect(configured.output.contains("\(name) 2 s instead of"), "\(name): \(configured.output)")
        }
    }

    @Test("a missing --config file is bad usage")
    func missingConfiguration() throws {
        let result = try Self.run(["report", "--config", "/nonexistent/.lifetrace.yml", Self.fail])
        #expect(result.status == 2)
        #expect(result.error == "lifetrace: /nonexistent/.lifetrace.yml: no such configuration file\n")
    }

    @Test("diff reads its gate from the configuration file")
    func diffConfiguration() throws {
        let baseline = Self.runs + "/baseline", candidate = Self.runs + "/candidate"
        #expect(try Self.run(["diff", "--no-config", "--allow-more-violations", baseline, "--", candidate]).status == 0)
        let config = try Self.configuration("allow-more-violations: true\nbudget:\n  launch.cold.p50: 1ms\n")
        let result = try Self.run(["diff", "--config", config, baseline, "--", candidate])
        #expect(result.status == 1)
        #expect(result.output.contains("FAIL launch.cold.p50 <= 1 ms"), "\(result.output)")
        #expect(try Self.run(["diff", "--config", config, "--budget", "launch.cold.p50=10s", baseline, "--", candidate]).status == 0)
    }
}
