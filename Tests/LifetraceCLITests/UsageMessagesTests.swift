import Foundation
import LifetraceTestSupport
import Testing

@testable import LifetraceCLI

/// What a new user meets first, end to end: usage errors that say what is wrong, on one line,
/// naming file, line and column, with the documented exit status; SARIF locations as SARIF 2.1.0
/// writes them; diff's verdict saying what failed.
@Suite struct UsageMessagesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let pass = root + "/Samples/traces/hang.pass.jsonl"
    static let fail = root + "/Samples/traces/hang.fail.jsonl"
    static let baseline = root + "/Samples/launches/baseline"
    static let candidate = root + "/Samples/launches/candidate"

    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    /// Runs `lifetrace arguments` in `directory`.
    static func run(in directory: String, _ arguments: [String]) throws -> LifetraceCommand.Result {
        try ChildProcess.run("/usr/bin/env", ["-C", directory, LifetraceCommand.path] + arguments)
    }

    /// The one line on standard error, without the tool's name.
    static func message(_ result: LifetraceCommand.Result) -> String {
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)")
        return String(lines.first?.dropFirst("lifetrace: ".count) ?? "")
    }

    @Test("docs/REPORTS.md gives the exit status of an unwritable job summary as the code does: 7")
    func jobSummaryExitStatus() throws {
        let directory = try ScratchDirectory.make("summary-dir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A directory cannot be opened for writing as the summary.
        let result = try ChildProcess.run(
            LifetraceCommand.path, ["check", "--no-config", "--format", "github", Self.pass],
            environment: ["GITHUB_STEP_SUMMARY": directory])
        #expect(result.status == 7)
        let page = try String(contentsOfFile: Self.root + "/docs/REPORTS.md", encoding: .utf8)
        let sentence = page.components(separatedBy: "a summary file that cannot be written is exit status ")
        #expect(sentence.count == 2)
        #expect(sentence.last?.hasPrefix("7") == true)
    }

    @Test("a job summary that is a FIFO or a symbolic link is refused at once (exit 7), never waited on or written through")
    func jobSummaryNotARegularFile() throws {
        let directory = try ScratchDirectory.make("summary-odd")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo", target = directory + "/target", link = directory + "/link"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(FileManager.default.createFile(atPath: target, contents: Data("kept\n".utf8)))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        for summary in [fifo, link] {
            // Under `timeout`: a summary opened for a reader to come would hang (exit 124).
            let result = try ChildProcess.run(
                "/usr/bin/timeout", ["20", LifetraceCommand.path, "check", "--no-config", "--format", "github", Self.pass],
                environment: ["GITHUB_STEP_SUMMARY": summary])
            #expect(result.status == 7, "\(summary): \(result.error)")
            #expect(result.error.contains("$GITHUB_STEP_SUMMARY"), "\(result.error)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "kept\n")
    }

    @Test("a job summary that is a trace the check reads is refused before anything is read: the trace is kept as it was")
    func jobSummaryIsAnInput() throws {
        let directory = try ScratchDirectory.make("summary-input")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/run.jsonl"
        try FileManager.default.copyItem(atPath: Self.fail, toPath: trace)
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        for given in [trace, directory] {
            let result = try ChildProcess.run(
                LifetraceCommand.path, ["check", "--no-config", "--format", "github", given], environment: ["GITHUB_STEP_SUMMARY": trace])
            #expect(result.status == 2)
            #expect(result.output.isEmpty)
            #expect(Self.message(result) == "\(trace): the job summary ($GITHUB_STEP_SUMMARY) is a trace this check reads (\(trace)); "
                + "the summary would be appended into it: give the job summary its own file")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
    }

    @Test("a key given twice in the configuration file is named where it is given again, in backticks")
    func duplicateKey() throws {
        #expect(throws: ConfigurationError(file: "c.yml", line: 3, column: 1, "`hang-threshold` is given twice")) {
            try ProjectConfiguration.parse(yaml: "hang-threshold: 1s\n# again\nhang-threshold: 2s\n", file: "c.yml")
        }
        #expect(throws: ConfigurationError(file: "c.yml", line: 3, column: 3, "`launch.cold.p50` is given twice")) {
            try ProjectConfiguration.parse(yaml: "budget:\n  launch.cold.p50: 1s\n  launch.cold.p50: 2s\n", file: "c.yml")
        }
        let directory = try ScratchDirectory.make("duplicate-key")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "hang-threshold: 1s\nhang-threshold: 2s\n".write(toFile: directory + "/.lifetrace.yml", atomically: true, encoding: .utf8)
        let result = try Self.run(in: directory, ["check", Self.pass])
        #expect(result.status == 2)
        #expect(Self.message(result) == ".lifetrace.yml:2:1: `hang-threshold` is given twice")
    }

    @Test("a zero threshold or limit is refused, on the command line and in the configuration file alike")
    func zeroThreshold() throws {
        for option in ["--stall-threshold", "--hang-threshold", "--launch-watchdog", "--background-limit", "--background-callback-limit"] {
            let result = try Self.run(["check", "--no-config", option, "0ms", Self.pass])
            #expect(result.status == 2, "\(option)")
            #expect(Self.message(result) == "The value '0ms' is invalid for '\(option) <duration>': a threshold or limit must be longer than zero")
            #expect(result.output.isEmpty)
        }
        #expect(throws: ConfigurationError(
            file: "c.yml", line: 1, column: 17, "`hang-threshold`: invalid duration \"0 s\": a threshold or limit must be longer than zero")) {
            try ProjectConfiguration.parse(yaml: "hang-threshold: 0 s\n", file: "c.yml")
        }
        // The smallest threshold there is is taken.
        #expect(try Self.run(["check", "--no-config", "--hang-threshold", "1ns", Self.pass]).status == 0)
        #expect(try Threshold.nanoseconds("1ns") == 1)
    }

    @Test("a value starting with '-' is refused for what it is, not taken for a missing value")
    func negativeValues() throws {
        let threshold = try Self.run(["check", "--no-config", "--hang-threshold", "-5ms", Self.pass])
        #expect(threshold.status == 2)
        #expect(Self.message(threshold).hasPrefix("The value '-5ms' is invalid for '--hang-threshold <duration>': \"-5\" is not a non-negative number"))
        let regression = try Self.run(["diff", "--no-config", "--max-regression", "-5%", Self.pass, "--", Self.pass])
        #expect(regression.status == 2)
        #expect(Self.message(regression) == "--max-regression: \"-5%\" is negative: give the largest allowed rise, such as 10%")
        let alpha = try Self.run(["diff", "--no-config", "--alpha", "-0.5", Self.pass, "--", Self.pass])
        #expect(alpha.status == 2)
        #expect(Self.message(alpha) == "The value '-0.5' is invalid for '--alpha <alpha>': it must be a number between 0 and 1, such as 0.05")
    }

    @Test("an unknown format is one line listing the formats, as the help lists them")
    func unknownFormat() throws {
        let result = try Self.run(["check", "--no-config", "--format", "xml", Self.pass])
        #expect(result.status == 2)
        #expect(Self.message(result) == "The value 'xml' is invalid for '--format <format>' (values: text, json, junit, github, markdown, sarif)")
        let help = try Self.run(["check", "--help"])
        let words = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("(values: text, json, junit, github, markdown, sarif"))
    }

    @Test("--config naming a directory says it is a directory")
    func configurationDirectory() throws {
        let directory = try ScratchDirectory.make("config-dir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.run(["check", "--config", directory, Self.pass])
        #expect(result.status == 2)
        #expect(Self.message(result) == "\(directory): is a directory, not a configuration file (give the file, such as .lifetrace.yml)")
        let missing = try Self.run(["check", "--config", directory + "/none.yml", Self.pass])
        #expect(Self.message(missing) == "\(directory)/none.yml: no such configuration file")
    }

    @Test("a budget file's bad member and a configuration file's unreadable rule file are named by file, line and column")
    func locatedErrors() throws {
        let directory = try ScratchDirectory.make("located")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let budgets = directory + "/b.json"
        try "{\n  \"alpha\": 0.1,\n  \"budget2\": {}\n}\n".write(toFile: budgets, atomically: true, encoding: .utf8)
        let member = try Self.run(["diff", "--no-config", "--budgets", budgets, Self.pass, "--", Self.pass])
        #expect(member.status == 2)
        #expect(Self.message(member) == "\(budgets):3:3: unknown member \"budget2\" (expected alpha, max-regression, budget)")
        try "{\n  \"budgets\": {\n    \"launch.cold.p50\": \"400ms\",\n    \"nope.p50\": 1\n  },\n  \"alpha\": 2\n}\n"
            .write(toFile: budgets, atomically: true, encoding: .utf8)
        let alpha = try Self.run(["diff", "--no-config", "--budgets", budgets, Self.pass, "--", Self.pass])
        #expect(Self.message(alpha) == "\(budgets):6:12: alpha must be a number between 0 and 1, such as 0.05")
        try "{\n  \"budgets\": {\n    \"launch.cold.p50\": \"400ms\",\n    \"nope.p50\": 1\n  }\n}\n".write(toFile: budgets, atomically: true, encoding: .utf8)
        let metric = try Self.run(["diff", "--no-config", "--budgets", budgets, Self.pass, "--", Self.pass])
        #expect(Self.message(metric).hasPrefix("\(budgets):4:5: unknown metric \"nope\""))
        try "strict: true\nrules:\n  - lifecycle/missing.yml\n".write(toFile: directory + "/.lifetrace.yml", atomically: true, encoding: .utf8)
        let rules = try Self.run(in: directory, ["check", Self.pass])
        #expect(rules.status == 2)
        #expect(Self.message(rules).hasPrefix(".lifetrace.yml:3:5: `rules`: lifecycle/missing.yml: "))
    }

    @Test("a word like an option after diff's '--' is named as an option, not read as a missing trace")
    func optionAfterSeparator() throws {
        let unknown = try Self.run(["diff", "--no-config", Self.pass, "--", Self.pass, "-x", "y"])
        #expect(unknown.status == 2)
        #expect(Self.message(unknown) == "-x: diff has no such option; a trace path starting with '-' can be given as ./-x")
        let known = try Self.run(["diff", "--no-config", Self.pass, "--", Self.pass, "--format=json"])
        #expect(known.status == 2)
        #expect(Self.message(known).hasPrefix("--format comes after '--', where only candidate traces go; put options before the baseline"))
    }

    @Test("diff's verdict names what failed by kind, and says nothing of budgets when none were given")
    func diffVerdict() throws {
        let regressions = try Self.run(["diff", "--no-config", "--max-regression", "10%", "--allow-more-violations", Self.baseline, "--", Self.candidate])
        #expect(regressions.status == 1)
        #expect(regressions.output.hasSuffix("\nFailed: 2 regressions over +10%.\n"), "\(regressions.output)")
        #expect(!regressions.output.contains("budget"))
        let budget = try Self.run(["diff", "--no-config", "--budget", "launch.cold.p50=100ms", Self.candidate, "--", Self.candidate])
        #expect(budget.status == 1)
        #expect(budget.output.hasSuffix("\nFailed: 1 budget exceeded.\n"), "\(budget.output)")
        let plain = try Self.run(["diff", "--no-config", Self.baseline, "--", Self.candidate])
        #expect(plain.status == 0)
        #expect(plain.output.contains("\nNo more errors per run than the baseline"), "\(plain.output)")
        #expect(!plain.output.lowercased().contains("budget"))
    }

    @Test("a configuration file found upward is named relative to the working directory when it is there")
    func foundConfigurationIsRelative() throws {
        let directory = try ScratchDirectory.make("found-config")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
        try "strict: true\nhang-threshold: fast\n".write(toFile: directory + "/.lifetrace.yml", atomically: true, encoding: .utf8)
        let here = try Self.run(in: directory, ["check", Self.pass])
        #expect(here.status == 2)
        #expect(Self.message(here).hasPrefix(".lifetrace.yml:2:17: `hang-threshold`: invalid duration \"fast\""))
        // Above the working directory, it is named in full.
        let below = try Self.run(in: directory + "/sub", ["check", Self.pass])
        #expect(Self.message(below).hasPrefix("\(directory)/.lifetrace.yml:2:17: "))
    }

    @Test("SARIF locates a trace under the working directory relative to %SRCROOT%, any other by a file:// URI")
    func sarifLocations() throws {
        let directory = try ScratchDirectory.make("sarif-uri")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/work/traces", withIntermediateDirectories: true)
        let inside = directory + "/work/traces/hang a:b.jsonl"
        let outside = directory + "/out side.jsonl"
        for path in [inside, outside] { try FileManager.default.copyItem(atPath: Self.fail, toPath: path) }
        let result = try Self.run(in: directory + "/work", ["check", "--no-config", "--format", "sarif", "--strict", inside, outside])
        #expect(result.status == 1)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let bases = run["originalUriBaseIds"] as? [String: [String: String]]
        let root = URL(fileURLWithPath: directory + "/work", isDirectory: true).standardizedFileURL.absoluteString
        #expect(bases?["%SRCROOT%"]?["uri"] == root && root.hasPrefix("file:///") && root.hasSuffix("/"))
        let locations = (run["results"] as? [[String: Any]] ?? []).compactMap { result -> [String: String]? in
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            return location?["artifactLocation"] as? [String: String]
        }
        #expect(locations.count == 2)
        #expect(locations.contains(["uri": "traces/hang%20a%3Ab.jsonl", "uriBaseId": "%SRCROOT%"]))
        let absolute = URL(fileURLWithPath: outside).absoluteString
        #expect(absolute.hasPrefix("file:///") && absolute.hasSuffix("/out%20side.jsonl"))
        #expect(locations.contains(["uri": absolute]))
    }
}
