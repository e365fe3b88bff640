import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd
import Testing

/// Apple images symbolicated on Linux from their symbol files, matched by `LC_UUID`: a real arm64
/// Mach-O executable and its dSYM, built here from a small C program with Debian's clang,
/// `ld64.lld-14` and `dsymutil` (`scripts/ensure-deps.sh --tests` installs them), named by a
/// device-shaped trace at a made-up load address.
@Suite struct AppleSymbolFilesTests {
    /// The load address the trace gives the image (dyld's slide of a device).
    static let loadAddress: UInt64 = 0x1_0480_4000
    /// Where the image lay on the device: no file here.
    static let devicePath = "/private/var/containers/Bundle/Application/5E2D/Work.app/Work"

    static let source = """
        int busy(int n) {
            int total = 0;
            for (int i = 0; i < n; i++)
                total += i * 3;
            return total;
        }
        int main(int argc, char **argv) { return busy(argc); }

        """

    /// A Mach-O executable, its dSYM, its UUID and `__TEXT` address, and the address in the file
    /// of the first instruction of line 4 (the loop's body, in `busy`).
    struct Built {
        var executable: String
        var dsym: String
        var uuid: String
        var text: UInt64
        var lineFour: UInt64
    }

    static func tool(_ names: [String]) throws -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in names {
            for directory in path where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        throw Failure(description: "none of \(names) on PATH: run scripts/ensure-deps.sh --tests (clang, lld, llvm)")
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw Failure(description: "\(tool) \(arguments): \(text)") }
        return text
    }

    /// Builds `source` (plus `extra`, which changes the UUID) in `directory` as `name`.
    static func build(_ directory: String, name: String = "Work", extra: String = "") throws -> Built {
        let clang = try tool(["clang-14", "clang"])
        let linker = try tool(["ld64.lld-14", "ld64.lld"])
        let dsymutil = try tool(["dsymutil-14", "dsymutil"])
        let dwarfdump = try tool(["llvm-dwarfdump-14", "llvm-dwarfdump"])
        let objdump = try tool(["llvm-objdump-14", "llvm-objdump"])
        let c = "\(directory)/\(name).c", object = "\(directory)/\(name).o", executable = "\(directory)/\(name)"
        try (source + extra).write(toFile: c, atomically: true, encoding: .utf8)
        try run(clang, ["-target", "arm64-apple-macos11", "-g", "-O0", "-c", c, "-o", object])
        try run(linker, ["-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-e", "_main", "-o", executable, object])
        let dsym = executable + ".dSYM"
        try run(dsymutil, [executable, "-o", dsym])
        // "UUID: 4C4C44A6-5555-3144-A1D5-CC5ADFA55E48 (arm64) Work"
        let uuidLine = try run(dwarfdump, ["--uuid", executable])
        let uuid = try #require(uuidLine.split(separator: " ").dropFirst().first).replacingOccurrences(of: "-", with: "").lowercased()
        let headers = try run(objdump, ["--macho", "--private-headers", executable])
        let textSegment = try #require(headers.components(separatedBy: "segname __TEXT").dropFirst().first)
        let vmaddr = try #require(textSegment.split(separator: "\n").first { $0.contains("vmaddr") }?.split(separator: " ").last)
        let text = try #require(UInt64(vmaddr.dropFirst(2), radix: 16))
        let lines = try run(dwarfdump, ["--debug-line", dsym])
        let row = try #require(lines.split(separator: "\n").first { $0.hasPrefix("0x") && $0.split(separator: " ")[1] == "4" })
        let lineFour = try #require(UInt64(row.split(separator: " ")[0].dropFirst(2), radix: 16))
        return Built(executable: executable, dsym: dsym, uuid: uuid, text: text, lineFour: lineFour)
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
