import Foundation
import Testing
@testable import LifetraceFormat

/// zstd frames of raw blocks, written without libzstd, read by libzstd and by the `zstd` tool.
struct RawBlockFrameTests {
    static func frame(of bytes: [UInt8]) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: RawBlockFrame.size(bytes.count))
        let written = bytes.withUnsafeBytes { source in
            frame.withUnsafeMutableBytes { RawBlockFrame.write(source, into: $0) }
        }
        #expect(written == frame.count)
        return frame
    }

    @Test("libzstd decodes every content-size form and multi-block frames", arguments: [0, 1, 255, 256, 65_791, 65_792, 131_072, 131_073, 300_000])
    func libzstdReadsIt(count: Int) throws {
        let content = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let frame = Self.frame(of: content)
        let decompressor = try ZstdDecompressor(windowLogMax: 27)
        var decoded = [UInt8](repeating: 0xAA, count: count)
        try frame.withUnsafeBytes { source in
            try decoded.withUnsafeMutableBytes { try decompressor.decompress(source, into: $0) }
        }
        #expect(decoded == content)
        // The frame is never larger than libzstd's own bound, which the reader enforces.
        #expect(frame.count <= ZstdCompressor.bound(count))
    }

    @Test("a trace written in raw blocks reads back the same events, and zstd -t accepts it")
    func traceInRawBlocks() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var symbols = SymbolTable()
        var events: [TraceEvent] = []
        for index in 0..<50_000 {
            let payload: EventPayload
            if index % 3 == 0 {
                payload = .runloopWake
            } else {
                payload = .signpostBegin(name: symbols.intern("Work\(index % 7)"), id: Int64(index))
            }
            let thread = ThreadID(rawValue: UInt64(index % 4))
            events.append(TraceEvent(timestamp: Int64(index) * 1000, payload: payload, thread: thread))
        }
        var sizes: [TraceWriter.Options.Compression: Int] = [:]
        for compression in TraceWriter.Options.Compression.allCases {
            let path = directory.appendingPathComponent("\(compression.rawValue).ltrace").path
            var options = TraceWriter.Options()
            options.compression = compression
            let writer = try TraceWriter(path: path, metadata: TraceMetadata([("test", "raw")]), options: options)
            for event in events { try writer.append(event, symbols: symbols) }
            try writer.close()
            var reader = try BinaryTraceReader(path: path)
            var read: [TraceEvent] = []
            while let event = try reader.next() { read.append(event.reinternedForTest(from: reader.symbols, into: symbols)) }
            #expect(reader.issues.isEmpty)
            #expect(read == events)
            sizes[compression] = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int

            let zstd = Process()
            zstd.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            zstd.arguments = ["zstd", "-q", "-t", path]
            try zstd.run()
            zstd.waitUntilExit()
            #expect(zstd.terminationStatus == 0, "zstd -t \(compression.rawValue)")
        }
        // Raw blocks store the chunks at their raw size: far larger than compressed.
        #expect(sizes[.rawBlocks]! > 3 * sizes[.zstd]!)
    }
}

extension TraceEvent {
    /// The same event with its symbols looked up by string in `target` (which holds them all).
    func reinternedForTest(from source: SymbolTable, into target: SymbolTable) -> TraceEvent {
        var copy = self
        if case .signpostBegin(let name, let id) = payload {
            var table = target
            copy.payload = .signpostBegin(name: table.intern(source[name]), id: id)
        }
        return copy
    }
}
