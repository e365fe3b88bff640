/// How chunk contents are stored in their zstd frames, and read back.
///
/// Writers and readers are given their codec explicitly. This module has one,
/// ``RawBlockCodec``: frames of raw blocks, written and read in Swift without libzstd, which is
/// what a recorder on a device without libzstd (iOS) writes. `LifetraceZstd` adds `ZstdCodec`,
/// which compresses with libzstd and reads every frame; the analysis side (`lifetrace`) reads
/// and recompresses with it. Each writer or reader makes its own compressor or decompressor:
/// they hold state (libzstd contexts, for one) and are used by one thread at a time.
public protocol TraceCodec: Sendable {
    /// A compressor for one writer, at zstd compression `level` (1...22); a codec that stores its
    /// frames uncompressed ignores the level.
    func makeCompressor(level: Int) throws(TraceCodecError) -> any ChunkCompressor

    /// A decompressor for one reader, which refuses frames that need a window larger than
    /// `1 << windowLog` bytes.
    func makeDecompressor(windowLog: Int) throws(TraceCodecError) -> any ChunkDecompressor
}

/// Turns one chunk's content into one zstd frame; made by a ``TraceCodec`` for one writer.
public protocol ChunkCompressor: AnyObject {
    /// The largest frame that storing `count` bytes can produce.
    func bound(_ count: Int) -> Int

    /// Stores `source` as one frame at `destination`, which holds at least ``bound(_:)`` bytes;
    /// returns the frame's size. The frame declares its content size and has no zstd checksum
    /// (chunks carry their own CRC-32C).
    func compress(
        _ source: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) throws(TraceCodecError) -> Int
}

/// Reads one chunk's zstd frame back; made by a ``TraceCodec`` for one reader.
public protocol ChunkDecompressor: AnyObject {
    /// Reads `frame`, which must be exactly one zstd frame declaring a content size of
    /// `destination.count` bytes, into `destination`. Never writes past `destination`, whatever
    /// the frame claims.
    func decompress(
        _ frame: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer
    ) throws(TraceCodecError)
}

/// A frame a codec could not write or read, and why.
public struct TraceCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Kind: Sendable, Hashable {
        /// The frame is valid zstd but this codec cannot read it: it has compressed blocks (or a
        /// dictionary) and the codec has no libzstd.
        case needsLibzstd
        /// The frame is malformed, or does not hold exactly the size the chunk header announces;
        /// or the codec's library failed.
        case failed
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What went wrong, for a person.
    public var description: String

    /// A failure of `kind`.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
