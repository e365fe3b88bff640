import ArgumentParser
import Foundation
import LifetraceFormat
import LifetraceReports
import LifetraceTestSupport
import Testing

@testable import LifetraceCLI

/// One spelling per concept across the commands: `-o` wherever a command writes a document, one
/// prefix and one name for standard output in every error, help that fails like any output, the
/// budget file's members named as the configuration file names them, and values refused with a
/// reason that says what is wrong. Each is parsed in process and run end to end.
@Suite struct OneSpellingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let pass = root + "/Samples/traces/hang.pass.jsonl"
    static let fail = root + "/Samples/traces/launch-stall.fail.jsonl"
    static let traces = root + "/Samples/traces"
    static let baseline = root + "/Samples/launches/baseline"
    static let candidate = root + "/Samples/launches/candidate"

    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    /// Runs `lifetrace arguments` with standard output on `/dev/full` (every write fails).
    static func runIntoFullDisk(_ arguments: [String]) throws -> LifetraceCommand.Result {
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        return try ChildProcess.run(LifetraceCommand.path, arguments, output: full)
    }

    /// The one line on standard error, without the tool's name.
    static func message(_ result: LifetraceCommand.Result) -> String {
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)")
        #expect(result.error.hasPrefix("lifetrace: "), "\(result.error)")
        return String(lines.first?.dropFirst("lifetrace: ".count) ?? "")
    }

    // MARK: -o on check and diff

    @Test("check and diff take -o and --output, as report, dump, export and synth do")
    func outputOptionParses() throws {
        #expect(try CheckCommand.parse(["-o", "x.txt", "a.jsonl"]).output == "x.txt")
        #expect(try CheckCommand.parse(["--output", "x.txt", "a.jsonl"]).output == "x.txt")
        #expect(try CheckCommand.parse(["a.jsonl"]).output == nil)
        #expect(try DiffCommand.parse(["-o", "d.txt", "a", "b"]).output == "d.txt")
        #expect(try DiffCommand.parse(["--output", "-", "a", "b"]).output == "-")
    }

    @Test("check -o and diff -o write the document standard output would have held; '-' is standard output")
    func outputOptionWrites() throws {
        let directory = try ScratchDirectory.make("one-spelling-o")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // (JUnit's document carries the time it was written, so it is left out.)
        for format in ["text", "json", "markdown", "sarif"] {
            let file = directory + "/check.\(format)"
            let printed = try Self.run(["check", "--no-config", "--format", format, Self.fail])
            let written = try Self.run(["check", "--no-config", "--format", format, "-o", file, Self.fail])
            #expect(written.status == printed.status && printed.status == 1, "\(format)")
            #expect(written.output.isEmpty, "\(format)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.output, "\(format)")
            let dash = try Self.run(["check", "--no-config", "--format", format, "-o", "-", Self.fail])
            #expect(dash.output == printed.output, "\(format)")
        }
        let file = directory + "/diff.txt"
        let printed = try Self.run(["diff", "--no-config", "--allow-more-violations", Self.baseline, "--", Self.baseline])
        let written = try Self.run(["diff", "--no-config", "--allow-more-violations", "-o", file, Self.baseline, "--", Self.baseline])
        #expect(printed.status == 0 && written.status == 0, "\(written.error)")
        #expect(written.output.isEmpty)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.output)
        #expect(printed.output.hasPrefix("Comparing "))
    }

    @Test("check -o and diff -o into a directory that does not exist: exit 7, one line naming the file")
    func outputOptionFails() throws {
        let missing = "/nonexistent-\(getpid())/out.txt"
        let check = try Self.run(["check", "--no-config", "-o", missing, Self.pass])
        #expect(check.status == 7)
        #expect(Self.message(check) == "\(missing): cannot create: No such file or directory")
        let json = try Self.run(["check", "--no-config", "--format", "json", "-o", missing, Self.pass])
        #expect(json.status == 7)
        #expect(Self.message(json).hasPrefix("\(missing): cannot create"))
        let diff = try Self.run(["diff", "--no-config", "-o", missing, Self.pass, "--", Self.pass])
        #expect(diff.status == 7)
        #expect(Self.message(diff) == "\(missing): cannot create: No such file or directory")
        // The output is never one of the traces.
        let overwrite = try Self.run(["check", "--no-config", "-o", Self.pass, Self.pass])
        #expect(overwrite.status == 2)
        #expect(Self.message(overwrite).contains("the output is also an input"))
    }

    // MARK: One prefix, one name for standard output

    @Test("record's errors start 'lifetrace: ' as every command's do")
    func recordPrefix() throws {
        let result = try Self.run(["record", "--", "/bin/true"])
        #expect(result.status == 2)
        #expect(Self.message(result) == "give the trace file to write with -o")
    }

    @Test("a full standard output is named 'standard output' in every command, exit 7",
          arguments: [
              ["dump", pass], ["synth", "--events", "20000", "--format", "jsonl"], ["export", "--format", "chrome-json", "-o", "-", pass],
              ["check", pass], ["check", "--format", "json", pass], ["report", pass], ["diff", pass, "--", pass], ["info", pass],
          ])
    func standardOutputNamed(arguments: [String]) throws {
        let result = try Self.runIntoFullDisk(arguments)
        #expect(result.status == 7, "\(arguments)")
        #expect(Self.message(result) == "standard output: cannot write: No space left on device", "\(arguments)")
    }

    @Test("help and the version that cannot be written: exit 7 with the one line", arguments: [
        ["--help"], ["check", "--help"], ["help", "diff"], ["--version"],
    ])
    func helpIntoFullDisk(arguments: [String]) throws {
        let result = try Self.runIntoFullDisk(arguments)
        #expect(result.status == 7, "\(arguments)")
        #expect(Self.message(result) == "standard output: cannot write: No space left on device", "\(arguments)")
        let printed = try Self.run(arguments)
        #expect(printed.status == 0 && !printed.output.isEmpty && printed.error.isEmpty, "\(arguments)")
    }

    // MARK: The budget file's members

    @Test("the budget file's members are spelt as the configuration file's keys; maxRegression and budgets still read")
    func budgetFileSpellings() throws {
        let directory = try ScratchDirectory.make("budget-spellings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let today = directory + "/today.json", earlier = directory + "/earlier.json", both = directory + "/both.json"
        try #"{"alpha": 0.01, "max-regression": "10%", "budget": {"launch.cold.p50": "400ms", "stalls.count.p90": 1}}"#
            .write(toFile: today, atomically: true, encoding: .utf8)
        try #"{"alpha": 0.01, "maxRegression": "10%", "budgets": {"launch.cold.p50": "400ms", "stalls.count.p90": 1}}"#
            .write(toFile: earlier, atomically: true, encoding: .utf8)
        try "{\n  \"max-regression\": \"10%\",\n  \"maxRegression\": \"5%\"\n}\n".write(toFile: both, atomically: true, encoding: .utf8)
        var first = ComparisonGate(), second = ComparisonGate()
        try first.read(file: today)
        try second.read(file: earlier)
        #expect(first.maxRegression == 10 && first.alpha == 0.01)
        #expect(first.budgets.map(\.key) == ["launch.cold.p50", "stalls.count.p90"])
        #expect(first.budgets == second.budgets && first.maxRegression == second.maxRegression && first.alpha == second.alpha)
        var third = ComparisonGate()
        #expect(throws: BudgetError(source: both + ":3:3", reason: "\"maxRegression\" says again what \"max-regression\" says: give it once, as \"max-regression\"")) {
            try third.read(file: both)
        }
        for file in [today, earlier] {
            let result = try Self.run(["diff", "--no-config", "--budgets", file, Self.baseline, "--", Self.candidate])
            #expect(result.status == 1, "\(file): \(result.error)")
            #expect(result.output.contains("launch.cold.p50"), "\(file)")
        }
    }

    // MARK: Values refused with their reason

    @Test("a duration's error says what is wrong: a unit in capitals, a missing number, a stray character", arguments: [
        ("250MS", "The value '250MS' is invalid for '--hang-threshold <duration>': \"MS\" is not a unit: units are lower case (ns, us, µs, ms, s, m, min, h)"),
        ("ms", "The value 'ms' is invalid for '--hang-threshold <duration>': the number is missing before \"ms\""),
        ("400ms=3", "The value '400ms=3' is invalid for '--hang-threshold <duration>': \"=\" cannot be part of a duration"),
    ])
    func durationMessages(value: String, expected: String) throws {
        let result = try Self.run(["check", "--no-config", "--hang-threshold", value, Self.pass])
        #expect(result.status == 2)
        #expect(Self.message(result).hasPrefix(expected), "\(result.error)")
        #expect(throws: (any Error).self) { try CheckCommand.parse(["--hang-threshold", value, "a.jsonl"]) }
        // An exponent is a number like any other.
        #expect(try CheckCommand.parse(["--hang-threshold", "1e3ms", "a.jsonl"]).analysis.hangThreshold?.nanoseconds == 1_000_000_000)
    }

    @Test("a budget's error names an extra '=' and, for a key that is not METRIC.STATISTIC, the form, metrics and statistics")
    func budgetMessages() throws {
        #expect(throws: BudgetError(
            source: "--budget", reason: "\"launch.cold.p50=400ms=3\" has more than one '=': write METRIC.STATISTIC=LIMIT (e.g. launch.cold.p50=400ms)")
        ) { try Budget(parsing: "launch.cold.p50=400ms=3") }
        for key in ["launch.cold", "launch.cold.p5", "nope.p50", "launch"] {
            do {
                _ = try Budget(parsing: key + "=400ms")
                Issue.record("\(key) read as a budget")
            } catch {
                #expect(error.reason.contains("METRIC.STATISTIC, such as launch.cold.p50 (launch.<kind>.<statistic>)"), "\(key)")
                #expect(error.reason.contains("launch.prewarmed") && error.reason.contains("stalls.count"), "\(key)")
                #expect(error.reason.hasSuffix("the statistics: p50 (or median), p90, p99, max, mean"), "\(key)")
            }
        }
        let result = try Self.run(["diff", "--no-config", "--budget", "launch.cold=400ms", Self.pass, "--", Self.pass])
        #expect(result.status == 2)
        #expect(Self.message(result).hasPrefix("--budget: \"launch.cold\" names a metric but no statistic: a budget's key is METRIC.STATISTIC"))
    }

    @Test("--alpha gives one reason for a word and for a number out of range", arguments: ["abc", "1.5", "0", "-0.5"])
    func alphaMessages(value: String) throws {
        let expected = "The value '\(value)' is invalid for '--alpha <alpha>': it must be a number between 0 and 1, such as 0.05"
        do {
            _ = try DiffCommand.parse(["--alpha", value, "a", "b"])
            Issue.record("--alpha \(value) parsed")
        } catch {
            #expect(DiffCommand.message(for: error) == expected)
        }
        let result = try Self.run(["diff", "--no-config", "--alpha", value, Self.pass, "--", Self.pass])
        #expect(result.status == 2)
        #expect(Self.message(result) == expected)
        #expect(try DiffCommand.parse(["--alpha", "0.01", "a", "b"]).alpha == 0.01)
    }

    @Test("--max-regression is a percentage with '%', with or without a space; a plain number is refused as ambiguous")
    func maxRegressionGrammar() throws {
        #expect(try Budget.percentage("10%") == 10)
        #expect(try Budget.percentage("10 %") == 10)
        #expect(try Budget.percentage("0.5%") == 0.5)
        for plain in ["0.1", "10"] {
            #expect(throws: BudgetError(
                source: "--max-regression",
                reason: "\"\(plain)\" has no '%': write the rise as a percentage, such as 10% (a plain number could mean a fraction or a percentage)")
            ) { try Budget.percentage(plain) }
        }
        let spaced = try Self.run(["diff", "--no-config", "--max-regression", "10 %", "--allow-more-violations", Self.baseline, "--", Self.baseline])
        #expect(spaced.status == 0, "\(spaced.error)")
        let plain = try Self.run(["diff", "--no-config", "--max-regression", "0.1", Self.baseline, "--", Self.baseline])
        #expect(plain.status == 2)
        #expect(Self.message(plain).hasPrefix("--max-regression: \"0.1\" has no '%'"))
    }

    @Test("a hang threshold given below the stall threshold is warned about, on one line; the default one is not")
    func hangBelowStall() throws {
        let below = try CheckCommand.parse(["--no-config", "--hang-threshold", "50ms", "--stall-threshold", "100ms", "a.jsonl"])
        let options = try below.analysis.options(configuration: nil)
        #expect(below.analysis.hangBelowStall(options, configuration: nil)?.hasPrefix(
            "the hang threshold (50 ms) is below the stall threshold (100 ms): a hang is a main-thread stall") == true)
        let raised = try CheckCommand.parse(["--no-config", "--stall-threshold", "500ms", "a.jsonl"])
        #expect(raised.analysis.hangBelowStall(try raised.analysis.options(configuration: nil), configuration: nil) == nil)
        let equal = try CheckCommand.parse(["--no-config", "--hang-threshold", "100ms", "--stall-threshold", "100ms", "a.jsonl"])
        #expect(equal.analysis.hangBelowStall(try equal.analysis.options(configuration: nil), configuration: nil) == nil)
        let result = try Self.run(["check", "--no-config", "--hang-threshold", "50ms", "--stall-threshold", "100ms", Self.pass])
        #expect(Self.message(result).hasPrefix("warning: the hang threshold (50 ms) is below the stall threshold (100 ms)"))
    }

    @Test("check --format github without a job summary says the findings left out were not written, and how to get them")
    func githubWithoutSummary() throws {
        let result = try ChildProcess.run(
            LifetraceCommand.path, ["check", "--no-config", "--format", "github", Self.traces], environment: ["GITHUB_STEP_SUMMARY": ""])
        #expect(result.status == 1)
        let last = result.output.split(separator: "\n").last.map(String.init)
        #expect(last == "lifetrace: 5 errors more than GitHub shows per step (10 of each kind) are not annotated; "
            + "they were not written anywhere, as $GITHUB_STEP_SUMMARY is not set: run check --format markdown (or text) for every finding")
    }

    @Test("replay refuses a range whose end is before its start")
    func replayRange() throws {
        #expect(throws: (any Error).self) { try ReplayCommand.parse(["--from", "5s", "--to", "1s", "t.jsonl"]) }
        #expect(try ReplayCommand.parse(["--from", "1s", "--to", "5s", "t.jsonl"]).to?.nanoseconds == 5_000_000_000)
        #expect(try ReplayCommand.parse(["--from", "1s", "--to", "1s", "t.jsonl"]).from?.nanoseconds == 1_000_000_000)
        let result = try Self.run(["replay", "--no-config", "--from", "5s", "--to", "1s", Self.pass])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(Self.message(result) == "--to 1s is before --from 5s: no event can be shown; give a --to at or after --from")
    }
}
