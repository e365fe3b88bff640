import Foundation
import LifetraceExport
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// The stack samples in the Perfetto export (`PerfSample` packets with interned callstacks),
/// read back with the official protos by scripts/readers/perfetto_samples.py.
@Suite(.enabled(if: ExternalReader.perfettoTestsEnabled))
struct PerfettoSamplesTests {
    struct Sample: Decodable {
        var ts: Int64
        var pid: Int64
        var tid: Int64
        var frames: [String]
    }

    struct Read: Decodable {
        var threads: [[Int64]]
        var samples: [Sample]
    }

    /// The export of `trace`, as the reader sees it; nil (and a recorded issue) without the reader.
    static func read(_ trace: String) throws -> Read? {
        guard ExternalReader.hasPerfettoProtos, let python = ExternalReader.python else {
            ExternalReader.requireMissing("the perfetto Python package (pip install perfetto)")
            return nil
        }
        let output = trace + ".perfetto-trace"
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try TraceExporter.export(path: trace, to: .perfetto, output: output)
        // The timeline reader still reads the whole file.
        let summary = ExternalReader.run(python, [
            ExternalReader.repositoryRoot.appendingPathComponent("scripts/readers/perfetto_summary.py").path, output,
        ])
        #expect(summary.status == 0, "\(summary.error)")
        let result = ExternalReader.run(python, [
            ExternalReader.repositoryRoot.appendingPathComponent("scripts/readers/perfetto_samples.py").path, output,
        ])
        #expect(result.status == 0, "reader failed: \(result.error)")
        return try JSONDecoder().decode(Read.self, from: Data(result.output.utf8))
    }

    @Test func everySampleIsThereWithItsCallstackOnItsThreadsTrack() throws {
        let trace = try FoldedExportTests.trace(samples: true)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        guard let read = try Self.read(trace) else { return }
        #expect(read.samples.count == 11)
        // The main thread's samples are on the main thread's track (its pid and tid).
        let mainTrack = try #require(read.threads.first)
        let main = read.samples.filter { $0.tid == mainTrack[1] && $0.pid == mainTrack[0] }
        #expect(main.count == 10)
        #expect(main.filter { $0.frames == ["main", "SearchIndex.rebuild()", "libc.so.6+0x100"] }.count == 6)
        #expect(main.filter { $0.frames == ["main", "SearchIndex.rebuild()"] }.count == 2)
        #expect(main.filter { $0.frames == ["main", "Cache;warm()"] }.count == 2)
        #expect(main.map(\.ts) == (0..<10).map { 1_000_000 + Int64($0) * 10_000_000 })
        let other = read.samples.filter { $0.tid != mainTrack[1] }
        #expect(other.map(\.frames) == [["Cache;warm()"]])
        // The tid the timeline gives a thread's track: the pid plus the thread's id.
        #expect(other.first?.tid == mainTrack[0] + Int64(ThreadID.numbered(1).rawValue))
    }

    @Test func aTraceWithoutSamplesHasNone() throws {
        let trace = try FoldedExportTests.trace(samples: false)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        guard let read = try Self.read(trace) else { return }
        #expect(read.samples.isEmpty)
    }
}
