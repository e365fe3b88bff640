import Foundation

/// A buffered output for the text writers: a regular file written under a temporary name and
/// renamed into place on ``commit()``, so a failed run leaves nothing behind; a device or pipe
/// written in place; or a borrowed file descriptor (`-` is standard output).
final class TextOutputFile {
    private static let capacity = 1 << 16

    /// The output's name in errors.
    let name: String
    private let descriptor: Int32
    private let owned: Bool
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private var finished = false

    /// Creates `path` (through a temporary file beside it); `-` writes to standard output.
    init(path: String) throws(TraceError) {
        name = path
        var existing = stat()
        let isSpecial = stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) != S_IFREG
        if path == "-" {
            descriptor = 1
            owned = false
            temporaryPath = nil
        } else if isSpecial {
            // A device or a pipe (`/dev/null`, `/dev/stdout`) is written in place: renaming a
            // file over it would replace it.
            let opened = open(path, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else {
                throw TraceError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))")
            }
            descriptor = opened
            owned = true
            temporaryPath = nil
        } else {
            let url = URL(fileURLWithPath: path)
            let temporary = url.deletingLastPathComponent()
                .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp").path
            let opened = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else {
                throw TraceError(.io, file: path, "cannot create: \(String(cString: strerror(errno)))")
            }
            descriptor = opened
            owned = true
            temporaryPath = temporary
        }
        buffer.reserveCapacity(Self.capacity + 4096)
    }

    /// Writes to `descriptor`, which stays open; `name` is used in errors.
    init(fileDescriptor: Int32, name: String) {
        self.name = name
        descriptor = fileDescriptor
        owned = false
        temporaryPath = nil
        buffer.reserveCapacity(Self.capacity + 4096)
    }

    deinit {
        if owned { close(descriptor) }
        if !finished, let temporaryPath { unlink(temporaryPath) }
    }

    /// Appends bytes, writing the buffer out when it is full.
    func write(_ bytes: some Sequence<UInt8>) throws(TraceError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Appends a string's UTF-8.
    func write(_ string: String) throws(TraceError) {
        var string = string
        string.withUTF8 { buffer.append(contentsOf: $0) }
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes out what is buffered.
    func flush() throws(TraceError) {
        var written = 0
        while written < buffer.count {
            let count = buffer.withUnsafeBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + written, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw TraceError(.io, file: name, "cannot write: \(String(cString: strerror(errno)))")
            }
            written += count
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and for a file, moves it into place under its final name.
    func commit() throws(TraceError) {
        try flush()
        guard let temporaryPath, !finished else { return }
        if fsync(descriptor) != 0 && errno != EINVAL {
            throw TraceError(.io, file: name, "cannot sync: \(String(cString: strerror(errno)))")
        }
        guard rename(temporaryPath, name) == 0 else {
            throw TraceError(.io, file: name, "cannot rename into place: \(String(cString: strerror(errno)))")
        }
        finished = true
    }
}
