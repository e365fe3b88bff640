import CZstd
import LifetraceFormat

/// A zstd compression context, reused for every chunk a writer compresses.
///
/// Reusing one context keeps its tables and buffers allocated across chunks; each call produces
/// one complete zstd frame with its content size in the frame header and no zstd checksum (chunks
/// carry their own CRC-32C).
final class ZstdCompressor: ChunkCompressor {
    private let context: OpaquePointer

    /// The compression level in use.
    let level: Int32

    /// Creates a context at `level` (1...19; the writer's default is 3).
    init(level: Int32) throws(ZstdError) {
        guard let context = ZSTD_createCCtx() else { throw ZstdError("cannot allocate a compression context") }
        self.context = context
        self.level = level
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level))
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 1))
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0))
    }

    deinit { ZSTD_freeCCtx(context) }

    /// The largest frame that compressing `count` bytes can produce (`ZSTD_compressBound`).
    func bound(_ count: Int) -> Int { ZSTD_compressBound(count) }

    /// Compresses `source` into one frame written at `destination`, which must hold
    /// ``bound(_:)`` bytes; returns the frame's size.
    func compress(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) throws(TraceCodecError) -> Int {
        let written = ZSTD_compress2(
            context, destination.baseAddress, destination.count, source.baseAddress, source.count)
        if ZSTD_isError(written) != 0 { throw TraceCodecError(.failed, String(cString: ZSTD_getErrorName(written))) }
        return written
    }

    private func check(_ code: Int) throws(ZstdError) {
        if ZSTD_isError(code) != 0 { throw ZstdError(String(cString: ZSTD_getErrorName(code))) }
    }
}

/// A failure reported by libzstd, with its message.
struct ZstdError: Error, CustomStringConvertible {
    /// libzstd's description of the problem.
    let description: String
    init(_ description: String) { self.description = description }
}
