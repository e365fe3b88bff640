import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import Testing

/// What the symbolizer makes of frames no function of an image's own code covers (a linker stub,
/// a library without a line table), and what it says of images it could not read.
@Suite struct SymbolizerTests {
    static let base: UInt64 = 0x5570_0000_0000

    /// The sample app's image as a trace records it, at ``base``.
    static func appImage(buildID: String? = nil, path: String = BuiltProducts.path("SampleApp")) -> LoadedImage {
        LoadedImage(
            timestamp: 0, path: path, buildID: buildID ?? Symbolizer.buildID(ofFile: BuiltProducts.path("SampleApp")) ?? "",
            base: base, size: 0x1000_0000)
    }

    /// Stacks of one sample each, outermost frame first.
    static func stacks(_ images: [LoadedImage], samples: [[UInt64]]) -> SampledStacks {
        var stacks = SampledStacks()
        for image in images { stacks.addImage(image) }
        for (index, frames) in samples.enumerated() {
            stacks.addSample(timestamp: Int64(index), thread: ThreadID(rawValue: 0), stack: stacks.intern(frames))
        }
        return stacks
    }

    @Test func aFrameInTheAppsLinkerStubIsNotTheAppsFunction() throws {
        guard Symbolizer.tools().symbolizer != nil else { return }
        let stubs = Symbolizer.linkageStubSections(ofFile: BuiltProducts.path("SampleApp"))
        let plt = try #require(stubs.first)
        // Interrupted in a stub (as a call into libswiftCore goes through one), under main.
        let interrupted = Self.base + plt.lowerBound + 0x10
        let caller = Self.base + plt.upperBound + 0x400
        let stacks = Self.stacks([Self.appImage()], samples: [[caller, interrupted]])
        let symbols = try Symbolizer().symbolize(stacks)
        // Before, the tools' answer was kept: `_init` at "crtstuff.c", of the C runtime.
        #expect(symbols[interrupted]?.function == TraceSymbolNames.linkerStub, "\(String(describing: symbols[interrupted]))")
        #expect(symbols[interrupted]?.file.isEmpty == true)
        let name = TraceSymbolNames(stacks: stacks, symbols: symbols).name(interrupted)
        #expect(!name.isApp)
        #expect(name.location == nil)
    }

    @Test func aFileGuessedFromTheSymbolTableIsNotALocation() throws {
        guard Symbolizer.tools().symbolizer != nil else { return }
        let library = "/opt/swift/usr/lib/swift/linux/libswiftCore.so"
        guard let buildID = Symbolizer.buildID(ofFile: library) else { return }
        // libswiftCore has no line table: the tools name its frames' file after the symbol
        // table's nearest file symbol ("crtstuff.c", "Swift.o").
        let core = LoadedImage(timestamp: 0, path: library, buildID: buildID, base: 0x7F00_0000_0000, size: 0x1000_0000)
        let stacks = Self.stacks([core], samples: [[0x7F00_0023_209F, 0x7F00_0023_201B]])
        let symbols = try Symbolizer().symbolize(stacks)
        #expect(!symbols.isEmpty)
        for (address, symbol) in symbols {
            #expect(symbol.file.isEmpty, "\(String(address, radix: 16)): \(symbol)")
        }
    }

    @Test func imagesThatCouldNotBeSymbolicatedAreNamedOnceWithWhy() throws {
        guard Symbolizer.tools().symbolizer != nil else { return }
        let moved = Self.appImage(path: "/nonexistent/SampleApp2")
        var rebuilt = Self.appImage(buildID: "00112233")
        rebuilt.base = 0x6000_0000_0000
        let stacks = Self.stacks(
            [moved, rebuilt], samples: [[Self.base + 0x30000, Self.base + 0x30100], [rebuilt.base + 0x30000], [Self.base + 0x30200]])
        let (symbols, notes) = try Symbolizer().resolve(stacks)
        #expect(symbols.isEmpty)
        #expect(notes.count == 1)
        let note = notes.first ?? ""
        #expect(note.contains("in 2 images could not be symbolicated"), "\(note)")
        #expect(note.contains("/nonexistent/SampleApp2 (file missing)"), "\(note)")
        #expect(note.contains("(build id differs from the recorded 00112233"), "\(note)")
        // The analysis gives it to the outputs' notes.
        var options = AnalysisOptions()
        options.symbolication = StackSymbolication(Symbolizer())
        #expect(TraceSymbolNames(stacks: stacks, options: options).notes == notes)
    }

    @Test func aDeviceOrAFIFONamedAsAnImageIsNeverReadOrGivenToATool() throws {
        guard Symbolizer.tools().symbolizer != nil else { return }
        let fifo = NSTemporaryDirectory() + "lifetrace-symbolizer-fifo-\(getpid())"
        defer { unlink(fifo) }
        #expect(mkfifo(fifo, 0o600) == 0)
        var device = Self.appImage(path: "/dev/zero")
        device.base = 0x6000_0000_0000
        let pipe = Self.appImage(buildID: "00112233", path: fifo)
        let stacks = Self.stacks([pipe, device], samples: [[Self.base + 0x30000], [device.base + 0x30000]])
        // Reading either would block or never end; each is named once instead.
        let (symbols, notes) = try Symbolizer().resolve(stacks)
        #expect(symbols.isEmpty)
        let note = notes.first ?? ""
        #expect(note.contains("/dev/zero (not a regular file)"), "\(note)")
        #expect(note.contains("\(fifo) (not a regular file)"), "\(note)")
    }
}
