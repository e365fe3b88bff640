import LifetraceFormat

/// The codec of the analysis side: compresses chunks with libzstd and reads every chunk frame,
/// raw blocks (written by a recorder without libzstd) and compressed ones alike.
///
/// The only module that links libzstd (`CZstd`): the recorder and the format module never do, so
/// an app links no libzstd. `lifetrace` reads, imports and recovers with this codec.
public struct ZstdCodec: TraceCodec {
    /// The codec.
    public init() {}

    /// A libzstd compression context at `level` (1...22).
    public func makeCompressor(level: Int) throws(TraceCodecError) -> any ChunkCompressor {
        do {
            return try ZstdCompressor(level: Int32(level))
        } catch {
            throw TraceCodecError(.failed, error.description)
        }
    }

    /// A libzstd decompression context that refuses windows above `1 << windowLog` bytes.
    public func makeDecompressor(windowLog: Int) throws(TraceCodecError) -> any ChunkDecompressor {
        do {
            return try ZstdDecompressor(windowLogMax: Int32(windowLog))
        } catch {
            throw TraceCodecError(.failed, error.description)
        }
    }
}
