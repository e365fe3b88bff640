import Foundation

/// An open file descriptor for reading, closed when the last reference goes away.
///
/// Standard input (`-`) is borrowed, never closed. Readers are value types that share one handle,
/// so closing has to wait for the last copy.
final class FileDescriptorHandle {
    /// The descriptor.
    let descriptor: Int32
    private let owned: Bool

    /// Wraps `descriptor`; it is closed on deinit when `owned`.
    init(descriptor: Int32, owned: Bool) {
        self.descriptor = descriptor
        self.owned = owned
    }

    /// Opens `path` for reading; `-` is standard input.
    static func open(path: String) throws(TraceError) -> FileDescriptorHandle {
        if path == "-" { return FileDescriptorHandle(descriptor: 0, owned: false) }
        let descriptor = Foundation.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TraceError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            Foundation.close(descriptor)
            throw TraceError(.io, file: path, "is a directory")
        }
        return FileDescriptorHandle(descriptor: descriptor, owned: true)
    }

    deinit {
        if owned { Foundation.close(descriptor) }
    }

    /// Whether the descriptor is a regular file, which can be opened again and read from the
    /// start (a pipe, a FIFO or a terminal cannot).
    var isRegularFile: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Reads up to `buffer.count` bytes; 0 means the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer, name: String) throws(TraceError) -> Int {
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw TraceError(.io, file: name, "cannot read: \(String(cString: strerror(errno)))")
        }
    }

    /// Reads until `buffer` is full or the input ends; returns the number of bytes read.
    func readFully(into buffer: UnsafeMutableRawBufferPointer, name: String) throws(TraceError) -> Int {
        var total = 0
        while total < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[total...]), name: name)
            if count == 0 { break }
            total += count
        }
        return total
    }

    /// Reads everything that is left.
    func readToEnd(name: String) throws(TraceError) -> [UInt8] {
        var bytes: [UInt8] = []
        let block = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { block.deallocate() }
        while true {
            let count = try read(into: block, name: name)
            if count == 0 { return bytes }
            bytes.append(contentsOf: block[0..<count])
        }
    }
}
