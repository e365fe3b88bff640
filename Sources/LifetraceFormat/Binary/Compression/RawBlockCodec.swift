/// The codec of this module: zstd frames of raw blocks, written and read in Swift, no libzstd.
///
/// Every zstd reader reads what it writes (``RawBlockFrame``), at the content's raw size. It
/// reads frames made of raw and RLE blocks; a frame with compressed blocks is refused with
/// ``TraceCodecError/Kind/needsLibzstd``, which readers report as
/// ``TraceError/Kind/needsLibzstd``. A recorder on a device without libzstd writes with it;
/// `lifetrace import` and `lifetrace recover` recompress on the analysis machine.
public struct RawBlockCodec: TraceCodec {
    /// The codec.
    public init() {}

    /// A writer's compressor; `level` is ignored (raw blocks are not compressed).
    public func makeCompressor(level: Int) -> any ChunkCompressor { RawBlockCompressor() }

    /// A reader's decompressor; raw blocks need no window, so `windowLog` changes nothing.
    public func makeDecompressor(windowLog: Int) -> any ChunkDecompressor { RawBlockDecompressor() }
}

/// Writes ``RawBlockFrame``s.
final class RawBlockCompressor: ChunkCompressor {
    func bound(_ count: Int) -> Int { RawBlockFrame.size(count) }

    func compress(_ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Int {
        RawBlockFrame.write(source, into: destination)
    }
}

/// Reads frames of raw and RLE blocks; refuses frames with compressed blocks.
final class RawBlockDecompressor: ChunkDecompressor {
    func decompress(
        _ frame: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) throws(TraceCodecError) {
        switch RawBlockFrame.read(frame, into: destination) {
        case .read:
            return
        case .needsLibzstd:
            throw TraceCodecError(.needsLibzstd, "the frame has compressed blocks, which only a reader with libzstd reads")
        case .invalid(let reason):
            throw TraceCodecError(.failed, reason)
        }
    }
}
