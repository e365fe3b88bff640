import LifetraceFormat
import Synchronization
import Testing
@testable import LifetraceAnalysis

/// Frames are named once per trace (``StallSampleWalk``): stalls that share addresses do not
/// name them again, however many distinct frames the stalls walked in between.
struct StallSampleNamesTests {
    /// Two sets of 65 stacks of 1,024 distinct frames (past the 65,536 a stall walks), each set
    /// sampled in turn by `stalls` stalls of 1 s; the frames in 16 images.
    static func alternatingStalls(_ stalls: Int) -> (stacks: SampledStacks, intervals: [(start: Int64, duration: Int64)]) {
        var stacks = SampledStacks()
        for image in 0..<16 {
            stacks.addImage(LoadedImage(timestamp: 0, path: "/app/lib\(image).so", buildID: "", base: 0x1000_0000 + UInt64(image) << 24, size: 1 << 24))
        }
        var sets: [[Int]] = [[], []]
        for set in 0..<2 {
            for stack in 0..<65 {
                let frames = (0..<1024).map { frame -> UInt64 in
                    let index = UInt64((set * 65 + stack) * 1024 + frame)
                    return 0x1000_0000 + (index % 16) << 24 + (index / 16) * 16
                }
                sets[set].append(stacks.intern(frames)!)
            }
        }
        var intervals: [(start: Int64, duration: Int64)] = []
        for stall in 0..<stalls {
            let start = Int64(stall) * 2_000_000_000
            intervals.append((start, 1_000_000_000))
            for (index, stack) in sets[stall % 2].enumerated() {
                stacks.addSample(timestamp: start + 1_000 + Int64(index) * 1_000, thread: .main, stack: stack)
            }
        }
        return (stacks, intervals)
    }

    @Test("6 stalls over two sets of 66,560 frames: each frame is named once for the trace")
    func framesAreNamedOncePerTrace() {
        let (stacks, intervals) = Self.alternatingStalls(6)
        let names = TraceSymbolNames(stacks: stacks)
        let calls = Mutex(0)
        var walk = StallSampleWalk(stacks: stacks) { address in
            calls.withLock { $0 += 1 }
            return names.name(address)
        }
        var profiles: [StallProfile] = []
        for interval in intervals {
            if let profile = walk.profile(start: interval.start, duration: interval.duration) { profiles.append(profile) }
        }
        #expect(profiles.count == 6)
        // Each stall walks 64 of its 65 stacks (65,536 frames): the two sets' 131,072 frames,
        // named once each (the heaviest stack's, all walked, add none).
        #expect(calls.withLock { $0 } == 2 * StallSamplePass.stallFrameLimit)
        #expect(profiles[0].flame == profiles[2].flame && profiles[1].flame == profiles[3].flame)
        #expect(profiles[0].hottestSelf.first?.frame.function.hasPrefix("lib") == true)
    }
}
