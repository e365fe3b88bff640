import Foundation
import LifetraceFormat
import Testing
@testable import LifetraceZstd

/// The two codecs against each other: libzstd reads raw-block frames, the raw-block reader
/// refuses compressed ones with one clear line, and traces written by either read back the same.
struct ZstdCodecTests {
    static func content(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
    }

    static func store(_ content: [UInt8], with codec: some TraceCodec) throws -> [UInt8] {
        let compressor = try codec.makeCompressor(level: 3)
        var frame = [UInt8](repeating: 0, count: compressor.bound(content.count))
        let size = try content.withUnsafeBytes { source in
            try frame.withUnsafeMutableBytes { try compressor.compress(source, into: $0) }
        }
        return Array(frame[0..<size])
    }

    static func read(_ frame: [UInt8], size: Int, with codec: some TraceCodec) throws -> [UInt8] {
        let decompressor = try codec.makeDecompressor(windowLog: 27)
        var decoded = [UInt8](repeating: 0xAA, count: size)
        try frame.withUnsafeBytes { source in
            try decoded.withUnsafeMutableBytes { try decompressor.decompress(source, into: $0) }
        }
        return decoded
    }

    @Test("libzstd decodes raw-block frames of every content-size form, multi-block ones too", arguments: [0, 1, 255, 256, 65_791, 65_792, 131_072, 131_073, 300_000])
    func libzstdReadsRawBlocks(count: Int) throws {
        let content = Self.content(count)
        let frame = try Self.store(content, with: RawBlockCodec())
        // The Swift fast path is bypassed: libzstd itself reads the frame.
        let decompressor = try ZstdDecompressor(windowLogMax: 27)
        var decoded = [UInt8](repeating: 0xAA, count: count)
        let failure: String? = frame.withUnsafeBytes { source in
            decoded.withUnsafeMutableBytes { destination -> String? in
                do {
                    try decompressor.decompressCompressed(source, into: destination)
                    return nil
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(failure == nil)
        #expect(decoded == content)
        #expect(try Self.read(frame, size: count, with: ZstdCodec()) == content)
    }

    @Test("the format's bound is libzstd's ZSTD_compressBound", arguments: [0, 1, 255, 2047, 2048, 4096, 100_000, 131_071, 131_072, 131_073, 262_144, 1 << 20, 16 << 20])
    func boundsAgree(count: Int) throws {
        let compressor = try ZstdCompressor(level: 3)
        #expect(BinaryTraceFormat.compressBound(count) == compressor.bound(count))
    }

    @Test("the raw-block codec refuses a compressed frame as needing libzstd; libzstd reads it")
    func compressedFramesNeedLibzstd() throws {
        let content = [UInt8](repeating: 7, count: 10_000) + Self.content(10_000)
        let frame = try Self.store(content, with: ZstdCodec())
        #expect(frame.count < content.count / 2)
        #expect(throws: TraceCodecError(.needsLibzstd, "the frame has compressed blocks, which only a reader with libzstd reads")) {
            try Self.read(frame, size: content.count, with: RawBlockCodec())
        }
        #expect(try Self.read(frame, size: content.count, with: ZstdCodec()) == content)
    }

    static func events(_ symbols: inout SymbolTable) -> [TraceEvent] {
        (0..<50_000).map { index in
            let payload: EventPayload =
                index % 3 == 0 ? .runloopWake : .signpostBegin(name: symbols.intern("Work\(index % 7)"), id: Int64(index))
            return TraceEvent(timestamp: Int64(index) * 1000, payload: payload, thread: ThreadID(rawValue: UInt64(index % 4)))
        }
    }

    static func readAll(_ path: String, codec: some TraceCodec, into symbols: SymbolTable) throws -> ([TraceEvent], [TraceError]) {
        var reader = try BinaryTraceReader(path: path, codec: codec)
        var read: [TraceEvent] = []
        while let event = try reader.next() {
            var copy = event
            if case .signpostBegin(let name, let id) = event.payload {
                var table = symbols
                copy.payload = .signpostBegin(name: table.intern(reader.symbols[name]), id: id)
            }
            read.append(copy)
        }
        return (read, reader.issues)
    }

    @Test("traces written by either codec read back the same events with libzstd, and zstd -t accepts both")
    func tracesOfBothCodecs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("codecs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var symbols = SymbolTable()
        let events = Self.events(&symbols)
        var sizes: [String: Int] = [:]
        for (name, codec) in [("raw", RawBlockCodec() as any TraceCodec), ("zstd", ZstdCodec())] {
            let path = directory.appendingPathComponent("\(name).ltrace").path
            let writer = try TraceWriter(path: path, metadata: TraceMetadata([("test", name)]), codec: codec)
            for event in events { try writer.append(event, symbols: symbols) }
            try writer.close()
            let (read, issues) = try Self.readAll(path, codec: ZstdCodec(), into: symbols)
            #expect(issues.isEmpty)
            #expect(read == events)
            sizes[name] = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int

            let zstd = Process()
            zstd.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            zstd.arguments = ["zstd", "-q", "-t", path]
            try zstd.run()
            zstd.waitUntilExit()
            #expect(zstd.terminationStatus == 0, "zstd -t \(name)")
        }
        // Raw blocks store the chunks at their raw size: far larger than compressed.
        #expect(sizes["raw"]! > 3 * sizes["zstd"]!)

        // Without libzstd: the raw-block trace reads in full; the compressed one stops at its
        // first chunk with one line that says why.
        let (raw, rawIssues) = try Self.readAll(directory.appendingPathComponent("raw.ltrace").path, codec: RawBlockCodec(), into: symbols)
        #expect(rawIssues.isEmpty)
        #expect(raw == events)
        let compressedPath = directory.appendingPathComponent("zstd.ltrace").path
        let (compressed, issues) = try Self.readAll(compressedPath, codec: RawBlockCodec(), into: symbols)
        #expect(compressed.count < events.count)
        #expect(issues.map(\.kind) == [.needsLibzstd])
        let line = try #require(issues.first).description
        #expect(line.hasPrefix("\(compressedPath): byte "))
        #expect(line.hasSuffix("chunk compressed with libzstd, which this reader does not link; read the trace with lifetrace"))
        #expect(!line.contains("\n"))
    }
}
