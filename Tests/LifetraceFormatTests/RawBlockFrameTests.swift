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

    static func readWithoutLibzstd(_ frame: [UInt8], size: Int) -> (RawBlockFrame.ReadResult, [UInt8]) {
        var decoded = [UInt8](repeating: 0xAA, count: size)
        let result = frame.withUnsafeBytes { source in
            decoded.withUnsafeMutableBytes { RawBlockFrame.read(source, into: $0) }
        }
        return (result, decoded)
    }

    @Test("the Swift reader reads every content-size form and multi-block frames", arguments: [0, 1, 255, 256, 65_791, 65_792, 131_072, 131_073, 300_000])
    func swiftReadsIt(count: Int) {
        let content = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let (result, decoded) = Self.readWithoutLibzstd(Self.frame(of: content), size: count)
        #expect(result == .read)
        #expect(decoded == content)
    }

    @Test("the Swift reader leaves compressed frames to libzstd")
    func compressedFramesNeedLibzstd() throws {
        let content = [UInt8](repeating: 7, count: 10_000) + (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let compressor = try ZstdCompressor(level: 3)
        var frame = [UInt8](repeating: 0, count: ZstdCompressor.bound(content.count))
        let size = try content.withUnsafeBytes { source in
            try frame.withUnsafeMutableBytes { try compressor.compress(source, into: $0) }
        }
        let (result, _) = Self.readWithoutLibzstd(Array(frame[0..<size]), size: content.count)
        #expect(result == .needsLibzstd)
    }

    @Test("the Swift reader reads an RLE block")
    func rleBlock() {
        // Single segment, 1-byte content size 200; one last RLE block of 200 bytes of 0x5A.
        let header = UInt32(200) << 3 | 1 << 1 | 1
        let frame: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x20, 200,
                              UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16), 0x5A]
        let (result, decoded) = Self.readWithoutLibzstd(frame, size: 200)
        #expect(result == .read)
        #expect(decoded == [UInt8](repeating: 0x5A, count: 200))
    }

    @Test("the Swift reader refuses frames that do not hold exactly the announced size")
    func hostileFrames() {
        let content = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
        let frame = Self.frame(of: content)
        let cut = Self.readWithoutLibzstd(Array(frame.dropLast()), size: content.count).0
        let longer = Self.readWithoutLibzstd(frame + [0], size: content.count).0
        let announcedMore = Self.readWithoutLibzstd(frame, size: content.count + 1).0
        var lying = frame
        // The block header claims one byte more than the frame declares and holds.
        let blockHeader = UInt32(1001) << 3 | 1
        lying[7] = UInt8(blockHeader & 0xFF); lying[8] = UInt8(blockHeader >> 8 & 0xFF); lying[9] = UInt8(blockHeader >> 16)
        let overrun = Self.readWithoutLibzstd(lying, size: content.count).0
        for result in [cut, longer, announcedMore, overrun] {
            guard case .invalid = result else {
                Issue.record("expected a refusal, got \(result)")
                continue
            }
        }
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
