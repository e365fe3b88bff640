import Foundation
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Stack samples built to make `check`'s memory or time grow with what a small trace claims
/// (docs/RELIABILITY.md): the reader keeps what its limits allow and says so once, the stall
/// pass walks a bounded number of frames, and the whole command runs within 64 MiB of data.
@Suite struct HostileStackSamplesTests {
    typealias Workspace = HostileInputTests.Workspace

    /// The `note:` lines of `check`'s text output that speak of stack samples.
    static func sampleNotes(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.hasPrefix("  note: ") && $0.contains("stack sample") }
    }

    @Test("4,000 stacks of 1,024 distinct frames (17 KB): check keeps 2^18 frames, says so once, and runs within 64 MiB")
    func distinctFramesWithinMemory() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/frames.ltrace"
        try HostileStackTraces.distinctFrames(path: trace)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int)
        #expect(size < 64 << 10)
        let result = try HostileNamesTests.runWithin64MiB(["check", trace])
        // The launch stalls 2 s: the check fails on that rule, not on memory.
        #expect(result.status == 1, "\(result.error.suffix(300))")
        #expect(result.output.contains("launch-stall"), "\(result.output.prefix(1000))")
        let notes = Self.sampleNotes(result.output)
        #expect(notes.count == 2, "\(result.output.prefix(3000))")
        #expect(notes.first?.contains("3744 stack samples (a reader keeps \(SampledStacks.maxSamples) samples and \(SampledStacks.maxNodes) distinct frames of a trace)") == true, "\(notes)")
        #expect(notes.last?.contains("walked only in part: the stall sample pass walks at most \(1 << 16) frames of a stall") == true, "\(notes)")
        // The frames lie in no image: they are shown as bare addresses.
        let json = try HostileNamesTests.runWithin64MiB(["check", trace, "--format", "json"])
        #expect(json.status == 1, "\(json.error.suffix(300))")
        #expect(json.output.contains("\"0x5555"), "\(json.output.prefix(3000))")
        #expect(json.output.contains("\"stackSamples\"") && json.output.contains("distinct frames of a trace"), "\(json.output.suffix(3000))")
    }

    @Test("a million distinct stacks: check keeps 2^18 of them, says so once, and runs within 64 MiB")
    func millionDistinctStacksWithinMemory() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/stacks.ltrace"
        try HostileStackTraces.distinctStacks(path: trace, stacks: 1_000_000)
        let result = try HostileNamesTests.runWithin64MiB(["check", trace])
        #expect(result.status == 1, "\(result.error.suffix(300))")
        let notes = Self.sampleNotes(result.output)
        // Symbols by default: the image's file is not here, and one note says so.
        #expect(notes.count == 3, "\(result.output.prefix(3000))")
        // One node is the shared outermost frame: 2^18 - 1 stacks are kept.
        let lost = 1_000_000 - (SampledStacks.maxNodes - 1)
        #expect(notes.first?.contains("\(lost) stack samples (a reader keeps") == true, "\(notes)")
        #expect(notes.contains { $0.contains("walked only in part") }, "\(notes)")
        #expect(notes.contains { $0.contains("frames in 1 image could not be symbolicated: /app/Hostile (file missing)") }, "\(notes)")
        #expect(result.output.contains("launch-stall"))
    }
}
