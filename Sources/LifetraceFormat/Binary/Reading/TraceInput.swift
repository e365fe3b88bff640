#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a binary trace, read in bounded blocks from a file descriptor or held in memory.
///
/// The buffer holds the unread part of the current frame and the block read ahead; it grows
/// toward the size of the largest frame asked for (which the reader bounds before asking) only as
/// the bytes arrive, so a frame that claims more than the input holds costs no more than the input.
final class TraceInput {
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// The handle the descriptor belongs to, kept open for as long as the input reads it.
    private let handle: FileDescriptorHandle?
    private var atEOF: Bool
    /// The input's name for errors.
    let name: String
    /// The file offset of the first unread byte.
    private(set) var offset: Int64 = 0
    /// The bytes still to be read from the descriptor before the input ends, when bounded.
    private var unreadLimit: Int64?

    /// The size of one read from the descriptor.
    static let blockSize = 256 << 10

    /// Reads the file at `path`, or standard input for `-`.
    init(path: String) throws(TraceError) {
        name = path
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
        } else {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw TraceError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))")
            }
            ownsDescriptor = true
        }
        handle = nil
        buffer = [UInt8](repeating: 0, count: TraceInput.blockSize)
        atEOF = false
    }

    /// Goes on reading `handle` (standard input, a pipe, a FIFO: inputs that cannot be opened
    /// again from the start), of which `prefix` has already been read to tell the input's kind.
    init(handle: FileDescriptorHandle, after prefix: [UInt8], name: String) {
        self.name = name
        descriptor = handle.descriptor
        ownsDescriptor = false
        self.handle = handle
        buffer = prefix + [UInt8](repeating: 0, count: TraceInput.blockSize)
        end = prefix.count
        atEOF = false
    }

    /// Reads the first `limit` bytes of `descriptor` from its current offset (the descriptor
    /// stays open: the caller owns it), as if the input ended there.
    init(descriptor: Int32, name: String, limit: Int64) {
        self.name = name
        self.descriptor = descriptor
        ownsDescriptor = false
        handle = nil
        unreadLimit = max(0, limit)
        buffer = [UInt8](repeating: 0, count: TraceInput.blockSize)
        atEOF = limit <= 0
    }

    /// Reads `bytes`.
    init(bytes: [UInt8], name: String) {
        self.name = name
        buffer = bytes
        end = bytes.count
        descriptor = -1
        ownsDescriptor = false
        handle = nil
        atEOF = true
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The number of buffered unread bytes.
    var available: Int { end - start }

    /// The bytes the buffer holds room for.
    var capacity: Int { buffer.count }

    /// Makes `count` unread bytes available; false when the input ends first.
    func ensure(_ count: Int) throws(TraceError) -> Bool {
        while end - start < count {
            if atEOF { return false }
            try fill(toHold: count)
        }
        return true
    }

    /// Whether the input has no unread byte left.
    func isAtEnd() throws(TraceError) -> Bool { try !ensure(1) }

    /// Calls `body` with the unread buffered bytes.
    func withAvailable<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Marks `count` buffered bytes as read.
    func consume(_ count: Int) {
        precondition(count <= end - start)
        start += count
        offset += Int64(count)
    }

    /// Reads past `count` bytes, buffered or not; returns how many there were.
    func skip(_ count: Int64) throws(TraceError) -> Int64 {
        var left = count
        while left > 0 {
            if available == 0 {
                if atEOF { break }
                try fill(toHold: 1)
                continue
            }
            let step = Int(min(Int64(available), left))
            consume(step)
            left -= Int64(step)
        }
        return count - left
    }

    /// Skips to the next occurrence of a 4-byte little-endian word in `words`, or to the end.
    func scan(for words: [UInt32]) throws(TraceError) {
        while true {
            let found: Int? = withAvailable { bytes in
                guard bytes.count >= 4 else { return nil }
                for index in 0...(bytes.count - 4) {
                    let word: UInt32 = bytes.littleEndian(at: index)
                    if words.contains(word) { return index }
                }
                return nil
            }
            if let found {
                consume(found)
                return
            }
            let keep = min(3, available)
            consume(available - keep)
            if atEOF {
                consume(available)
                return
            }
            try fill(toHold: keep + 1)
        }
    }

    // Reads at least one more block (or to the end of the input), keeping the unread bytes.
    private func fill(toHold count: Int) throws(TraceError) {
        if start > 0 {
            if start < end {
                buffer.withUnsafeMutableBytes { bytes in
                    bytes.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: end - start)
                }
            }
            end -= start
            start = 0
        }
        // The buffer grows only once it is nearly full, and then at most doubles: a frame that
        // claims more bytes than the input holds costs no more memory or time than the bytes that
        // are really there.
        let reserve = TraceInput.blockSize / 4
        let wanted = buffer.count - end >= reserve ? buffer.count : max(min(count, 2 * buffer.count), end + reserve)
        if buffer.count < wanted {
            buffer.append(contentsOf: repeatElement(0, count: wanted - buffer.count))
        }
        var room = buffer.count - end
        if let unreadLimit { room = Int(min(Int64(room), unreadLimit)) }
        let result = buffer.withUnsafeMutableBytes { bytes in
            read(descriptor, bytes.baseAddress! + end, room)
        }
        if result < 0 {
            if errno == EINTR { return }
            throw TraceError(.io, file: name, at: .byte(offset + Int64(available), chunk: nil), "cannot read: \(String(cString: strerror(errno)))")
        }
        if let limit = unreadLimit {
            unreadLimit = limit - Int64(result)
            if unreadLimit == 0 { atEOF = true }
        }
        if result == 0 { atEOF = true }
        end += result
    }
}
