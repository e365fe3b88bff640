import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Apple images symbolicated on Linux from their symbol files, matched by `LC_UUID`: a real arm64
/// Mach-O executable and its dSYM (``MachOFixture``), named by a device-shaped trace at a
/// made-up load address.
@Suite struct AppleSymbolFilesTests {
    /// The load address the trace gives the image (dyld's slide of a device).
    static let loadAddress: UInt64 = 0x1_0480_4000
    /// Where the image lay on the device: no file here.
    static let devicePath = "/private/var/containers/Bundle/Application/5E2D/Work.app/Work"

    typealias Built = MachOFixture.Built

    /// Builds the fixture (``MachOFixture``) in `directory`.
    static func build(_ directory: String, name: String = "Work", extra: String = "") throws -> Built {
        try MachOFixture.build(directory, name: name, extra: extra)
    }

    static func temporaryDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("apple-symbols-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A device trace's samples: one stack interrupted on line 4 of `busy`.
    static func stacks(uuid: String, built: Built) -> (stacks: SampledStacks, address: UInt64) {
        var stacks = SampledStacks()
        stacks.addImage(LoadedImage(timestamp: 0, path: devicePath, buildID: uuid, base: loadAddress, size: 0x4000))
        let address = loadAddress + (built.lineFour - built.text)
        stacks.addSample(timestamp: 1, thread: .main, stack: stacks.intern([address]))
        return (stacks, address)
    }

    @Test func aDeviceTracesFramesAreNamedFromTheDSYMWithTheImagesUUID() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try Self.build(directory)
        #expect(MachOSymbolFile.read(path: built.dsym + "/Contents/Resources/DWARF/Work").map(\.uuid) == [built.uuid])
        let (stacks, address) = Self.stacks(uuid: built.uuid, built: built)
        // The bundle, the folder holding it, and the unstripped executable each serve.
        for given in [built.dsym, directory, built.executable] {
            let found = try Symbolizer(symbolFiles: [given]).symbolizeWithNotes(stacks)
            #expect(found.symbols[address] == FrameSymbol(function: "busy", file: "Work.c", line: 4), "\(given): \(found)")
            #expect(found.notes.isEmpty, "\(given): \(found.notes)")
        }
        // Without the symbol files, the image is named once, with its UUID, and nothing else.
        let none = try Symbolizer().symbolizeWithNotes(stacks)
        #expect(none.symbols.isEmpty)
        #expect(none.notes == [
            "the stack samples' frames in 1 image could not be symbolicated: \(Self.devicePath) (file missing, and no symbol file given has its UUID \(built.uuid))",
        ])
    }

    @Test func aDSYMOfAnotherBuildNamesNoFrame() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try Self.build(directory)
        let other = try Self.build(directory, name: "Other", extra: "int unused(void) { return 7; }\n")
        #expect(other.uuid != built.uuid)
        let (stacks, address) = Self.stacks(uuid: built.uuid, built: built)
        let found = try Symbolizer(symbolFiles: [other.dsym]).symbolizeWithNotes(stacks)
        #expect(found.symbols[address] == nil)
        #expect(found.notes == [
            "the stack samples' frames in 1 image could not be symbolicated: \(Self.devicePath) (file missing, and no symbol file given has its UUID \(built.uuid))",
            "symbol file not used, no image of the trace has its UUID: \(other.dsym)/Contents/Resources/DWARF/Other (\(other.uuid))",
        ])
    }

    /// A symbol file path that is no regular file is named, never opened: a FIFO would block.
    @Test func aFIFOGivenAsSymbolFileIsNamedNotOpened() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/symbols.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let files = SymbolFiles(paths: [fifo, directory + "/missing.dSYM"])
        #expect(files.byUUID.isEmpty)
        #expect(files.problems == [
            "\(fifo): holds no Mach-O file with a UUID (a .dSYM bundle, or an unstripped Mach-O file)",
            "\(directory)/missing.dSYM: no such symbol file or folder",
        ])
    }

    /// `symbolicate --symbols` writes the names into the trace: its readers need no dSYM.
    @Test func symbolicateWritesTheNamesIntoTheTrace() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let built = try Self.build(directory)
        let (stacks, address) = Self.stacks(uuid: built.uuid, built: built)
        let trace = directory + "/device.ltrace", named = directory + "/named.ltrace"
        let writer = try TraceWriter(path: trace, metadata: TraceMetadata([("app", "Work")]))
        try writer.append(TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: 1)), symbols: SymbolTable())
        try writer.appendSampledStacks(stacks)
        try writer.close()
        let result = try HostileRecoveryTests.lifetrace(["symbolicate", trace, "-o", named, "--symbols", built.dsym], in: directory)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("1 of 1 sampled addresses resolved"), "\(result.error)")
        var reader = try BinaryTraceReader(path: named)
        while try reader.next() != nil {}
        #expect(reader.sampledStacks.symbols[address] == FrameSymbol(function: "busy", file: "Work.c", line: 4))
    }
}
