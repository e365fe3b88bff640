import Foundation
import LifetraceFormat
import Testing
@testable import LifetraceAnalysis
import LifetraceTestSupport

/// The pass that gives each stall its stack samples (``StallSamplePass``).
struct StallSamplePassTests {
    static let app = LoadedImage(timestamp: 0, path: "/build/MyApp", buildID: "ab", base: 0x1000, size: 0x1000)
    static let libc = LoadedImage(timestamp: 0, path: "/lib/x86_64-linux-gnu/libc.so.6", buildID: "", base: 0x9000, size: 0x1000)
    static let main: UInt64 = 0x1010
    static let rebuild: UInt64 = 0x1200
    static let memcpy: UInt64 = 0x9100
    static let other: UInt64 = 0x1300

    /// Samples at 10 ms from 60 ms: 8 in rebuild (6 of them inside memcpy), 2 in another app function.
    static func stacks() -> SampledStacks {
        var stacks = SampledStacks()
        stacks.addImage(app)
        stacks.addImage(libc)
        let shapes: [[UInt64]] = Array(repeating: [main, rebuild, memcpy], count: 6) + Array(repeating: [main, rebuild], count: 2)
            + Array(repeating: [main, other], count: 2)
        for (index, frames) in shapes.enumerated() {
            stacks.addSample(timestamp: 60_000_000 + Int64(index) * 10_000_000, thread: .main, stack: stacks.intern(frames))
        }
        // Another thread's sample in the same time is not the main thread's.
        stacks.addSample(timestamp: 70_000_000, thread: .numbered(1), stack: stacks.intern([other]))
        return stacks
    }

    static func names(_ stacks: SampledStacks) -> TraceSymbolNames {
        TraceSymbolNames(stacks: stacks, symbols: [
            main: FrameSymbol(function: "main", file: "main.swift", line: 3),
            rebuild: FrameSymbol(function: "SearchIndex.rebuild()", file: "SearchIndex.swift", line: 12),
            memcpy: FrameSymbol(function: "memcpy"),
            other: FrameSymbol(function: "Cache.warm()", file: "Cache.swift", line: 40),
        ])
    }

    @Test func theBlameNamesTheAppsHottestFunctionNotTheCLibrary() throws {
        let stacks = Self.stacks()
        let profile = try #require(StallSamplePass.profile(start: 0, duration: 200_000_000, stacks: stacks, names: Self.names(stacks).name))
        #expect(profile.sampleCount == 10)
        #expect(profile.hottestSelf.first?.frame.function == "memcpy")
        #expect(profile.hottestSelf.first?.samples == 6)
        #expect(profile.hottestTotal.first?.frame.function == "main")
        #expect(profile.hottestTotal.first?.samples == 10)
        #expect(profile.blame?.frame.function == "SearchIndex.rebuild()")
        #expect(profile.blameLine == "8 of 10 stack samples in SearchIndex.rebuild() (SearchIndex.swift:12), most in memcpy")
        #expect(profile.blameLeaf?.samples == 6)
        #expect(profile.heaviestStack.map(\.function) == ["memcpy", "SearchIndex.rebuild()", "main"])
        #expect(profile.heaviestCount == 6)
    }

    @Test func onlyTheStallsSamplesCount() {
        let stacks = Self.stacks()
        // From 120 ms: the last two samples of rebuild's and the two of Cache.warm.
        let profile = StallSamplePass.profile(start: 120_000_000, duration: 40_000_000, stacks: stacks, names: Self.names(stacks).name)
        #expect(profile?.sampleCount == 4)
        #expect(profile?.blame?.frame.function == "Cache.warm()")
        #expect(StallSamplePass.profile(start: 0, duration: 50_000_000, stacks: stacks, names: Self.names(stacks).name) == nil)
    }

    @Test func withoutSymbolsFramesAreImageAndOffset() {
        let stacks = Self.stacks()
        let profile = StallSamplePass.profile(start: 0, duration: 200_000_000, stacks: stacks, names: TraceSymbolNames(stacks: stacks).name)
        #expect(profile?.blame?.frame.function == "MyApp+0x200")
        #expect(profile?.hottestSelf.first?.frame.function == "libc.so.6+0x100")
        #expect(profile?.hottestSelf.first?.frame.isApp == false)
    }

    @Test func theLaunchStallOfATraceWithSamplesNamesTheFunction() throws {
        var symbols = SymbolTable()
        let name = symbols.intern("didFinishLaunching")
        let events = [
            TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: 1)),
            TraceEvent(timestamp: 1_000_000, payload: .runloopWake),
            TraceEvent(timestamp: 2_000_000, payload: .callbackBegin(name: name, scene: .none)),
            TraceEvent(timestamp: 500_000_000, payload: .callbackEnd(name: name, scene: .none)),
            TraceEvent(timestamp: 501_000_000, payload: .runloopSleep),
        ]
        var analysis = LifecycleAnalyzer.analyze(events, symbols: symbols)
        let stall = try #require(analysis.lifetimes.first?.stalls.first)
        let stacks = Self.stacks()
        let profiles = StallSamplePass.annotate(
            &analysis, stalls: [(stall.start, stall.duration)], stacks: stacks, names: Self.names(stacks).name)
        #expect(profiles.count == 1)
        let message = analysis.violations.first { $0.rule == .launchStall }?.message ?? ""
        #expect(message.hasSuffix("Stack samples: 8 of 10 stack samples in SearchIndex.rebuild() (SearchIndex.swift:12), most in memcpy."), "\(message)")
    }

    @Test func aTraceWithoutSamplesIsLeftAsItIs() {
        var analysis = LifecycleAnalyzer.analyze([], symbols: SymbolTable())
        #expect(StallSamplePass.annotate(&analysis, stalls: [(0, 1)], stacks: SampledStacks(), names: { _ in FrameName(function: "", isApp: false) }).isEmpty)
    }

    @Test func systemImagesAreNotTheApps() {
        #expect(TraceSymbolNames.isSystemImage("/lib/x86_64-linux-gnu/libc.so.6"))
        #expect(TraceSymbolNames.isSystemImage("/opt/swift/usr/lib/swift/linux/libswiftCore.so"))
        #expect(TraceSymbolNames.isSystemImage("/usr/lib/swift/linux/libFoundation.so"))
        #expect(!TraceSymbolNames.isSystemImage("/work/app/.build/debug/SampleApp"))
    }
}
