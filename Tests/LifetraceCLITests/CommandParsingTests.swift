import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceTestSupport
import LifetraceExport
import LifetraceReports
import Testing

@testable import LifetraceCLI

/// The commands' arguments parsed in process (`Command.parse`), beside the end-to-end tests that
/// run the executable: what each spelling means, the defaults, and the configuration file.
@Suite("command-line parsing, in process")
struct CommandParsingTests {
    @Test("export's format is --format, or --to as before")
    func exportFormat() throws {
        let new = try ExportCommand.parse(["trace.jsonl", "--format", "ctf", "-o", "out"])
        let old = try ExportCommand.parse(["trace.jsonl", "--to", "ctf", "-o", "out"])
        #expect(new.format == .ctf && new.formatAlias == nil)
        #expect(old.format == nil && old.formatAlias == .ctf)
        #expect(throws: (any Error).self) { try ExportCommand.parse(["trace.jsonl", "--format", "ctf", "--to", "ctf", "-o", "out"]) }
        #expect(throws: (any Error).self) { try ExportCommand.parse(["trace.jsonl", "--format", "ctf", "-o", "-"]) }
        #expect(throws: (any Error).self) { try ExportCommand.parse(["trace.jsonl", "--format", "svg", "-o", "out"]) }
    }

    @Test("the format enums of the reports module are what report, check and diff take")
    func formats() throws {
        #expect(try ReportCommand.parse(["a.jsonl", "--format", "ndjson"]).format == ReportFormat.ndjson)
        #expect(try CheckCommand.parse(["a.jsonl", "--format", "junit"]).format == .junit)
        #expect(try DiffCommand.parse(["--format", "markdown", "a", "b"]).format == RunComparison.Format.markdown)
        #expect(choices(ReportFormat.self) == "text, json, markdown, html or ndjson")
        #expect(choices(ExportFormat.self) == "perfetto, chrome-json, ctf or folded")
    }

    @Test("options not given take AnalysisOptions' defaults, the ones the help shows")
    func defaults() throws {
        let check = try CheckCommand.parse(["--no-config", "a.jsonl"])
        let options = try check.analysis.options()
        let defaults = AnalysisOptions()
        #expect(options.stallThreshold == defaults.stallThreshold)
        #expect(options.launchStallThreshold == defaults.launchStallThreshold)
        #expect(options.hangThreshold == defaults.hangThreshold)
        #expect(options.launchWatchdog == defaults.launchWatchdog)
        #expect(options.backgroundLimit == defaults.backgroundLimit)
        #expect(options.backgroundCallbackLimit == defaults.backgroundCallbackLimit)
        #expect(options.textbook == defaults.textbook)
        #expect(check.strict == nil)
        // What the help prints reads back as the same duration.
        #expect(try DurationArgument(parsing: AnalysisArguments.Defaults.launchWatchdog).nanoseconds == defaults.launchWatchdog)
        #expect(try DurationArgument(parsing: AnalysisArguments.Defaults.hangThreshold).nanoseconds == defaults.hangThreshold)
    }

    @Test("durations as the tool prints them: 1min, 2 min 30 s")
    func durations() throws {
        let check = try CheckCommand.parse(["--no-config", "--hang-threshold", "1min", "--launch-watchdog", "2 min 30 s", "a.jsonl"])
        let options = try check.analysis.options()
        #expect(options.hangThreshold == 60_000_000_000)
        #expect(options.launchWatchdog == 150_000_000_000)
        #expect(throws: (any Error).self) { try CheckCommand.parse(["--hang-threshold", "soon", "a.jsonl"]) }
    }

    @Test("the command line wins over the configuration file, which wins over the defaults")
    func layering() throws {
        let configuration = try ProjectConfiguration.parse(
            yaml: "hang-threshold: 400ms\nlaunch-watchdog: 10s\ntextbook: true\nstrict: true\nrules: team.yml\ndisable: [hang]\n",
            file: "/project/.lifetrace.yml")
        #expect(configuration.ruleFiles == ["/project/team.yml"])
        let check = try CheckCommand.parse(["--no-config", "--hang-threshold", "300ms", "--no-textbook", "a.jsonl"])
        var file = configuration
        file.ruleFiles = nil
        let options = try check.analysis.options(configuration: file)
        #expect(options.hangThreshold == 300_000_000)
        #expect(options.launchWatchdog == 10_000_000_000)
        #expect(options.textbook == false)
        #expect(!options.rules.contains(.hang))
        #expect(options.stallThreshold == AnalysisOptions().stallThreshold)
        #expect(file.strict == true)
    }

    @Test("the configuration file is found in the working directory or the nearest one above it")
    func discovery() throws {
        let root = NSTemporaryDirectory() + "lifetrace-find-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/a/b/c", withIntermediateDirectories: true)
        #expect(ProjectConfiguration.find(from: root + "/a/b/c")?.hasPrefix(root) != true)
        _ = FileManager.default.createFile(atPath: root + "/a/.lifetrace.yml", contents: Data())
        #expect(ProjectConfiguration.find(from: root + "/a/b/c") == root + "/a/.lifetrace.yml")
        #expect(ProjectConfiguration.find(from: root + "/a") == root + "/a/.lifetrace.yml")
        _ = FileManager.default.createFile(atPath: root + "/a/b/.lifetrace.yml", contents: Data())
        #expect(ProjectConfiguration.find(from: root + "/a/b/c") == root + "/a/b/.lifetrace.yml")
        // A directory of that name is found, and refused as not a configuration file, rather than
        // reading one further up that the project did not mean.
        try FileManager.default.createDirectory(atPath: root + "/a/b/c/.lifetrace.yml", withIntermediateDirectories: true)
        #expect(ProjectConfiguration.find(from: root + "/a/b/c") == root + "/a/b/c/.lifetrace.yml")
        #expect(throws: ConfigurationError.self) { try ProjectConfiguration.load(path: root + "/a/b/c/.lifetrace.yml", found: true) }
        #expect(try ProjectConfiguration.load(path: root + "/a/.lifetrace.yml").hangThreshold == nil)
    }

    @Test("a bad value names its line and column")
    func errors() throws {
        #expect(throws: ConfigurationError(file: "c.yml", line: 2, column: 18, "`launch-watchdog`: invalid duration \"20\": it has no unit (write a number and a unit: 250ms, 1.5s, 20s)")) {
            try ProjectConfiguration.parse(yaml: "strict: false\nlaunch-watchdog: 20\n", file: "c.yml")
        }
        #expect(throws: ConfigurationError(file: "c.yml", line: 2, column: 1, "`strict` is given twice")) {
            try ProjectConfiguration.parse(yaml: "strict: false\nstrict: true\n", file: "c.yml")
        }
        #expect(throws: ConfigurationError.self) { try ProjectConfiguration.parse(yaml: "- a\n- b\n", file: "c.yml") }
    }

    @Test("lifetrace --list-rules is check --list-rules")
    func listRulesAlias() throws {
        #expect(Lifetrace.canonical(["--list-rules"]) == ["check", "--list-rules"])
        #expect(Lifetrace.canonical(["check", "a"]) == ["check", "a"])
        #expect(try CheckCommand.parse(["--list-rules"]).listRules)
    }

    @Test("docs/CLI.md's exit status table is ExitStatus")
    func exitStatusTable() throws {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let page = try String(contentsOfFile: parts.joined(separator: "/") + "/docs/CLI.md", encoding: .utf8)
        let table = page.components(separatedBy: "## Exit status")[1].components(separatedBy: "\n## ")[0]
        let codes = table.split(separator: "\n").compactMap { line -> Int32? in
            guard line.hasPrefix("| ") else { return nil }
            return Int32(line.dropFirst(2).prefix { $0 != " " })
        }
        #expect(codes == ExitStatus.allCases.map(\.rawValue))
    }
}
