import Foundation
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Rule files, names and outputs built to break the commands (docs/RELIABILITY.md): the
/// documented exit code, one line naming the file and the place, nothing left behind.
@Suite struct HostileRuleInputTests {
    typealias Workspace = HostileInputTests.Workspace

    static let markTrace = """
        {"ts":0,"type":"launch","reason":"user"}
        {"ts":10,"type":"mark","name":"x"}
        {"ts":20,"type":"mark","name":"x"}

        """

    @Test("a max-count limit past 2^60 is refused at its line and column by every command, none crashes or leaves files")
    func maxCountLimitOverflow() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.markTrace)
        let rules = try workspace.write("big.yml", "rules:\n  - id: a\n    max-count: {of: mark x, limit: 9223372036854775807}\n")
        let out = workspace.path + "/out"
        for arguments in [
            ["check", "--rules", rules, trace], ["report", "--rules", rules, trace], ["replay", "--rules", rules, trace],
            ["export", "--rules", rules, trace, "--format", "perfetto", "-o", out], ["diff", "--rules", rules, trace, "--", trace],
        ] {
            let result = try HostileInputTests.run(arguments, in: workspace, expect: 2)
            HostileInputTests.expectOneLine(result, containing: "big.yml:3:36: `limit`: 9223372036854775807 is more than 2^60")
        }
        // Past Int64 too, and not a number at all.
        for limit in ["99999999999999999999999", "-1", "1e3", "0x10"] {
            let bad = try workspace.write("bad.yml", "rules:\n  - id: a\n    max-count: {of: mark x, limit: \(limit)}\n")
            let result = try HostileInputTests.run(["check", "--rules", bad, trace], in: workspace, expect: 2)
            HostileInputTests.expectOneLine(result, containing: "bad.yml:3:36: `limit`: ")
        }
    }

    @Test("a max-count limit of 2^60 is taken, and judged without overflow")
    func maxCountLimitAtTheBound() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.markTrace)
        let rules = try workspace.write("r.yml", "rules:\n  - id: a\n    max-count: {of: mark x, limit: 1152921504606846976}\n")
        let result = try HostileInputTests.run(["check", "--rules", rules, trace], in: workspace, expect: 0)
        #expect(result.output.contains("1 trace checked, 0 failed"), "\(result.output)")
    }

    @Test("a rule file may not take trace-integrity, JUnit's test case for a trace not read whole, nor a built-in id")
    func reservedRuleIDs() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.markTrace)
        for id in ["trace-integrity", "hang", "launch-watchdog", "background-callback"] {
            let rules = try workspace.write("r.yml", "rules:\n  - id: \(id)\n    never: mark y\n")
            let result = try HostileInputTests.run(["check", "--rules", rules, trace, "--format", "junit"], in: workspace, expect: 2)
            HostileInputTests.expectOneLine(result, containing: "r.yml:2:9: the id \"\(id)\" is ")
            #expect(result.output.isEmpty)
        }
    }

    /// Four names, two pairs of canonically equivalent strings: `cafe` + U+0301 and U+00E9,
    /// U+212B ANGSTROM SIGN and U+00C5.
    static let equivalentNames = ["cafe\u{301}", "caf\u{E9}", "\u{212B}", "\u{C5}"]

    static var equivalentNamesTrace: String {
        var lines = [#"{"ts":0,"type":"launch","reason":"user"}"#]
        for (index, name) in equivalentNames.enumerated() { lines.append(#"{"ts":\#(index + 10),"type":"mark","name":"\#(name)"}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("names that are canonically equivalent stay apart, byte for byte, through import and dump")
    func canonicallyEquivalentNamesRoundTrip() throws {
        let workspace = try Workspace()
        let text = Self.equivalentNamesTrace
        let trace = try workspace.write("names.jsonl", text)
        let binary = workspace.path + "/names.ltrace"
        #expect(try LifetraceCommand.run(["import", trace, "-o", binary]).status == 0)
        let dumped = try LifetraceCommand.run(["dump", binary])
        #expect(dumped.status == 0)
        #expect(Array(dumped.output.utf8) == Array(text.utf8), "\(dumped.output.unicodeScalars.map { String($0.value, radix: 16) })")
        // The JSONL reader and writer alone: dump of the text form.
        let again = try LifetraceCommand.run(["dump", trace])
        #expect(Array(again.output.utf8) == Array(text.utf8))
    }

    @Test("a rule's name matches by bytes: `café` does not match cafe + U+0301, nor U+212B U+00C5; a glob matches each as written")
    func selectorsCompareBytes() throws {
        let workspace = try Workspace()
        let lines = [#"{"ts":0,"type":"launch","reason":"user"}"#, #"{"ts":10,"type":"mark","name":"cafe\#u{301}"}"#,
            #"{"ts":20,"type":"mark","name":"\#u{212B}"}"#]
        let trace = try workspace.write("t.jsonl", lines.joined(separator: "\n") + "\n")
        let exact = try workspace.write("exact.yml", "rules:\n  - id: a\n    never: mark caf\u{E9}\n  - id: b\n    never: mark \u{C5}\n")
        let result = try HostileInputTests.run(["check", "--rules", exact, trace], in: workspace, expect: 0)
        #expect(result.output.contains("0 failed"), "\(result.output)")
        let globs = try workspace.write("globs.yml", "rules:\n  - id: a\n    never: mark cafe\u{301}*\n  - id: b\n    never: mark *\u{212B}\n")
        let failed = try HostileInputTests.run(["check", "--rules", globs, trace], in: workspace, expect: 1)
        #expect(failed.output.contains("error[a]") && failed.output.contains("error[b]"), "\(failed.output)")
    }

    @Test("a glob against a name at the file limits (1 MiB rule file, 1 MiB JSONL line) is matched in linear time")
    func globAtTheFileLimits() throws {
        let workspace = try Workspace()
        // `*aaa…ab*` against `aaa…a`: every place the search could start almost matches. Matched
        // piece by piece from each place, the cost is the product of the lengths (10^12 byte
        // comparisons here, hours); matched in linear time, milliseconds.
        let pattern = String(repeating: "a", count: (1 << 20) - 100) + "b"
        let rules = try workspace.write("glob.yml", "rules:\n  - id: a\n    never: mark *\(pattern)*\n")
        let name = String(repeating: "a", count: (1 << 20) - 100)
        let trace = try workspace.write(
            "t.jsonl", #"{"ts":0,"type":"launch","reason":"user"}"# + "\n" + #"{"ts":10,"type":"mark","name":""# + name + "\"}\n")
        let result = try HostileInputTests.run(["check", "--rules", rules, trace], in: workspace, expect: 0)
        #expect(result.output.contains("0 failed"), "\(result.output)\(result.error)")
        let matching = try workspace.write("t2.jsonl", #"{"ts":0,"type":"launch","reason":"user"}"# + "\n" + #"{"ts":10,"type":"mark","name":"x"# + pattern + "y\"}\n")
        _ = try HostileInputTests.run(["check", "--rules", rules, matching], in: workspace, expect: 1)
    }

    @Test("1,000 rules on 100,000 distinct names: check runs within 64 MiB of data (the rules' name caches are bounded)")
    func thousandRulesOnDistinctNames() throws {
        let workspace = try Workspace()
        // Every name matches the first rule's glob, so the analyzer hands each mark to the rules;
        // the other 999 have a scope and a pattern of names that never occur.
        var rules = "rules:\n  - id: r0\n    max-count: {of: mark *, limit: 1000000}\n"
        for index in 1..<1000 {
            rules += "  - id: r\(index)\n    scope: {from: mark start, to: mark stop-\(index)}\n    never: mark bad-\(index)-*\n"
        }
        let rulesPath = try workspace.write("rules.yml", rules)
        var trace = #"{"ts":0,"type":"launch","reason":"user"}"# + "\n" + #"{"ts":1,"type":"mark","name":"start"}"# + "\n"
        for index in 0..<100_000 { trace += #"{"ts":\#(1000 + index),"type":"mark","name":"name-\#(index)"}"# + "\n" }
        let tracePath = try workspace.write("names.jsonl", trace)
        // RLIMIT_DATA bounds the heap and every private writable mapping: past it an allocation
        // fails and the process aborts. Before the caches were bounded this run took 254 MB.
        let result = try ChildProcess.run(
            "/bin/sh", ["-c", "ulimit -d 65536 && exec \"$0\" check --rules \"$1\" \"$2\"", LifetraceCommand.path, rulesPath, tracePath])
        #expect(result.status == 0, "\(result.error.suffix(300))")
        #expect(result.output.contains("1 trace checked, 0 failed"), "\(result.output)")
    }

    /// U+2028, U+2029 and U+0085: line breaks to `str.splitlines()`, not to JSON.
    static let separators = "line\u{2028}paragraph\u{2029}next\u{85}end"

    @Test("ndjson rows and JSON reports escape U+2028, U+2029 and U+0085; the trace's JSONL keeps them raw, byte for byte")
    func lineSeparatorsInRows() throws {
        let workspace = try Workspace()
        let text = #"{"type":"meta","note":"\#(Self.separators)"}"# + "\n" + #"{"ts":0,"type":"launch","reason":"user"}"# + "\n"
            + #"{"ts":10,"type":"mark","name":"\#(Self.separators)"}"# + "\n"
        let trace = try workspace.write("s.jsonl", text)
        for format in ["ndjson", "json"] {
            let rows = try HostileInputTests.run(["report", "--format", format, trace], in: workspace, expect: 0)
            for separator in ["\u{2028}", "\u{2029}", "\u{85}"] {
                #expect(!rows.output.contains(separator), "\(format) writes U+\(String(separator.unicodeScalars.first!.value, radix: 16)) raw")
            }
            if format == "ndjson" {
                // What a line-splitting reader sees: each line is one whole row.
                let lines = rows.output.split(whereSeparator: \.isNewline)
                #expect(lines.count == 2)
                for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
                let row = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
                let metadata = row?["metadata"] as? [String: Any]
                #expect((metadata?["note"] as? String).map { Array($0.utf8) } == Array(Self.separators.utf8))
            }
        }
        let dumped = try LifetraceCommand.run(["dump", trace])
        #expect(Array(dumped.output.utf8) == Array(text.utf8))
    }

    @Test("JUnit replaces the characters XML 1.0 forbids (U+FFFE, U+FFFF, C0 controls) and expat reads the file")
    func junitForbiddenCharacters() throws {
        let workspace = try Workspace()
        let line = #"{"ts":10,"type":"mark","name":"bad\uFFFE\uFFFF\u0001\u001Ftab\tcr\rlf\nend"}"#
        let trace = try workspace.write("t\u{FFFF}\u{FFFE}.jsonl", #"{"ts":0,"type":"launch","reason":"user"}"# + "\n" + line + "\n")
        let rules = try workspace.write("r.yml", "rules:\n  - id: a\n    never: mark bad*\n")
        let junit = try HostileInputTests.run(["check", "--rules", rules, trace, "--format", "junit"], in: workspace, expect: 1)
        #expect(!junit.output.unicodeScalars.contains { $0.value == 0xFFFE || $0.value == 0xFFFF || ($0.value < 0x20 && $0 != "\n") })
        let script = "import sys, xml.parsers.expat\np = xml.parsers.expat.ParserCreate()\ntexts = []\n"
            + "p.CharacterDataHandler = texts.append\np.Parse(sys.stdin.buffer.read(), True)\nsys.stdout.write(''.join(texts))\n"
        let python = try #require(ChildProcess.onPath("python3"))
        let parsed = try ChildProcess.run(python, ["-c", script], input: Data(junit.output.utf8))
        #expect(parsed.status == 0, "expat: \(parsed.error)")
        // Tab, CR and LF survive as references; the rest became U+FFFD.
        #expect(parsed.output.contains("bad\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}tab\tcr\rlf\nend"), "\(parsed.output)")
    }

    @Test("a budget on a metric no candidate measured fails with a line saying so; so does --max-regression; no stall meets a stall budget")
    func budgetWithoutCandidateSamples() throws {
        let workspace = try Workspace()
        let baseline = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("launches/baseline").path
        // Runs cut before their first frame: a launch, but no launch duration.
        var cut: [String] = []
        for run in ["run-01", "run-02"] {
            let lines = try String(contentsOfFile: baseline + "/\(run).jsonl", encoding: .utf8).split(separator: "\n").prefix(8)
            cut.append(try workspace.write("\(run)-cut.jsonl", lines.joined(separator: "\n") + "\n"))
        }
        let budget = try HostileInputTests.run(
            ["diff", "--allow-more-violations", "--budget", "launch.cold.p50=400ms", baseline, "--"] + cut, in: workspace, expect: 1)
        #expect(budget.output.contains("FAIL launch.cold.p50 <= 400 ms: no candidate sample of launch.cold (the baseline has 8); "
            + "a budget is not met by nothing"), "\(budget.output)")
        let regression = try HostileInputTests.run(
            ["diff", "--allow-more-violations", "--max-regression", "10%", baseline, "--"] + cut, in: workspace, expect: 1)
        #expect(regression.output.contains("FAIL launch.cold median +10% at most: no candidate sample (the baseline has 8)"), "\(regression.output)")
        // No stall in the candidates is within any stall budget.
        let stalls = try HostileInputTests.run(
            ["diff", "--allow-more-violations", "--budget", "stalls.duration.max=1ms", baseline, "--"] + cut, in: workspace, expect: 0)
        #expect(stalls.output.contains("ok   stalls.duration.max <= 1 ms: no candidate samples"), "\(stalls.output)")
    }

    @Test("an event that does not fit in a chunk is an error at its line in the input, like every JSONL error")
    func importEventTooLarge() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("big.jsonl", #"{"ts":0,"type":"launch","reason":"user"}"# + "\n"
            + #"{"ts":10,"type":"mark","name":""# + String(repeating: "a", count: 8000) + "\"}\n")
        let result = try HostileInputTests.run(
            ["import", trace, "-o", workspace.path + "/out.ltrace", "--chunk-size", "4096"], in: workspace, expect: 2)
        HostileInputTests.expectOneLine(result, containing: "big.jsonl:2:1: an event with its strings does not fit in a chunk of the output")
    }

    @Test("check DIR: an entry it finds but cannot read (a dangling link, a path past PATH_MAX) is an error for that path, exit 2")
    func checkDirectoryUnreadableEntries() throws {
        let workspace = try Workspace()
        try workspace.write("good.jsonl", Self.markTrace)
        try FileManager.default.createSymbolicLink(atPath: workspace.path + "/dangling.ltrace", withDestinationPath: "/nonexistent/x.ltrace")
        let dangling = try HostileInputTests.run(["check", workspace.path], in: workspace, expect: 2)
        #expect(dangling.error.contains("dangling.ltrace: cannot open"), "\(dangling.error)")
        #expect(dangling.output.contains("1 trace could not be read"), "\(dangling.output)")
        try FileManager.default.removeItem(atPath: workspace.path + "/dangling.ltrace")

        // Twenty directories of 250 characters: a path of about 5,000 bytes, past PATH_MAX, made
        // one directory at a time relative to the last.
        var descriptor = open(workspace.path, O_RDONLY | O_DIRECTORY)
        let component = String(repeating: "d", count: 250)
        for _ in 0..<20 {
            #expect(mkdirat(descriptor, component, 0o755) == 0)
            let next = openat(descriptor, component, O_RDONLY | O_DIRECTORY)
            close(descriptor)
            descriptor = next
        }
        let file = openat(descriptor, "deep.jsonl", O_WRONLY | O_CREAT, 0o644)
        let bytes = Array(Self.markTrace.utf8)
        #expect(write(file, bytes, bytes.count) == bytes.count)
        close(file)
        close(descriptor)
        let deep = try LifetraceCommand.run(["check", workspace.path])
        #expect(deep.status == 2, "\(deep.output)")
        #expect(deep.error.contains("/deep.jsonl: cannot open: File name too long"), "\(deep.error.suffix(200))")
        // Removed from the inside out: the workspace's own removal cannot reach that deep.
        let removal = try ChildProcess.run("/bin/rm", ["-rf", workspace.path + "/" + component])
        #expect(removal.status == 0)
    }
}
