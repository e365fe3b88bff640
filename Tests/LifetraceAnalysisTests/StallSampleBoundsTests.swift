import LifetraceFormat
import Testing
@testable import LifetraceAnalysis

/// The stall sample pass's bounds (``StallSamplePass/stallFrameLimit``): what a hostile trace's
/// stacks cannot make it walk, and the blame of a normal stall left as it was.
struct StallSampleBoundsTests {
    static let app = LoadedImage(timestamp: 0, path: "/build/MyApp", buildID: "", base: 0x1000, size: 0x1000)

    static func names(_ stacks: SampledStacks) -> (UInt64) -> FrameName { TraceSymbolNames(stacks: stacks).name }

    @Test func theMostFrequentStackIsWalkedAndRareDeepStacksPastTheBoundAreNot() throws {
        var stacks = SampledStacks()
        stacks.addImage(Self.app)
        // 100 samples of one app stack, then 200 stacks of 1,024 frames in no image, once each:
        // 204,800 frames, past the 65,536 a stall may walk.
        let hot = stacks.intern([0x1010, 0x1200])
        for index in 0..<100 { stacks.addSample(timestamp: Int64(index), thread: .main, stack: hot) }
        for stack in 0..<200 {
            let frames = (0..<1024).map { 0x7F00_0000_0000 + UInt64(stack * 1024 + $0) * 16 }
            stacks.addSample(timestamp: 100 + Int64(stack), thread: .main, stack: stacks.intern(frames))
        }
        var walk = StallSampleWalk(stacks: stacks, names: Self.names(stacks))
        let walked = walk.profile(start: 0, duration: 1_000)
        let profile = try #require(walked)
        #expect(profile.sampleCount == 300)
        // The hot stack walks 2 frames first; 63 deep ones fit in the rest.
        #expect(profile.unwalkedSamples == 200 - (StallSamplePass.stallFrameLimit - 2) / 1024)
        #expect(profile.blame?.frame.function == "MyApp+0x200")
        #expect(profile.blame?.samples == 100)
        #expect(profile.heaviestCount == 100)
        #expect(walk.boundedStalls == 1)
        #expect(StallSamplePass.boundNote(stalls: walk.boundedStalls)?.contains("65536 frames of a stall") == true)
    }

    @Test func samplesOutOfTimeOrderAreFoundByTheirTime() throws {
        var stacks = SampledStacks()
        stacks.addImage(Self.app)
        let a = stacks.intern([0x1010])
        let b = stacks.intern([0x1020])
        for time: Int64 in [50, 10, 40, 20, 30] { stacks.addSample(timestamp: time, thread: .main, stack: time < 35 ? a : b) }
        let profile = try #require(StallSamplePass.profile(start: 15, duration: 20, stacks: stacks, names: Self.names(stacks)))
        // 20 and 30 (stack a): not 10, 40 or 50.
        #expect(profile.sampleCount == 2)
        #expect(profile.hottestSelf.map(\.frame.function) == ["MyApp+0x10"])
        #expect(profile.unwalkedSamples == 0)
    }
}
