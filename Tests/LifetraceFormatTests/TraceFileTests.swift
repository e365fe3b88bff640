import Foundation
import LifetraceOutput
import LifetraceRunner
import Testing

@testable import LifetraceFormat
import LifetraceSynthesis
import LifetraceZstd

@Suite struct TraceFileTests {
    @Test func kindsAreToldFromTheFirstBytes() {
        #expect(TraceFile.kind(of: [0x50, 0x2A, 0x4D, 0x18, 0, 0]) == .binary)
        #expect(TraceFile.kind(of: [0x5F, 0x2A, 0x4D, 0x18]) == .binary)
        #expect(TraceFile.kind(of: Array(" \n\t{\"ts\":1".utf8)) == .jsonl)
        #expect(TraceFile.kind(of: Array("{".utf8)) == .jsonl)
        #expect(TraceFile.kind(of: [0x28, 0xB5, 0x2F, 0xFD]) == nil, "a plain zstd frame is not a trace")
        #expect(TraceFile.kind(of: Array("ts,type\n".utf8)) == nil)
        #expect(TraceFile.kind(of: [UInt8]()) == nil)
        #expect(TraceFile.kind(of: Array("<?xml version=\"1.0\"?>".utf8)) == .instrumentsExport)
        #expect(TraceFile.kind(of: Array("\u{FEFF}\n<trace-toc>".utf8)) == .instrumentsExport, "after a byte order mark")
    }

    @Test func openReadsASampleRun() throws {
        let path = try #require(SampleRuns.paths.first)
        var source = try TraceInputs.open(path: path)
        var direct = try JSONLTraceReader(path: path)
        #expect(source.metadata == direct.metadata)
        var count = 0
        while let event = try source.next() {
            #expect(event == (try direct.next()))
            count += 1
        }
        #expect(try direct.next() == nil)
        #expect(count > 0)
        #expect(source.issues.isEmpty)
    }

    @Test func otherInputIsRejected() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-trace-\(getpid()).csv").path
        try Data("ts,type\n1,launch\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: TraceError(.unknownInput, file: path, at: .byte(0, chunk: nil),
            "not a trace: neither a binary trace (zstd skippable frame), JSONL (a line starting with '{') nor an Instruments export (XML)")) {
            _ = try TraceInputs.open(path: path)
        }
        // An XML document is an Instruments export: read only with a converter (the inputs
        // module's open passes one; the format module alone has none).
        try Data("<?xml version=\"1.0\"?>\n<trace-toc/>\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: TraceError(.unknownInput, file: path, at: .line(1, column: 1),
            "an XML document: this reader does not read Instruments exports")) {
            _ = try TraceFile.open(path: path, codec: RawBlockCodec())
        }
        #expect(try TraceInputs.open(path: path).kind == .instrumentsExport)
        try Data().write(to: URL(fileURLWithPath: path))
        #expect(throws: TraceError(.unknownInput, file: path, "empty input: not a trace")) {
            _ = try TraceInputs.open(path: path)
        }
    }
}

@Suite struct TraceFileBinaryTests {
    @Test func openReadsABinaryTraceLikeTheBinaryReader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("synth-\(getpid()).ltrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var synthesizer = TraceSynthesizer(eventCount: 3_000, seed: 9)
        let writer = try TraceWriter(path: path, metadata: synthesizer.metadata)
        var written: [TraceEvent] = []
        while let event = synthesizer.next() {
            written.append(event)
            try writer.append(event, symbols: synthesizer.symbols)
        }
        try writer.close()

        var source = try TraceInputs.open(path: path)
        #expect(source.kind == .binary)
        #expect(source.metadata == synthesizer.metadata)
        // The binary reader merges streams by timestamp, so events of different streams at the
        // same instant may swap; each stream's own sequence is kept exactly.
        var read: [TraceStream: [String]] = [:]
        while let event = try source.next() {
            read[event.stream, default: []].append(JSONLTraceWriter.line(for: event, symbols: source.symbols))
        }
        var expected: [TraceStream: [String]] = [:]
        for event in written {
            expected[event.stream, default: []].append(JSONLTraceWriter.line(for: event, symbols: synthesizer.symbols))
        }
        #expect(read[.system]?.count == expected[.system]?.count)
        #expect(read[.app]?.count == expected[.app]?.count)
        #expect(read == expected)
        #expect(source.issues.isEmpty)
    }
}
