import Foundation
import LifetraceFormat
import LifetraceZstd
import LifetraceTestSupport
import Testing

/// Every command against input built to break it (docs/RELIABILITY.md): the documented exit
/// code, one line on standard error naming the file and the place, nothing left behind in the
/// directory, and the input unchanged.
@Suite struct HostileInputTests {
    /// A directory of one test's own, with the hostile inputs in it.
    final class Workspace {
        let path: String

        init() throws {
            path = NSTemporaryDirectory() + "lifetrace-hostile-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// Writes `text` (or `bytes`) to `name` and returns its path.
        @discardableResult
        func write(_ name: String, _ text: String) throws -> String {
            try write(name, bytes: Array(text.utf8))
        }

        @discardableResult
        func write(_ name: String, bytes: [UInt8]) throws -> String {
            let file = path + "/" + name
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            return file
        }

        /// The names in the directory, hidden ones included (staged outputs start with a dot).
        func listing() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        }

        func contents(_ name: String) -> Data? { FileManager.default.contents(atPath: path + "/" + name) }
    }

    /// Runs `arguments` in `workspace` and checks what every hostile run must keep: no new file,
    /// the inputs unchanged, and `expected` as the exit status.
    @discardableResult
    static func run(
        _ arguments: [String], in workspace: Workspace, expect expected: Int32,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> LifetraceCommand.Result {
        let before = try workspace.listing()
        let inputs = before.map { workspace.contents($0) }
        let result = try LifetraceCommand.run(arguments)
        #expect(result.status == expected, "\(arguments): \(result.error)", sourceLocation: sourceLocation)
        #expect(try workspace.listing() == before, "\(arguments) left files behind", sourceLocation: sourceLocation)
        #expect(before.map { workspace.contents($0) } == inputs, "\(arguments) changed an input", sourceLocation: sourceLocation)
        return result
    }

    /// One line on standard error, starting with the tool's name and holding `fragment`.
    static func expectOneLine(
        _ result: LifetraceCommand.Result, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "not one line: \(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("lifetrace"), sourceLocation: sourceLocation)
        #expect(result.error.contains(fragment), "\(result.error)", sourceLocation: sourceLocation)
        #expect(!result.error.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, sourceLocation: sourceLocation)
    }

    static let outOfRange = """
        {"ts":-5000000000000000000,"type":"launch"}
        {"ts":5000000000000000000,"type":"mark","name":"x"}

        """

    @Test("timestamps past ±2^60 ns: every command refuses them with the line and column, none crashes")
    func overflowingTimestamps() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("t.jsonl", Self.outOfRange)
        let out = workspace.path + "/out"
        let commands: [[String]] = [
            ["info", trace], ["check", trace], ["check", trace, "--format", "json"], ["report", trace],
            ["report", trace, "--format", "html", "-o", out + ".html"], ["replay", trace], ["dump", trace],
            ["import", trace, "-o", out + ".ltrace"], ["export", trace, "--format", "perfetto", "-o", out + ".pftrace"],
            ["export", trace, "--format", "chrome-json", "-o", out + ".json"], ["export", trace, "--format", "ctf", "-o", out + ".ctf"],
            ["diff", trace, "--", trace],
        ]
        for command in commands {
            let result = try Self.run(command, in: workspace, expect: 2)
            Self.expectOneLine(result, containing: "t.jsonl:1:7: timestamp -5000000000000000000 ns is outside")
        }
    }

    @Test("a binary trace whose chunk claims timestamps past ±2^60 ns: the chunk is skipped, check, report and export exit 2, info reports it")
    func overflowingBinaryTimestamps() throws {
        let workspace = try Workspace()
        let path = workspace.path + "/b.ltrace"
        var symbols = SymbolTable()
        let name = symbols.intern("x")
        let writer = try TraceWriter(path: path, metadata: TraceMetadata())
        try writer.append(TraceEvent(timestamp: .min, payload: .launch(reason: .none, background: false, prewarm: false, pid: nil)), symbols: symbols)
        try writer.append(TraceEvent(timestamp: .max, payload: .mark(name: name)), symbols: symbols)
        try writer.close()
        let check = try Self.run(["check", path], in: workspace, expect: 2)
        #expect(check.output.contains("a timestamp is outside ±2^60 ns"))
        let info = try Self.run(["info", path], in: workspace, expect: 0)
        #expect(info.output.contains("a timestamp is outside ±2^60 ns"))
        // Written all the same, from what was read; the skipped chunks are bad input (docs/CLI.md).
        for command in [["report", path], ["export", path, "--format", "chrome-json", "-o", "/dev/null"]] {
            let result = try Self.run(command, in: workspace, expect: 2)
            #expect(result.error.contains("lifetrace: \(path): byte 25 (chunk 0 of stream system): bad event record"), "\(command)")
        }
    }

    @Test("timestamps at ±2^60 ns go through every command and format without a crash")
    func extremeTimestamps() throws {
        let workspace = try Workspace()
        let limit = TraceTime.limit
        let trace = try workspace.write("e.jsonl", """
            {"ts":\(-limit),"type":"launch"}
            {"ts":\(limit),"type":"callback.begin","name":"didFinishLaunching"}
            {"ts":\(-limit),"type":"callback.end","name":"didFinishLaunching"}
            {"ts":\(limit),"type":"state","to":"active"}
            {"ts":\(-limit),"type":"runloop.wake"}
            {"ts":\(limit),"type":"runloop.sleep"}
            {"ts":\(limit),"type":"frame","first":true}
            {"ts":\(-limit),"type":"state","to":"background"}
            {"ts":\(limit),"type":"exit","code":0}

            """)
        let out = workspace.path + "/out"
        for format in ["text", "json", "junit", "github"] {
            try Self.run(["check", trace, "--format", format], in: workspace, expect: 1)
        }
        for format in ["text", "json", "markdown"] { try Self.run(["report", trace, "--format", format], in: workspace, expect: 0) }
        for command in [["info", trace], ["replay", trace], ["diff", trace, trace, "--", trace, trace]] {
            try Self.run(command, in: workspace, expect: 0)
        }
        let exports: [(String, String)] = [("perfetto", ".pftrace"), ("chrome-json", ".json"), ("ctf", ".ctf")]
        for (format, suffix) in exports {
            try LifetraceCommand.run(["export", trace, "--format", format, "-o", out + suffix]).expectStatus(0)
        }
        try LifetraceCommand.run(["report", trace, "--format", "html", "-o", out + ".html"]).expectStatus(0)
    }

    @Test("a launch window that ends before its launch (time going backwards) is checked, not a crash")
    func windowBeforeLaunch() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("w.jsonl", """
            {"ts":1000000000,"type":"launch"}
            {"ts":10,"type":"runloop.wake"}
            {"ts":20,"type":"frame","first":true}
            {"ts":900000000,"type":"runloop.sleep"}

            """)
        for format in ["text", "json", "junit", "github"] {
            try Self.run(["check", trace, "--format", format], in: workspace, expect: 0)
        }
        try Self.run(["report", trace], in: workspace, expect: 0)
    }

    @Test("a CR LF in a name cannot start a GitHub workflow command of its own")
    func workflowCommandInjection() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("g.jsonl", """
            {"ts":1,"type":"launch"}
            {"ts":2,"type":"callback.end","name":"a\\r\\n::error file=pwned::INJECTED"}

            """)
        let result = try Self.run(["check", trace, "--format", "github"], in: workspace, expect: 1)
        let lines = result.output.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.hasPrefix("::error title=") || line.hasPrefix("::warning title="))
            #expect(!line.contains("\r"))
            #expect(!line.hasPrefix("::error file=pwned"))
        }
        #expect(result.output.contains("a%0D%0A::error file=pwned::INJECTED"))
    }

    @Test("control characters in names, metadata and paths are escaped in text output and errors")
    func controlCharacters() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("c.jsonl", """
            {"type":"meta","app":"evil\\u001b[2J\\u001b]0;owned\\u0007"}
            {"ts":1,"type":"launch"}
            {"ts":2,"type":"callback.end","name":"x\\u001b[31mred\\nforged line\\u0000"}

            """)
        for command in [["check", trace], ["replay", trace], ["info", trace], ["report", trace]] {
            let result = try LifetraceCommand.run(command)
            #expect(!result.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(command)")
            #expect(!result.output.contains("\nforged line"), "\(command)")
        }
        let check = try LifetraceCommand.run(["check", trace])
        #expect(check.output.contains("x\\u{1B}[31mred\\nforged line\\u{0}"))
        let bad = try workspace.write("bad\u{1B}[31m.jsonl", "{\"ts\":1,\"type\":\"nope\u{1B}\"}\n")
        let error = try Self.run(["check", bad], in: workspace, expect: 2)
        Self.expectOneLine(error, containing: "bad\\u{1B}[31m.jsonl:1:")
    }

    @Test("Markdown puts names in code spans and escapes the pipe")
    func markdownNames() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("m.jsonl", """
            {"ts":1,"type":"launch"}
            {"ts":2,"type":"callback.end","name":"a|b`c<script>"}

            """)
        let result = try Self.run(["report", trace, "--format", "markdown"], in: workspace, expect: 0)
        // In prose every markup character is escaped; in a code span the name is kept as it is.
        #expect(result.output.contains("a\\|b\\`c\\<script>"))
        #expect(result.output.contains("``callback.end a|b`c<script> at +0.000 s``"))
    }

    @Test("a trace cut after its header, cut at its tail, or with corrupt chunks: check does not pass what it could not read")
    func incompleteTraces() throws {
        let workspace = try Workspace()
        let whole = try Self.importedSample(into: workspace)
        let header = try workspace.write("h.ltrace", bytes: Array(whole.prefix(147)))
        // Cut inside the end-of-trace record (36 bytes): cut inside a frame, not read whole.
        let tail = try workspace.write("t.ltrace", bytes: Array(whole.dropLast(20)))
        // Without the end-of-trace record: unclosed at a frame boundary, as a killed app leaves it.
        let unclosed = try workspace.write("u.ltrace", bytes: Array(whole.dropLast(36)))
        var corrupt = whole
        for index in stride(from: 200, to: whole.count - 40, by: 7) { corrupt[index] ^= 0x55 }
        let damaged = try workspace.write("c.ltrace", bytes: corrupt)
        #expect(try Self.run(["check", "--strict", header], in: workspace, expect: 2).output.contains("not read whole"))
        try Self.run(["check", header], in: workspace, expect: 2)
        try Self.run(["check", tail], in: workspace, expect: 2)
        try Self.run(["check", unclosed], in: workspace, expect: 0)
        try Self.run(["check", "--strict", unclosed], in: workspace, expect: 2)
        try Self.run(["check", damaged], in: workspace, expect: 2)
        let json = try Self.run(["check", damaged, "--format", "json"], in: workspace, expect: 2)
        #expect(json.output.contains("\"complete\" : false") || json.output.contains("\"complete\": false"))
        let junit = try Self.run(["check", damaged, "--format", "junit"], in: workspace, expect: 2)
        #expect(junit.output.contains("<error type=\"incomplete\""))
        let github = try Self.run(["check", damaged, "--format", "github"], in: workspace, expect: 2)
        #expect(github.output.contains("title=trace not read whole"))
    }

    @Test("FIFOs and process substitution read like files; check DIR skips a FIFO instead of waiting on it")
    func fifosAndPipes() throws {
        let workspace = try Workspace()
        let whole = try Self.importedSample(into: workspace)
        let fifo = workspace.path + "/f.ltrace"
        #expect(mkfifo(fifo, 0o600) == 0)
        let feeder = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data(whole))
                try? handle.close()
            }
        }
        feeder.start()
        let info = try LifetraceCommand.run(["info", fifo])
        #expect(info.status == 0)
        #expect(info.output.contains("events:     113"))
        let directory = try LifetraceCommand.run(["check", workspace.path])
        #expect(directory.status == 0)
        #expect(directory.output.contains("1 trace checked"))
        let substitution = try ChildProcess.run(
            "/bin/bash", ["-c", "\"$0\" check <(cat \"$1\")", LifetraceCommand.path, workspace.path + "/x.ltrace"])
        #expect(substitution.status == 0)
        #expect(substitution.output.contains(": ok (113 events, 1 lifetime)"))
    }

    @Test("-o naming an input is refused before anything is written")
    func outputIsInput() throws {
        let workspace = try Workspace()
        _ = try Self.importedSample(into: workspace)
        let trace = workspace.path + "/x.ltrace"
        let commands: [[String]] = [
            ["report", trace, "-o", trace], ["export", trace, "--format", "perfetto", "-o", trace],
            ["import", trace, "-o", trace], ["dump", trace, "-o", trace],
            ["report", trace, "--format", "html", "-o", workspace.path + "/./x.ltrace"],
        ]
        for command in commands {
            Self.expectOneLine(try Self.run(command, in: workspace, expect: 2), containing: "the output is also an input")
        }
    }

    @Test("a write error on standard output exits 7 with one line, in every command that prints")
    func fullStandardOutput() throws {
        let workspace = try Workspace()
        _ = try Self.importedSample(into: workspace)
        let trace = workspace.path + "/x.ltrace"
        let commands: [[String]] = [
            ["check", trace], ["check", trace, "--format", "json"], ["report", trace], ["replay", trace], ["info", trace],
            ["diff", trace, "--", trace], ["dump", trace],
        ]
        for command in commands {
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let result = try ChildProcess.run(LifetraceCommand.path, command, output: full)
            let text = result.error
            #expect(result.status == 7, "\(command)")
            #expect(text.contains("No space left on device"), "\(command): \(text)")
            #expect(text.split(separator: "\n").count == 1, "\(command): \(text)")
        }
    }

    @Test("SIGINT and SIGTERM remove the staged output of synth and import")
    func signalsRemoveStagedOutputs() throws {
        let workspace = try Workspace()
        for (signal, command) in [(SIGINT, ["synth", "--events", "200000000", "-o", workspace.path + "/big.ltrace"]),
                                  (SIGTERM, ["synth", "--events", "200000000", "--format", "jsonl", "-o", workspace.path + "/big.jsonl"])] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: LifetraceCommand.path)
            process.arguments = command
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while try workspace.listing().isEmpty && Date() < deadline { usleep(10_000) }
            #expect(try workspace.listing().first?.hasPrefix(".big.") == true)
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == signal)
            let left = try workspace.listing()
            #expect(left == [], "\(command): \(left) left behind")
        }
    }

    @Test("a million-scale claim stays small: violations past the limit are counted and every format says so")
    func violationLimit() throws {
        let workspace = try Workspace()
        var text = "{\"ts\":1000,\"type\":\"launch\"}\n{\"ts\":2000,\"type\":\"callback.begin\",\"name\":\"willTerminate\"}\n"
            + "{\"ts\":3000,\"type\":\"callback.end\",\"name\":\"willTerminate\"}\n"
        for index in 0..<1500 { text += "{\"ts\":\(4000 + index),\"type\":\"mark\",\"name\":\"x\"}\n" }
        let trace = try workspace.write("v.jsonl", text)
        let check = try Self.run(["check", trace], in: workspace, expect: 1)
        #expect(check.output.contains("501 more violations were found and not listed (nothing-after-terminate 501)"))
        #expect(check.output.hasSuffix("1501 errors, 0 warnings\n"))
        let json = try Self.run(["check", trace, "--format", "json"], in: workspace, expect: 1)
        #expect(json.output.contains("\"nothing-after-terminate\" : 1500") || json.output.contains("\"nothing-after-terminate\": 1500"))
        #expect(json.output.contains("\"violationLimit\""))
        let github = try Self.run(["check", trace, "--format", "github"], in: workspace, expect: 1)
        #expect(github.output.contains("title=violations not listed in \(trace)::501 more violations"))
        let junit = try Self.run(["check", trace, "--format", "junit"], in: workspace, expect: 1)
        #expect(junit.output.contains("501 more violations of this rule are not listed"))
        let markdown = try Self.run(["report", trace, "--format", "markdown"], in: workspace, expect: 0)
        #expect(markdown.output.contains("501 more violations were found and not listed"))
    }

    @Test("diff: huge and infinite budgets, and a malformed budget file named by line and column")
    func budgets() throws {
        let workspace = try Workspace()
        _ = try Self.importedSample(into: workspace)
        let trace = workspace.path + "/x.ltrace"
        let huge = try Self.run(["diff", "--budget", "stalls.count.p90=1e16", trace, trace, "--", trace, trace], in: workspace, expect: 0)
        #expect(huge.output.contains("1e+16"))
        Self.expectOneLine(
            try Self.run(["diff", "--budget", "stalls.count.p90=inf", trace, trace, "--", trace, trace], in: workspace, expect: 2),
            containing: "is not a non-negative number")
        let file = try workspace.write("budgets.json", "{\"budgets\": {\n  \"stalls.count.p90\": 1,\n  oops\n}}\n")
        let result = try Self.run(["diff", "--budgets", file, trace, trace, "--", trace, trace], in: workspace, expect: 2)
        Self.expectOneLine(result, containing: "budgets.json: not valid JSON at line 3, column")
    }

    @Test("every reproduction in the pipeline fuzz corpus goes through every format and export")
    func fuzzReproductions() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/pipeline")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasPrefix("repro-") }.sorted()
        #expect(names.count >= 10)
        for name in names {
            let workspace = try Workspace()
            let trace = try workspace.write(name, bytes: [UInt8](try Data(contentsOf: corpus.appendingPathComponent(name))))
            var commands: [[String]] = [["info", trace], ["replay", trace], ["report", trace, "--format", "markdown"], ["diff", trace, "--", trace]]
            for format in ["text", "json", "junit", "github"] { commands.append(["check", trace, "--strict", "--format", format]) }
            for export in ["perfetto", "chrome-json"] { commands.append(["export", trace, "--format", export, "-o", "/dev/null"]) }
            for command in commands {
                let result = try LifetraceCommand.run(command)
                #expect((0...3).contains(result.status), "\(name): \(command): \(result.error)")
                #expect(try workspace.listing() == [name], "\(name): \(command) left files behind")
            }
            let out = workspace.path + "/out"
            for command in [["report", trace, "--format", "html", "-o", out + ".html"], ["export", trace, "--format", "ctf", "-o", out + ".ctf"]] {
                let result = try LifetraceCommand.run(command)
                #expect((0...3).contains(result.status), "\(name): \(command): \(result.error)")
            }
        }
    }

    /// Imports the sample run into `x.ltrace` in `workspace` and returns its bytes.
    static func importedSample(into workspace: Workspace) throws -> [UInt8] {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/runs/cold-launch-scenes.jsonl").path
        let output = workspace.path + "/x.ltrace"
        try LifetraceCommand.run(["import", source, "-o", output]).expectStatus(0)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
    }
}

extension LifetraceCommand.Result {
    /// Expects `status`, showing standard error otherwise.
    func expectStatus(_ status: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(self.status == status, "\(error)", sourceLocation: sourceLocation)
    }
}
