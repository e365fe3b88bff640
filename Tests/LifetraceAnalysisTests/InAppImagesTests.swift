import LifetraceFormat
import Testing
@testable import LifetraceAnalysis

/// Which frames are the app's own (``InAppImages``) and what the blame names with them.
struct InAppImagesTests {
    @Test func theSystemsImagesAreNotTheAppsOnEitherPlatform() {
        let rules = InAppImages()
        for system in [
            "/lib/x86_64-linux-gnu/libc.so.6", "/opt/swift/usr/lib/swift/linux/libswiftCore.so", "/usr/lib/system/libdispatch.dylib",
            "/usr/lib/swift/libswiftCore.dylib", "/usr/lib/dyld", "/System/Library/Frameworks/UIKit.framework/UIKit",
            "/Library/Developer/CoreSimulator/Volumes/iOS/RuntimeRoot/System/Library/Frameworks/UIKit.framework/UIKit",
        ] {
            #expect(!rules.isInApp(system), "\(system)")
        }
        for app in [
            "/private/var/containers/Bundle/Application/1A2B/Notes.app/Notes",
            "/private/var/containers/Bundle/Application/1A2B/Notes.app/Frameworks/NotesKit.framework/NotesKit",
            "/work/app/.build/debug/SampleApp",
        ] {
            #expect(rules.isInApp(app), "\(app)")
        }
    }

    @Test func patternsComeFirstInAppBeforeNotInApp() {
        let rules = InAppImages(included: ["Notes*", "/opt/vendor/*/libnotes?.so"], excluded: ["*"])
        #expect(rules.isInApp("/x/Notes.app/Notes"))
        #expect(rules.isInApp("/x/Notes.app/Frameworks/NotesKit.framework/NotesKit"))
        #expect(rules.isInApp("/opt/vendor/a/b/libnotes2.so"))
        #expect(!rules.isInApp("/opt/vendor/a/b/libnotes22.so"))
        #expect(!rules.isInApp("/x/Notes.app/Frameworks/Analytics.framework/Analytics"))
        // A framework of the app's own installed where the system's are.
        #expect(InAppImages(included: ["/usr/lib/libmine.so"]).isInApp("/usr/lib/libmine.so"))
        #expect(!InAppImages().isInApp("/usr/lib/libmine.so"))
    }

    static let witness: UInt64 = 0x1400

    /// Samples inside a protocol witness the compiler made in the app's image, called by the
    /// app's function: the blame names the function, and the witness as the leaf.
    @Test func codeTheCompilerMadeIsNotTheAppsOwn() throws {
        var stacks = SampledStacks()
        stacks.addImage(StallSamplePassTests.app)
        let (main, rebuild) = (StallSamplePassTests.main, StallSamplePassTests.rebuild)
        let shapes = Array(repeating: [main, rebuild, Self.witness], count: 7) + Array(repeating: [main, rebuild], count: 2)
        for (index, frames) in shapes.enumerated() {
            stacks.addSample(timestamp: Int64(index) * 10_000_000, thread: .main, stack: stacks.intern(frames))
        }
        let names = TraceSymbolNames(stacks: stacks, symbols: [
            main: FrameSymbol(function: "main", file: "main.swift", line: 3),
            rebuild: FrameSymbol(function: "SearchIndex.init(notes:)", file: "SearchIndex.swift", line: 31),
            Self.witness: FrameSymbol(
                function: "protocol witness for Collection.subscript.read in conformance String.UTF8View",
                file: TraceSymbolNames.compilerGenerated, line: 0),
        ])
        let profile = try #require(StallSamplePass.profile(start: 0, duration: 100_000_000, stacks: stacks, names: names.name))
        #expect(profile.blameLine == "9 of 9 stack samples in SearchIndex.init(notes:) (SearchIndex.swift:31), most in protocol witness for Collection.subscript.read in conformance String.UTF8View")
        #expect(profile.blameLeaf?.samples == 7)
        #expect(profile.flame.nodes.first { $0.frame.function.hasPrefix("protocol witness") }?.frame.isApp == false)
        #expect(profile.flame.nodes.first { $0.frame.function.hasPrefix("SearchIndex") }?.frame.isApp == true)
        // The image rules decide too: with the app's image not in-app, nothing is blamed.
        let none = TraceSymbolNames(stacks: stacks, symbols: names.symbols, inApp: InAppImages(excluded: ["MyApp"]))
        #expect(StallSamplePass.profile(start: 0, duration: 100_000_000, stacks: stacks, names: none.name)?.blame == nil)
    }
}
