import Foundation
import LifetraceFormat
import LifetraceOutput
import LifetraceZstd
import LifetraceTestSupport
import Testing

/// Names, metadata and rule globs built to make the commands' memory, time or terminal output
/// grow with what a small input claims (docs/RELIABILITY.md).
@Suite struct HostileNamesTests {
    typealias Workspace = HostileInputTests.Workspace

    static let longName = String(repeating: "a", count: 10_000)

    /// A launch, then `count` `callback.end` events that all name `longName`.
    static func callbackEnds(_ count: Int) -> String {
        var lines = [#"{"ts":0,"type":"launch","reason":"user"}"#]
        for index in 0..<count {
            lines.append(#"{"ts":\#(index + 10),"type":"callback.end","name":"\#(longName)"}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a name is cut to 200 scalars with its length in bytes; a short one is unchanged")
    func nameTextCut() {
        #expect(NameText.shown("main") == "main")
        let exact = String(repeating: "é", count: NameText.limit)
        #expect(NameText.shown(exact) == exact)
        let cut = NameText.shown(Self.longName)
        #expect(cut == String(repeating: "a", count: 200) + "… (10000 bytes)")
        let wide = NameText.shown(String(repeating: "é", count: 201))
        #expect(wide == String(repeating: "é", count: 200) + "… (402 bytes)")
    }

    @Test("check, report and replay quote a long callback name cut, never whole, in messages and in JSON witnesses")
    func longCallbackNameIsCutInMessages() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.callbackEnds(3))
        let cut = String(repeating: "a", count: 200) + "… (10000 bytes)"
        for arguments in [["check", trace], ["report", trace], ["replay", trace]] {
            let result = try LifetraceCommand.run(arguments)
            #expect(result.output.contains(cut), "\(arguments[0]): \(result.output.prefix(2000))")
            #expect(!result.output.contains(Self.longName), "\(arguments[0]) quoted the whole name")
        }
        for arguments in [["check", trace, "--format", "json"], ["report", trace, "--format", "json"]] {
            let json = try LifetraceCommand.run(arguments)
            #expect(json.output.contains("\"name\": \"\(cut)\""), "\(arguments[0]): \(json.output.prefix(2000))")
            #expect(!json.output.contains(Self.longName), "\(arguments[0]) wrote the whole name")
        }
    }

    @Test("a rule's message quotes a long mark name cut, never whole")
    func longMarkNameIsCutInRuleMessages() throws {
        let workspace = try Workspace()
        let trace = try workspace.write(
            "t.jsonl", "{\"ts\":0,\"type\":\"launch\",\"reason\":\"user\"}\n{\"ts\":10,\"type\":\"mark\",\"name\":\"\(Self.longName)\"}\n")
        let rules = try workspace.write("r.yml", "rules:\n  - id: no-a\n    never: \"mark a*\"\n")
        let result = try LifetraceCommand.run(["check", "--rules", rules, trace])
        #expect(result.output.contains("no-a"), "\(result.output.prefix(2000))")
        #expect(result.output.contains(String(repeating: "a", count: 200) + "… (10000 bytes)"), "\(result.output.prefix(2000))")
        #expect(!result.output.contains(Self.longName))
    }

    @Test("dump --format text escapes metadata keys and values and names: no forged line, no escape sequence, no bidi control")
    func textDumpEscapesMetadataAndNames() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", #"""
            {"type":"meta","app":"x\n       0.000  system  main     exit            code=0","k\u001b[31m":"\u001b]0;pwned\u0007"}
            {"ts":1,"type":"launch"}
            {"ts":2,"type":"mark","name":"\u001b[31mred\u202e"}
            {"ts":3,"type":"mark","name":"n\u2067x"}

            """#)
        let result = try LifetraceCommand.run(["dump", "--format", "text", trace])
        #expect(result.status == 0)
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false)
        // Two metadata lines, the line saying what the times count from, three events, the end.
        #expect(lines.count == 7, "\(result.output)")
        #expect(!result.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E || $0.value == 0x2067 })
        #expect(result.output.contains(#"# app: x\n       0.000"#), "\(result.output)")
        #expect(result.output.contains(#"# k\u{1B}[31m: \u{1B}]0;pwned\u{7}"#), "\(result.output)")
        #expect(result.output.contains(#"\u{202E}"#) && result.output.contains(#"\u{2067}"#), "\(result.output)")
    }

    @Test("the Bidi_Control marks U+061C, U+200E, U+200F are escaped like the other bidirectional controls")
    func bidiMarksAreEscaped() throws {
        #expect(TerminalText.escaped("a\u{61C}b\u{200E}c\u{200F}d") == #"a\u{61C}b\u{200E}c\u{200F}d"#)
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", """
            {"type":"meta","app":"a\u{200E}b"}
            {"ts":1,"type":"launch"}
            {"ts":2,"type":"callback.end","name":"n\u{200F}"}
            {"ts":3,"type":"callback.end","name":"n\u{61C}"}

            """)
        for arguments in [["check", trace], ["report", trace], ["replay", trace], ["info", trace], ["dump", "--format", "text", trace]] {
            let result = try LifetraceCommand.run(arguments)
            #expect(!result.output.unicodeScalars.contains { [0x61C, 0x200E, 0x200F].contains($0.value) }, "\(arguments[0])")
        }
    }

    /// Runs `lifetrace` with `arguments` within 64 MiB of data (RLIMIT_DATA bounds the heap and
    /// every private writable mapping: past it an allocation fails and the process aborts).
    static func runWithin64MiB(_ arguments: [String]) throws -> ChildProcess.Result {
        try ChildProcess.run("/bin/sh", ["-c", "ulimit -d 65536 && exec \"$0\" \"$@\"", LifetraceCommand.path] + arguments)
    }

    @Test("2000 callback.end events naming one 1,000,000-byte name: check, report and replay run within 64 MiB")
    func longNameFindingsWithinMemory() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/t.ltrace"
        var symbols = SymbolTable()
        let name = symbols.intern(String(repeating: "a", count: 1_000_000))
        let writer = try TraceWriter(path: trace, metadata: TraceMetadata(), options: .init(chunkSize: 4 << 20))
        try writer.append(TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: nil)), symbols: symbols)
        for index in 0..<2000 {
            try writer.append(TraceEvent(timestamp: Int64(index + 10), payload: .callbackEnd(name: name, scene: .none)), symbols: symbols)
        }
        try writer.close()
        for command in ["check", "report", "replay"] {
            let result = try Self.runWithin64MiB([command, trace])
            #expect(result.status == (command == "check" ? 1 : 0), "\(command): \(result.error.suffix(300))")
        }
        // Every format that lists the findings: a witness quotes the name cut, as messages do.
        for format in ["json", "junit", "github"] {
            let result = try Self.runWithin64MiB(["check", trace, "--format", format])
            #expect(result.status == 1, "check --format \(format): \(result.error.suffix(300))")
            #expect(result.output.utf8.count < 8 << 20, "check --format \(format) wrote \(result.output.utf8.count) bytes")
        }
        for format in ["json", "markdown", "ndjson"] {
            let result = try Self.runWithin64MiB(["report", trace, "--format", format])
            #expect(result.status == 0, "report --format \(format): \(result.error.suffix(300))")
            #expect(result.output.utf8.count < 8 << 20, "report --format \(format) wrote \(result.output.utf8.count) bytes")
        }
        let html = workspace.path + "/r.html"
        let report = try Self.runWithin64MiB(["report", trace, "--format", "html", "-o", html])
        #expect(report.status == 0, "report --format html: \(report.error.suffix(300))")
    }

    @Test("one 1 MiB a*a*a*… glob on a one-event trace: check runs within 64 MiB and still matches")
    func hugeGlobWithinMemory() throws {
        let workspace = try Workspace()
        var glob = ""
        glob.reserveCapacity(1 << 20)
        while glob.utf8.count < 999_900 { glob += "a*" }
        let rules = try workspace.write("g.yml", "rules:\n  - id: g\n    never: \"mark \(glob)\"\n")
        let trace = try workspace.write("t.jsonl", #"{"ts":0,"type":"launch","reason":"user"}"# + "\n" + #"{"ts":1,"type":"mark","name":"aaa"}"# + "\n")
        let result = try Self.runWithin64MiB(["check", "--rules", rules, trace])
        #expect(result.status == 0, "\(result.error.suffix(300))")
        #expect(result.output.contains("1 trace checked, 0 failed"), "\(result.output)")
    }

    @Test("a limit of 2^60 + 1 ns is refused as its equivalents in other units are; 2^60 ns is taken")
    func durationBoundInEveryUnit() throws {
        #expect(throws: DurationError.self) { try DurationParser.nanoseconds("1152921504606846977ns") }
        #expect(throws: DurationError.self) { try DurationParser.nanoseconds("1152921504606846.977us") }
        #expect(throws: DurationError.self) { try DurationParser.nanoseconds("99999999999999999999999ns") }
        #expect(try DurationParser.nanoseconds("1152921504606846976ns") == 1 << 60)
        #expect(try DurationParser.nanoseconds("1152921504606846.976us") == 1 << 60)
        #expect(try DurationParser.nanoseconds("1.5s") == 1_500_000_000)
        #expect(try DurationParser.nanoseconds("0.25ms") == 250_000)
        #expect(try DurationParser.nanoseconds("2m") == 120_000_000_000)
    }
}
