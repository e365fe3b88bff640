/// Constants of the binary trace format v1 (`.ltrace`), described in `docs/FORMAT.md`.
///
/// A binary trace is a valid zstd stream: the file header, each chunk header and the end-of-trace
/// record are zstd skippable frames, and each chunk's events are one ordinary zstd frame, so
/// `zstd -dc trace.ltrace` prints the raw event records.
public enum BinaryTraceFormat {
    /// The file name extension of binary traces.
    public static let fileExtension = "ltrace"
    /// The major version this library writes and reads; a file with another major is refused.
    public static let majorVersion: UInt8 = 1
    /// The minor version this library writes; files with a newer minor are read.
    public static let minorVersion: UInt8 = 0
    /// The largest raw (decompressed) chunk size any reader accepts: 16 MiB.
    public static let hardMaxChunkSize = 16 << 20
    /// The default raw chunk size the writer uses: 256 KiB.
    public static let defaultChunkSize = 256 << 10

    /// The skippable-frame magic number of the file header.
    static let headerMagic: UInt32 = 0x184D_2A5A
    /// The skippable-frame magic number of a chunk header.
    static let chunkMagic: UInt32 = 0x184D_2A5B
    /// The skippable-frame magic number of the end-of-trace record.
    static let endMagic: UInt32 = 0x184D_2A5C
    /// The skippable-frame magic number of a group-order frame.
    static let orderMagic: UInt32 = 0x184D_2A5D
    /// The largest group-order frame accepted.
    static let maxOrderSize = 16 << 20
    /// The magic number of an ordinary zstd frame.
    static let zstdMagic: UInt32 = 0xFD2F_B528
    /// The first four bytes of the file header's content.
    static let signature: [UInt8] = Array("LTRC".utf8)
    /// The largest file header accepted.
    static let maxHeaderSize = 1 << 20
    /// The largest chunk header accepted (v1 writes 64 bytes; newer minors may append fields).
    static let maxChunkHeaderSize = 4096
    /// The size of the frame header every frame starts with: magic and size, both `UInt32`.
    static let frameHeaderSize = 8

    /// The largest chunk frame a reader accepts for `rawSize` bytes of content: libzstd's
    /// `ZSTD_compressBound`, `rawSize + rawSize / 256 + (rawSize < 128 KiB ? (128 KiB - rawSize) / 2048 : 0)`
    /// (integer division). Every frame libzstd writes fits, and so does a raw-block frame.
    public static func compressBound(_ rawSize: Int) -> Int {
        let blockSize = 128 << 10
        return rawSize + rawSize >> 8 + (rawSize < blockSize ? (blockSize - rawSize) >> 11 : 0)
    }

    /// Whether `magic` is a zstd skippable-frame magic number (0x184D2A50...0x184D2A5F).
    static func isSkippable(_ magic: UInt32) -> Bool { magic & 0xFFFF_FFF0 == 0x184D_2A50 }

    /// Whether `magic` is one of Lifetrace's own four frames (file header, chunk, end of trace,
    /// group order), 0x184D2A5A...0x184D2A5D.
    static func isLifetraceFrame(_ magic: UInt32) -> Bool { magic >= headerMagic && magic <= orderMagic }

    /// Whether `prefix`, the first bytes of an input, start like a binary trace.
    ///
    /// Four bytes are enough to decide; with twelve or more the header signature is checked too.
    public static func isBinaryTrace<Bytes: Collection<UInt8>>(prefix: Bytes) -> Bool {
        let bytes = Array(prefix.prefix(12))
        guard bytes.count >= 4 else { return false }
        let magic = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
        guard magic == headerMagic else { return false }
        return bytes.count < 12 || Array(bytes[8..<12]) == signature
    }
}
