/// The file header: the first frame of a binary trace (see `docs/FORMAT.md`, "File header").
struct FileHeader: Equatable {
    /// The major version; readers refuse other majors.
    var major: UInt8 = BinaryTraceFormat.majorVersion
    /// The minor version; readers accept newer minors and ignore what they do not know.
    var minor: UInt8 = BinaryTraceFormat.minorVersion
    /// Flags; none are defined in v1 (written as 0, ignored when read).
    var flags: UInt16 = 0
    /// The largest raw size of any chunk in the file.
    var maxChunkSize: UInt32
    /// The trace's metadata.
    var metadata: TraceMetadata

    /// The complete frame: skippable-frame header, then the content, ending in its CRC-32C.
    func encoded() -> [UInt8] {
        var content = BinaryTraceFormat.signature
        content.append(major)
        content.append(minor)
        content.appendLittleEndian(flags)
        content.appendLittleEndian(maxChunkSize)
        Varint.append(UInt64(metadata.fields.count), to: &content)
        for field in metadata.fields {
            for string in [field.key, field.value] {
                let utf8 = Array(string.utf8)
                Varint.append(UInt64(utf8.count), to: &content)
                content.append(contentsOf: utf8)
            }
        }
        content.appendLittleEndian(CRC32C.checksum(content))
        var frame: [UInt8] = []
        frame.appendLittleEndian(BinaryTraceFormat.headerMagic)
        frame.appendLittleEndian(UInt32(content.count))
        return frame + content
    }

    /// Why a header's content cannot be used.
    enum Problem: Error {
        case badSignature
        case unsupportedVersion(UInt8, UInt8)
        case checksum(stored: UInt32, computed: UInt32)
        case chunkSize(UInt32)
        case malformed(String)
    }

    /// The smallest header content: 12 fixed bytes, a one-byte metadata count and the checksum.
    static let minimumContentSize = 17

    /// Decodes the header's content (the bytes after the 8-byte frame header).
    init(content: UnsafeRawBufferPointer) throws(Problem) {
        // Signature, versions, flags and chunk size (12), a metadata count (at least 1) and the checksum (4).
        guard content.count >= Self.minimumContentSize else {
            throw .malformed("header content of \(content.count) bytes is shorter than \(Self.minimumContentSize)")
        }
        guard Array(content[0..<4]) == BinaryTraceFormat.signature else { throw .badSignature }
        major = content[4]
        minor = content[5]
        guard major == BinaryTraceFormat.majorVersion else { throw .unsupportedVersion(major, minor) }
        let stored: UInt32 = content.littleEndian(at: content.count - 4)
        var crc = CRC32C()
        crc.update(UnsafeRawBufferPointer(rebasing: content[0..<(content.count - 4)]))
        guard crc.value == stored else { throw .checksum(stored: stored, computed: crc.value) }
        flags = content.littleEndian(at: 6)
        maxChunkSize = content.littleEndian(at: 8)
        guard maxChunkSize > 0, Int(maxChunkSize) <= BinaryTraceFormat.hardMaxChunkSize else {
            throw .chunkSize(maxChunkSize)
        }
        let body = UnsafeRawBufferPointer(rebasing: content[12..<(content.count - 4)])
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw .malformed("header has no metadata count")
        }
        var cursor = ByteCursor(position: base, end: base + body.count)
        guard let count = cursor.varint() else { throw .malformed("metadata count is not a varint") }
        // Each field takes at least two bytes, so a larger count cannot be honest.
        guard count <= UInt64(cursor.remaining / 2) else { throw .malformed("metadata count \(count) exceeds the header") }
        var fields: [(key: String, value: String)] = []
        for index in 0..<Int(count) {
            var pair: [String] = []
            for part in ["key", "value"] {
                guard let length = cursor.varint(), length <= UInt64(cursor.remaining) else {
                    throw .malformed("metadata field \(index) \(part) length runs past the header")
                }
                let bytes = UnsafeBufferPointer(start: cursor.position, count: Int(length))
                guard let string = String(validUTF8: bytes) else {
                    throw .malformed("metadata field \(index) \(part) is not UTF-8")
                }
                pair.append(string)
                _ = cursor.skip(length)
            }
            fields.append((pair[0], pair[1]))
        }
        metadata = TraceMetadata(fields)
    }

    /// Creates a header for writing.
    init(maxChunkSize: UInt32, metadata: TraceMetadata) {
        self.maxChunkSize = maxChunkSize
        self.metadata = metadata
    }

    static func == (lhs: FileHeader, rhs: FileHeader) -> Bool {
        lhs.major == rhs.major && lhs.minor == rhs.minor && lhs.flags == rhs.flags
            && lhs.maxChunkSize == rhs.maxChunkSize && lhs.metadata == rhs.metadata
    }
}
