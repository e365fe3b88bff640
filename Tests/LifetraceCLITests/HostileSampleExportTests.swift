import Foundation
import LifetraceTestSupport
import Testing

/// Exports of stack samples built to make memory grow with what a small trace claims
/// (docs/RELIABILITY.md), and the staged output files an export that fails leaves behind.
@Suite struct HostileSampleExportTests {
    typealias Workspace = HostileInputTests.Workspace

    /// The files of `directory`, hidden (staged) ones included.
    static func files(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test("64 stacks of 1,024 frames, 32,768 samples: the Perfetto export runs within 64 MiB and leaves no staged file")
    func perfettoExportOfManySamplesOfDeepStacksWithinMemory() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/deep.ltrace"
        try HostileStackTraces.repeatedDeepStacks(path: trace)
        let outputs = workspace.path + "/out"
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        let output = outputs + "/deep.pftrace"
        let result = try HostileNamesTests.runWithin64MiB(["export", trace, "--format", "perfetto", "-o", output])
        #expect(result.status == 0, "\(result.error.suffix(300))")
        #expect(try Self.files(outputs) == ["deep.pftrace"])
        // Every sample is a packet of its own, after the 65,536 frames' interned data. Before,
        // each sample's packet kept an encoder's worth of storage: 173 MB, aborted under the
        // limit with the staged file left behind.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
        #expect(size > (1 << 15) * 16 + (1 << 16) * 8)
    }

    @Test("an export that cannot write its output fails with one line and leaves no staged file")
    func failedPerfettoExportLeavesNoStagedFile() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/deep.ltrace"
        try HostileStackTraces.repeatedDeepStacks(path: trace, stacks: 16, samples: 4096)
        let outputs = workspace.path + "/out"
        try FileManager.default.createDirectory(atPath: outputs, withIntermediateDirectories: true)
        // A file size limit of 200 KiB, its signal ignored: the write past it fails (EFBIG).
        let result = try ChildProcess.run(
            "/bin/sh", ["-c", "trap '' XFSZ; ulimit -f 400 && exec \"$0\" \"$@\"", LifetraceCommand.path, "export", trace, "--format", "perfetto", "-o",
                        outputs + "/deep.pftrace"])
        #expect(result.status != 0)
        #expect(result.error.contains("deep.pftrace"), "\(result.error)")
        #expect(try Self.files(outputs) == [])
    }
}
