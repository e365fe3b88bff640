import Foundation

/// An output that appears whole or not at all: a regular file is written under a temporary name
/// beside its final path and renamed into place by ``commit()``, so a failed command leaves
/// nothing behind. A device or a pipe (`/dev/null`, `/dev/stdout`) is written in place, since
/// renaming a file over it would replace it; `-` is standard output.
///
/// Writes are buffered (``write(_:)-swift.method``); code that writes to the descriptor itself
/// (``descriptor``, as ``TraceWriter`` does) must not mix that with buffered writes unflushed.
public final class StagedOutputFile {
    private static let capacity = 1 << 17

    /// The output's path as the user named it; used in errors.
    public let name: String
    /// The file descriptor written to.
    public let descriptor: Int32
    private let owned: Bool
    private let temporaryPath: String?
    private var cleanup: OutputCleanup.Token?
    private var buffer: [UInt8] = []
    private var finished = false
    /// How many bytes were written out or are buffered.
    public private(set) var byteCount: Int64 = 0

    /// Creates `path` (through a temporary file beside it); `-` writes to standard output. The
    /// file gets `mode` (the mode of a file it replaces, for a command that rewrites one), else
    /// what `open(2)` would give a new file: 0666 less the process's umask.
    public init(path: String, mode: mode_t? = nil) throws(TraceError) {
        name = path
        var existing = stat()
        if path == "-" {
            descriptor = 1
            owned = false
            temporaryPath = nil
        } else if stat(path, &existing) == 0 && (existing.st_mode & S_IFMT) != S_IFREG {
            let opened = open(path, O_WRONLY | O_CLOEXEC)
            guard opened >= 0 else { throw Self.failure(path, "cannot open") }
            descriptor = opened
            owned = true
            temporaryPath = nil
        } else {
            let directory = (path as NSString).deletingLastPathComponent
            let template = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).XXXXXX"
            // Created and registered for removal with no signal's cleanup in between: a signal
            // that comes right after the file appears still removes it.
            let (opened, staged, token) = try OutputCleanup.starting { () throws(TraceError) -> (Int32, String, OutputCleanup.Token) in
                var bytes = Array(template.utf8CString)
                let opened = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
                guard opened >= 0 else { throw Self.failure(path, "cannot create") }
                let staged = String(decoding: bytes.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return (opened, staged, OutputCleanup.removeOnSignal(file: staged))
            }
            // mkstemp creates 0600 whatever the umask; the output gets the mode asked for.
            fchmod(opened, (mode ?? (0o666 & ~Self.processUmask)) & 0o7777)
            _ = fcntl(opened, F_SETFD, FD_CLOEXEC)
            descriptor = opened
            owned = true
            temporaryPath = staged
            cleanup = token
        }
        buffer.reserveCapacity(Self.capacity + 4096)
    }

    /// Writes to `descriptor`, which stays open; `name` is used in errors.
    public init(fileDescriptor: Int32, name: String) {
        self.name = name
        descriptor = fileDescriptor
        owned = false
        temporaryPath = nil
        buffer.reserveCapacity(Self.capacity + 4096)
    }

    deinit { discard() }

    /// Appends bytes, writing the buffer out when it is full.
    public func write(_ bytes: some Sequence<UInt8>) throws(TraceError) {
        let before = buffer.count
        buffer.append(contentsOf: bytes)
        byteCount += Int64(buffer.count - before)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Appends raw bytes, writing the buffer out when it is full.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TraceError) {
        buffer.append(contentsOf: bytes)
        byteCount += Int64(bytes.count)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Appends a string's UTF-8.
    public func write(_ string: String) throws(TraceError) {
        var string = string
        string.withUTF8 { buffer.append(contentsOf: $0) }
        byteCount += Int64(string.utf8.count)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws(TraceError) {
        var written = 0
        while written < buffer.count {
            let count = buffer.withUnsafeBytes { raw in
                Foundation.write(descriptor, raw.baseAddress! + written, raw.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Self.failure(name, "cannot write")
            }
            written += count
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and for a file, syncs it and moves it into place under its final name.
    public func commit() throws(TraceError) {
        try flush()
        guard let temporaryPath, !finished else { return }
        if fsync(descriptor) != 0 && errno != EINVAL { throw Self.failure(name, "cannot sync") }
        guard rename(temporaryPath, name) == 0 else { throw Self.failure(name, "cannot rename into place") }
        finished = true
        if let cleanup { OutputCleanup.cancel(cleanup) }
        if owned { close(descriptor) }
    }

    /// Gives up: closes and removes the temporary file. Also done when the output is released
    /// without ``commit()``.
    public func discard() {
        guard !finished else { return }
        finished = true
        if owned { close(descriptor) }
        if let temporaryPath { unlink(temporaryPath) }
        if let cleanup { OutputCleanup.cancel(cleanup) }
    }

    /// Refuses an output `path` that is one of `inputs` (the same file: device and inode), before
    /// anything is written: the output would replace what the command reads. `-` and paths that
    /// do not exist yet never match.
    public static func refuseOverwriting(_ inputs: [String], with path: String) throws(TraceError) {
        var output = stat()
        guard path != "-", stat(path, &output) == 0 else { return }
        for input in inputs where input != "-" {
            var read = stat()
            if stat(input, &read) == 0 && read.st_dev == output.st_dev && read.st_ino == output.st_ino {
                throw TraceError(.io, file: path, "the output is also an input (\(input)); give another output path")
            }
        }
    }

    /// The process's file mode creation mask, read without changing it (Linux reports it in
    /// /proc/self/status; elsewhere, Apple platforms included, it is set and set back).
    static var processUmask: mode_t {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
            let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
        {
            return mask
        }
        #endif
        let mask = umask(0o022)
        umask(mask)
        return mask
    }

    private static func failure(_ path: String, _ what: String) -> TraceError {
        TraceError(.io, file: path, "\(what): \(String(cString: strerror(errno)))")
    }
}
