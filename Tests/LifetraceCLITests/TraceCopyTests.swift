import Foundation
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// `import` and `symbolicate` copy a trace: nothing is lost without a word (what the reader's
/// limits kept out is named, marks the copy and ends with exit status 2), and the copy's stack records grow with the
/// frames its samples use, not with the samples times their depth (docs/CLI.md, "Copies of a
/// trace"; docs/FORMAT.md, "Stack samples").
@Suite struct TraceCopyTests {
    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    /// The `raw size` of `info` on `path`: the bytes of its records before compression.
    static func rawSize(_ path: String) throws -> Int {
        let info = try run(["info", path])
        let line = try #require(info.output.split(separator: "\n").first { $0.hasPrefix("raw size:") }, "\(info.output)")
        return try #require(Int(line.split(separator: " ")[2]), "\(line)")
    }

    @Test("import of a trace whose samples pass the reader's limits names the input, the count and the limit, and marks the copy")
    func importSaysWhatTheLimitsKeptOut() throws {
        let directory = try ScratchDirectory.make("copy-limits")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/frames.ltrace", copy = directory + "/copy.ltrace"
        try HostileStackTraces.distinctFrames(path: trace)
        let imported = try Self.run(["import", trace, "-o", copy])
        #expect(imported.status == 2, "\(imported.error)")
        let warning = "lifetrace: \(trace): 3744 stack samples (a reader keeps \(SampledStacks.maxSamples) samples and "
            + "\(SampledStacks.maxNodes) distinct frames of a trace) were past the reader's limits and are not in the copy, "
            + "which is marked as missing data"
        #expect(imported.error.split(separator: "\n").map(String.init) == [warning], "\(imported.error)")
        let info = try Self.run(["info", copy])
        #expect(!info.output.contains("integrity:  ok"), "\(info.output)")
        #expect(info.output.contains("integrity:  1 problem, closed"), "\(info.output)")
        #expect(info.output.contains("sealed with data missing"), "\(info.output)")
        let check = try Self.run(["check", copy])
        #expect(check.status == 2, "\(check.output)")
        // A trace within the limits is copied without a word, and whole.
        let small = directory + "/small.ltrace", smallCopy = directory + "/small-copy.ltrace"
        try HostileStackTraces.distinctFrames(path: small, stacks: 10, depth: 8)
        let whole = try Self.run(["import", small, "-o", smallCopy])
        #expect(whole.status == 0 && whole.error.isEmpty, "\(whole.error)")
        #expect(try Self.run(["info", smallCopy]).output.contains("integrity:  ok, closed"))
    }

    @Test("symbolicate of a trace whose samples pass the reader's limits says so and marks the copy",
        .enabled(if: ChildProcess.onPath("llvm-symbolizer") != nil || ChildProcess.onPath("addr2line") != nil))
    func symbolicateSaysWhatTheLimitsKeptOut() throws {
        let directory = try ScratchDirectory.make("copy-limits")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = directory + "/frames.ltrace", copy = directory + "/copy.ltrace"
        try HostileStackTraces.distinctFrames(path: trace)
        let symbolicated = try Self.run(["symbolicate", trace, "-o", copy])
        #expect(symbolicated.status == 2, "\(symbolicated.error)")
        #expect(symbolicated.error.contains(
            "lifetrace: \(trace): 3744 stack samples (a reader keeps \(SampledStacks.maxSamples) samples"), "\(symbolicated.error)")
        #expect(symbolicated.error.contains("are not in the copy, which is marked as missing data"), "\(symbolicated.error)")
        let info = try Self.run(["info", copy])
        #expect(info.output.contains("integrity:  1 problem, closed"), "\(info.output)")
    }

    /// A text trace of `leaves` stacks that share their outer `depth` frames and differ in the
    /// innermost, sampled `samples` times in turn over a 2 s launch stall: the shape that made a
    /// copy define every stack whole, sample after sample, once its stacks no longer fit a chunk.
    static func sharedPrefixTrace(depth: Int, leaves: Int, samples: Int) -> String {
        var lines = [
            #"{"type":"meta","app":"com.example.shared"}"#, #"{"ts":0,"type":"launch","reason":"user","pid":1}"#,
            #"{"ts":1000000,"type":"runloop.wake"}"#, #"{"ts":2000000,"type":"callback.begin","name":"didFinishLaunching"}"#,
        ]
        let hex = { (value: UInt64) in "\"0x" + String(value, radix: 16) + "\"" }
        lines.append(#"{"type":"stack","id":1,"frames":["# + (0..<depth).map { hex(0x5555_0000_0000 + UInt64($0) * 16) }.joined(separator: ",") + "]}")
        for leaf in 0..<leaves {
            lines.append(#"{"type":"stack","id":\#(leaf + 2),"parent":1,"frames":[\#(hex(0x5556_0000_0000 + UInt64(leaf) * 16))]}"#)
        }
        for sample in 0..<samples {
            lines.append(#"{"ts":\#(2_001_000 + sample * 200_000),"type":"sample","stack":\#(2 + sample % leaves)}"#)
        }
        lines.append(#"{"ts":2002000000,"type":"callback.end","name":"didFinishLaunching"}"#)
        lines.append(#"{"ts":2002001000,"type":"runloop.sleep"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("import of stacks sharing 300 frames defines the shared frames once a chunk: raw records at most the text's size, read back the same")
    func importDefinesSharedFramesOnce() throws {
        let directory = try ScratchDirectory.make("copy-size")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = directory + "/shared.jsonl", copy = directory + "/shared.ltrace"
        let content = Self.sharedPrefixTrace(depth: 300, leaves: 1000, samples: 5000)
        try content.write(toFile: text, atomically: true, encoding: .utf8)
        let imported = try Self.run(["import", text, "-o", copy])
        #expect(imported.status == 0 && imported.error.isEmpty, "\(imported.error)")
        // Defined whole per sample, the 5,000 samples took 1.6 MB of records (5.5 times the 294 KB
        // of text); defined by segments, 37 KB (89 KB in 4 KiB chunks).
        let raw = try Self.rawSize(copy)
        #expect(raw <= content.utf8.count, "\(raw) bytes of records for \(content.utf8.count) bytes of text")
        // With the smallest chunks too: each chunk defines the shared frames again, and only them.
        let small = directory + "/shared-4k.ltrace"
        #expect(try Self.run(["import", text, "-o", small, "--chunk-size", "4096"]).status == 0)
        let smallRaw = try Self.rawSize(small)
        #expect(smallRaw <= content.utf8.count, "\(smallRaw) bytes of records for \(content.utf8.count) bytes of text")

        for binary in [copy, small] {
            for arguments in [["check", "--format", "json"], ["export", "--format", "folded", "-o", "-"], ["dump"]] {
                let original = try Self.run([arguments[0], text] + arguments.dropFirst())
                let read = try Self.run([arguments[0], binary] + arguments.dropFirst())
                #expect(original.status == read.status)
                #expect(!original.output.isEmpty)
                let expected = arguments[0] == "dump" ? original.output : original.output.replacingOccurrences(of: text, with: binary)
                #expect(read.output == expected, "\(arguments[0]) of \(binary) differs from the text trace's")
            }
        }
    }
}
