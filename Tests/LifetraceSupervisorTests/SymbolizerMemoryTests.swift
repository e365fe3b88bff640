import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceTestSupport
import Testing

/// llvm-symbolizer keeps every file it reads loaded until it exits: a small trace naming many
/// large images made one process hold them all (60 files of 30 MB: 1.0 GB). The symbolizer gives
/// a process at most 256 MiB of image files (docs/PERFORMANCE.md, "Symbolication's memory"):
/// run here under an address-space limit of about 1 GB, which one process holding them all
/// exceeds, every image is named.
@Suite struct SymbolizerMemoryTests {
    /// The address space the tool may use, in KiB (`ulimit -v`).
    static let addressSpaceLimit = 1_000_000

    @Test func manyLargeImagesAreNamedUnderAnAddressSpaceLimit() throws {
        let llvm = try MachOFixture.tool(["llvm-symbolizer-14", "llvm-symbolizer"])
        let nm = try MachOFixture.tool(["llvm-nm-14", "llvm-nm"])
        let directory = try AppleSymbolFilesTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The tool on PATH is the real one under the limit.
        let wrapper = directory + "/bin/llvm-symbolizer"
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\nulimit -v \(Self.addressSpaceLimit)\nexec '\(llvm)' \"$@\"\n".write(toFile: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        // Hard links of one large ELF file with debug information: distinct files to the tool,
        // 1.6 GB of them in all.
        let large = BuiltProducts.path("lifetrace")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: large)[.size] as? Int)
        let count = min(200, (1_600 << 20) / size + 1)
        let symbols = try MachOFixture.run(nm, ["--defined-only", large])
        let main = try #require(symbols.split(separator: "\n").first { $0.hasSuffix(" T main") }?.split(separator: " ").first)
        let offset = try #require(UInt64(main, radix: 16))
        var stacks = SampledStacks()
        var addresses: [UInt64] = []
        let buildID = Symbolizer.buildID(ofFile: large) ?? ""
        for index in 0..<count {
            let path = "\(directory)/image\(index)"
            try FileManager.default.linkItem(atPath: large, toPath: path)
            let base = UInt64(index + 1) << 36
            stacks.addImage(LoadedImage(timestamp: 0, path: path, buildID: buildID, base: base, size: UInt64(size)))
            addresses.append(base + offset)
            stacks.addSample(timestamp: Int64(index), thread: .main, stack: stacks.intern([base + offset]))
        }
        let symbolizer = Symbolizer(environment: ["PATH": directory + "/bin"])
        let found = try symbolizer.symbolizeWithNotes(stacks)
        #expect(found.notes.isEmpty, "\(found.notes)")
        // Every image is named, and as the same function (Swift's `main` is the module's).
        let named = addresses.compactMap { found.symbols[$0]?.function }
        #expect(named.count == count, "\(named.count) of \(count) images named")
        #expect(Set(named).count == 1 && named.first?.hasSuffix("main") == true, "\(Set(named))")
    }
}

/// Symbols are on by default, and cost nothing where there is nothing to name: `check` of a
/// trace without stack samples starts no symbolizer.
@Suite struct SymbolizerNotStartedTests {
    @Test func checkOfATraceWithoutSamplesStartsNoSymbolizer() throws {
        let directory = try AppleSymbolFilesTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A symbolizer that leaves a mark when started, first on PATH.
        let mark = directory + "/started"
        try FileManager.default.createDirectory(atPath: directory + "/bin", withIntermediateDirectories: true)
        let tool = directory + "/bin/llvm-symbolizer"
        try "#!/bin/sh\ntouch '\(mark)'\ncat >/dev/null\n".write(toFile: tool, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tool)
        let environment = ProcessInfo.processInfo.environment.merging(["PATH": directory + "/bin:/usr/bin:/bin"]) { $1 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("lifetrace"))
        process.arguments = ["check", "--no-config", SampleRecording.packageRoot.path + "/Samples/traces/launch-stall.fail.jsonl"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(!FileManager.default.fileExists(atPath: mark))
        // The same tool is started for a trace with a frame to name (the mark can appear).
        var stacks = SampledStacks()
        let image = BuiltProducts.path("SampleApp")
        stacks.addImage(LoadedImage(timestamp: 0, path: image, buildID: Symbolizer.buildID(ofFile: image) ?? "", base: 1 << 40, size: 1 << 20))
        stacks.addSample(timestamp: 0, thread: .main, stack: stacks.intern([(1 << 40) + 0x100]))
        _ = try? Symbolizer(environment: environment).symbolizeWithNotes(stacks)
        #expect(FileManager.default.fileExists(atPath: mark))
    }
}
