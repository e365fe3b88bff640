import CZstd
import LifetraceFormat

/// A zstd decompression context for chunk frames, hardened against hostile input.
///
/// The window is limited with `ZSTD_d_windowLogMax`, and a frame is decompressed only when its
/// header declares exactly the size the chunk header announced, which the reader has already
/// checked against the file's declared maximum. The destination is always allocated by the
/// caller from that checked size, never from a size read out of the frame. Frames made only of raw
/// and RLE blocks (a recorder without libzstd writes them) are copied in Swift, without libzstd.
final class ZstdDecompressor: ChunkDecompressor {
    private let context: OpaquePointer

    /// Creates a context that refuses frames needing a window larger than `1 << windowLogMax`.
    init(windowLogMax: Int32) throws(ZstdError) {
        guard let context = ZSTD_createDCtx() else { throw ZstdError("cannot allocate a decompression context") }
        self.context = context
        let code = ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, windowLogMax)
        if ZSTD_isError(code) != 0 { throw ZstdError(String(cString: ZSTD_getErrorName(code))) }
    }

    deinit { ZSTD_freeDCtx(context) }

    /// Decompresses `frame`, which must be exactly one zstd frame declaring a content size of
    /// `destination.count` bytes, into `destination`.
    func decompress(
        _ frame: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) throws(TraceCodecError) {
        switch RawBlockFrame.read(frame, into: destination) {
        case .read: return
        case .invalid(let reason): throw TraceCodecError(.failed, reason)
        case .needsLibzstd: break
        }
        do throws(ZstdError) {
            try decompressCompressed(frame, into: destination)
        } catch {
            throw TraceCodecError(.failed, error.description)
        }
    }

    func decompressCompressed(
        _ frame: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) throws(ZstdError) {
        guard let source = frame.baseAddress, frame.count >= 4 else { throw ZstdError("frame too short") }
        let declared = ZSTD_getFrameContentSize(source, frame.count)
        // UInt64.max and UInt64.max - 1 are ZSTD_CONTENTSIZE_UNKNOWN and ZSTD_CONTENTSIZE_ERROR.
        guard declared < UInt64.max - 1 else { throw ZstdError("frame header unreadable or without content size") }
        guard declared == UInt64(destination.count) else {
            throw ZstdError("frame declares \(declared) bytes, chunk header \(destination.count)")
        }
        let frameSize = ZSTD_findFrameCompressedSize(source, frame.count)
        if ZSTD_isError(frameSize) != 0 { throw ZstdError(String(cString: ZSTD_getErrorName(frameSize))) }
        guard frameSize == frame.count else { throw ZstdError("frame is \(frameSize) bytes, chunk header says \(frame.count)") }
        if destination.count == 0 { return }
        let written = ZSTD_decompressDCtx(context, destination.baseAddress, destination.count, source, frame.count)
        if ZSTD_isError(written) != 0 {
            ZSTD_DCtx_reset(context, ZSTD_reset_session_only)
            throw ZstdError(String(cString: ZSTD_getErrorName(written)))
        }
        guard written == destination.count else { throw ZstdError("frame produced \(written) bytes, expected \(destination.count)") }
    }
}
