import Foundation
import LifetraceFormat
import Testing

/// What reading stack records costs, counted (no timing): a trace that defines its deep stacks
/// again in every chunk walks each distinct frame once, and the frames walked per trace are
/// bounded by ``SampledStacks/maxWalkedFrames`` (docs/FORMAT.md, "Stack samples").
struct StackRecordCostTests {
    /// 64 stacks of 1,024 frames, 8,192 samples taken in turn, written in 16 KiB chunks: every
    /// chunk defines again the stacks of its samples.
    static func repeatedDeepStacks() throws -> [UInt8] {
        let frames = (0..<64).map { stack in (0..<1024).map { 0x4000_0000 + UInt64(stack * 1024 + $0) * 16 } }
        return try BinaryTraceFixture.write(
            [TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: 1))], symbols: SymbolTable(),
            options: .init(chunkSize: 16 << 10)
        ) { writer in
            try writer.appendImage(LoadedImage(timestamp: 1, path: "/app/Hostile", buildID: "", base: 0x4000_0000, size: 1 << 30))
            for sample in 0..<8192 {
                try writer.appendSample(timestamp: 10 + Int64(sample), thread: .main, frames: frames[sample % 64])
            }
        }
    }

    @Test("a trace that defines its deep stacks again in every chunk walks each distinct frame once, not once per definition")
    func redefinedStacksWalkTheirFramesOnce() throws {
        let bytes = try Self.repeatedDeepStacks()
        let (_, reader) = try BinaryTraceFixture.read(bytes)
        let stacks = reader.sampledStacks
        #expect(reader.issues.isEmpty)
        #expect(stacks.samples.count == 8192)
        #expect(stacks.nodes.count == 64 * 1024)
        #expect(stacks.lostRecords == nil)
        // Each 16 KiB chunk holds a few definitions, so the 8,192 samples' stacks are defined
        // again hundreds of times (4,096 frames a chunk at most): walked one lookup per frame,
        // that was millions of lookups.
        #expect(stacks.walkedFrames == stacks.nodes.count)
        for (index, sample) in stacks.samples.enumerated().prefix(256) {
            #expect(stacks.frames(of: sample.stack) == (0..<1024).map { 0x4000_0000 + UInt64((index % 64) * 1024 + $0) * 16 })
        }
    }

    @Test("a stack record seen before interns to the node it interned to, its walk counted once")
    func aRecordSeenBeforeGivesTheSameNode() {
        var stacks = SampledStacks()
        let outer: [UInt64] = [0x10, 0x20, 0x30, 0x40]
        let inner: [UInt64] = [0x50, 0x60, 0x70, 0x80, 0x90]
        let first = stacks.intern(outer)
        let deep = stacks.intern(inner, under: first)
        // The same frames under another parent are another stack.
        let elsewhere = stacks.intern(inner)
        #expect(stacks.walkedFrames == 14)
        #expect(stacks.intern(outer) == first)
        #expect(stacks.intern(inner, under: first) == deep)
        #expect(stacks.intern(inner) == elsewhere)
        #expect(deep != elsewhere)
        #expect(stacks.walkedFrames == 14)
        // Short records are walked (a lookup or two costs what a hash does): same nodes.
        #expect(stacks.intern([0x10, 0x20]) == stacks.nodes.firstIndex { $0.address == 0x20 })
        #expect(stacks.walkedFrames == 16)
        #expect(stacks.frames(of: deep!) == outer + inner)
    }

    @Test("stack records past the frames a reader walks per trace are counted as lost, and named in the loss note")
    func recordsPastTheWalkBudgetAreLost() {
        var stacks = SampledStacks()
        let depth = SampledStacks.maxDepth
        func frames(_ stack: Int) -> [UInt64] { (0..<depth).map { UInt64(stack * depth + $0) * 16 + 0x1000 } }
        // Distinct stacks fill the frame nodes; past them, each new record is walked (and
        // charged) but not kept, until the budget is spent.
        let budgeted = SampledStacks.maxWalkedFrames / depth
        let kept = stacks.intern(frames(0))
        for stack in 1..<budgeted { _ = stacks.intern(frames(stack)) }
        #expect(stacks.nodes.count == SampledStacks.maxNodes)
        #expect(stacks.walkedFrames == SampledStacks.maxWalkedFrames)
        #expect(stacks.lostStackRecords == 0)
        #expect(stacks.intern(frames(budgeted)) == nil)
        stacks.addSample(timestamp: 0, thread: .main, stack: nil)
        #expect(stacks.lostStackRecords == 1)
        #expect(stacks.walkedFrames == SampledStacks.maxWalkedFrames)
        // A record seen before still costs no walk and keeps its node.
        #expect(stacks.intern(frames(0)) == kept)
        #expect(stacks.lostRecords == "1 stack sample (a reader keeps 262144 samples and 262144 distinct frames of a trace), "
            + "1 stack record (a reader looks up 33554432 frames of a trace's stack records)")
    }
}
