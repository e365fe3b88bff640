import Foundation

/// Splits a text input into lines, reading a file descriptor in blocks so that no more than one
/// line (at most ``maxLineLength`` bytes) plus one block is held at a time.
///
/// Lines end at `\n`; a `\r` before it is dropped. A line longer than the limit is an error
/// raised as soon as the limit is passed, so a hostile input without newlines is never read whole.
struct JSONLLineReader {
    /// The default limit on the length of one line: 1 MiB.
    static let defaultMaxLineLength = 1 << 20

    private static let blockSize = 64 * 1024

    /// The input's name in error messages.
    let name: String
    /// The longest line accepted, in bytes, without its line break.
    let maxLineLength: Int
    /// The number of the line most recently returned, counted from 1.
    private(set) var lineNumber = 0

    private let source: FileDescriptorHandle?
    private var buffer: [UInt8]
    private var start = 0
    private var end: Int
    private var atEnd: Bool

    /// Reads lines from an open file descriptor; `prefix` holds bytes already read from it.
    init(
        handle: FileDescriptorHandle, name: String, prefix: [UInt8] = [],
        maxLineLength: Int = defaultMaxLineLength
    ) {
        self.name = name
        self.maxLineLength = maxLineLength
        self.source = handle
        self.buffer = prefix
        self.end = prefix.count
        self.atEnd = false
    }

    /// Reads lines from bytes in memory.
    init(bytes: [UInt8], name: String, maxLineLength: Int = defaultMaxLineLength) {
        self.name = name
        self.maxLineLength = maxLineLength
        self.source = nil
        self.buffer = bytes
        self.end = bytes.count
        self.atEnd = true
    }

    /// The next line without its line break, or nil at the end of the input.
    mutating func nextLine() throws(TraceError) -> Data? {
        var searchFrom = start
        while true {
            if let newline = buffer[searchFrom..<end].firstIndex(of: UInt8(ascii: "\n")) {
                return try take(upTo: newline, consuming: newline + 1)
            }
            if atEnd {
                guard start < end else { return nil }
                return try take(upTo: end, consuming: end)
            }
            if end - start > maxLineLength { throw tooLong() }
            // Bytes already searched hold no line break; search only what the next block adds.
            let searched = end - start
            try fill()
            searchFrom = start + searched
        }
    }

    private mutating func take(upTo lineEnd: Int, consuming next: Int) throws(TraceError) -> Data {
        var stop = lineEnd
        if stop > start && buffer[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
        lineNumber += 1
        if stop - start > maxLineLength {
            lineNumber -= 1
            throw tooLong()
        }
        let line = buffer.withUnsafeBufferPointer { Data(buffer: UnsafeBufferPointer(rebasing: $0[start..<stop])) }
        start = next
        return line
    }

    private func tooLong() -> TraceError {
        TraceError(
            .limitExceeded, file: name, at: .line(lineNumber + 1, column: maxLineLength + 1),
            "line longer than \(maxLineLength) bytes")
    }

    /// Moves the unread bytes to the front of the buffer and reads one more block after them.
    private mutating func fill() throws(TraceError) {
        guard let source else {
            atEnd = true
            return
        }
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { bytes in
                let count = end - start
                if count > 0 {
                    bytes.baseAddress!.update(from: bytes.baseAddress! + start, count: count)
                }
            }
            end -= start
            start = 0
        }
        if buffer.count < end + Self.blockSize {
            buffer.append(contentsOf: repeatElement(0, count: end + Self.blockSize - buffer.count))
        }
        let count = try buffer.withUnsafeMutableBufferPointer { (bytes) throws(TraceError) -> Int in
            try source.read(into: UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(bytes)[end..<end + Self.blockSize]), name: name)
        }
        if count == 0 { atEnd = true }
        end += count
    }
}
