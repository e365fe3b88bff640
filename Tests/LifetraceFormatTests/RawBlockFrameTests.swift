import Testing
@testable import LifetraceFormat

/// zstd frames of raw blocks, written and read without libzstd (`ZstdCodecTests` has libzstd and
/// the `zstd` tool read them).
struct RawBlockFrameTests {
    static func frame(of bytes: [UInt8]) -> [UInt8] {
        var frame = [UInt8](repeating: 0, count: RawBlockFrame.size(bytes.count))
        let written = bytes.withUnsafeBytes { source in
            frame.withUnsafeMutableBytes { RawBlockFrame.write(source, into: $0) }
        }
        #expect(written == frame.count)
        return frame
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

    @Test("a raw-block frame fits the bound readers enforce", arguments: [0, 1, 255, 256, 4096, 65_792, 131_072, 131_073, 300_000, 16 << 20])
    func fitsTheBound(count: Int) {
        #expect(RawBlockFrame.size(count) <= BinaryTraceFormat.compressBound(count))
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
}
