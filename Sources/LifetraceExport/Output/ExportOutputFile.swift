import Foundation

/// A buffered binary output: written under a temporary name beside its final path and renamed
/// into place by ``commit()``, so a failed export leaves no half-written file; `-` is standard
/// output.
///
/// Memory stays bounded by the buffer whatever the size of the export.
public final class ExportOutputFile {
    private static let capacity = 1 << 17

    /// The output's path as the user named it.
    public let path: String
    private let descriptor: Int32
    private let owned: Bool
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private var committed = false
    /// How many bytes were written out or are buffered.
    public private(set) var byteCount: Int64 = 0

    /// Creates `path` through a temporary file beside it; `-` writes to standard output.
    public init(path: String) throws(ExportError) {
        self.path = path
        if path == "-" {
            descriptor = 1
            owned = false
            temporaryPath = nil
        } else {
            let url = URL(fileURLWithPath: path)
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
            let opened = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw ExportError(output: path, "cannot create: \(String(cString: strerror(errno)))")
            }
            descriptor = opened
            owned = true
            temporaryPath = temporary
        }
        buffer.reserveCapacity(Self.capacity + 4096)
    }

    deinit {
        if owned { close(descriptor) }
        if !committed, let temporaryPath { unlink(temporaryPath) }
    }

    /// Appends bytes, writing the buffer out when it is full.
    public func write(_ bytes: [UInt8]) throws(ExportError) {
        buffer.append(contentsOf: bytes)
        byteCount += Int64(bytes.count)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Appends bytes, writing the buffer out when it is full.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
        buffer.append(contentsOf: bytes)
        byteCount += Int64(bytes.count)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Appends a string's UTF-8.
    public func write(_ string: String) throws(ExportError) {
        var string = string
        string.withUTF8 { buffer.append(contentsOf: $0) }
        byteCount += Int64(string.utf8.count)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws(ExportError) {
        var written = 0
        while written < buffer.count {
            let count = buffer.withUnsafeBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + written, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw ExportError(output: path, "cannot write: \(String(cString: strerror(errno)))")
            }
            written += count
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and for a file, moves it into place under its final name.
    public func commit() throws(ExportError) {
        try flush()
        guard let temporaryPath, !committed else { return }
        guard rename(temporaryPath, path) == 0 else {
            throw ExportError(output: path, "cannot rename into place: \(String(cString: strerror(errno)))")
        }
        committed = true
    }
}
