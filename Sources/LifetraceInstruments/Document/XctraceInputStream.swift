import Foundation
import LifetraceFormat

/// The bytes of one input as a stream for `XMLParser`, which reads it block by block: the
/// document is never held whole. A read error is kept for the reader to report; once the reading
/// is stopped, the stream says it has ended, so a rejected document is not read on.
///
/// `XMLParser` reports no DTD to its delegate and expands the entities a DTD declares, so the
/// prolog (the bytes before the root element) is scanned here: a `<!DOCTYPE` ends the reading
/// before the parser sees it.
final class XctraceInputStream: InputStream {
    private let input: TraceConverterInput
    private var prefixOffset = 0
    /// The first read error, if any.
    private(set) var readError: TraceError?
    /// Set when the reading stops early: every later read returns 0.
    var isStopped = false
    /// Where a `<!DOCTYPE` starts, if the prolog has one.
    private(set) var doctype: (line: Int, column: Int)?
    private var prolog = PrologScan()

    /// The scan of the bytes before the root element, across reads.
    private struct PrologScan {
        var done = false
        var line = 1
        var column = 0
        /// The bytes since the last `<`, up to `<!D`.
        var pending: [UInt8] = []
        var pendingStart = (line: 1, column: 1)
    }

    /// A stream over `input`, its prefix first.
    init(_ input: TraceConverterInput) {
        self.input = input
        super.init(data: Data())
    }

    override func open() {}
    override func close() {}
    override var hasBytesAvailable: Bool { !isStopped }
    override var streamStatus: Stream.Status { isStopped ? .atEnd : .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        if isStopped || length <= 0 { return 0 }
        if prefixOffset < input.prefix.count {
            let count = min(length, input.prefix.count - prefixOffset)
            input.prefix.withUnsafeBufferPointer { bytes in
                buffer.update(from: bytes.baseAddress! + prefixOffset, count: count)
            }
            prefixOffset += count
            return scanProlog(buffer, count: count)
        }
        do {
            let count = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
            return scanProlog(buffer, count: count)
        } catch {
            readError = error
            isStopped = true
            return -1
        }
    }

    /// Scans `count` bytes of the prolog; returns `count`, or 0 when a `<!DOCTYPE` stops the reading.
    private func scanProlog(_ buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard !prolog.done else { return count }
        for index in 0..<count {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\n") {
                prolog.line += 1
                prolog.column = 0
            } else {
                prolog.column += 1
            }
            if byte == UInt8(ascii: "<") {
                prolog.pending = [byte]
                prolog.pendingStart = (prolog.line, prolog.column)
                continue
            }
            guard !prolog.pending.isEmpty else { continue }
            prolog.pending.append(byte)
            switch prolog.pending.count {
            case 2 where byte == UInt8(ascii: "?") || byte == UInt8(ascii: "!"):
                continue
            case 2:
                // A name after `<`: the root element starts, and with it the part XML allows no DTD in.
                prolog.done = true
                return count
            case 3 where prolog.pending[1] == UInt8(ascii: "!") && byte == UInt8(ascii: "D"):
                doctype = prolog.pendingStart
                isStopped = true
                return 0
            default:
                prolog.pending = []
            }
        }
        return count
    }
}
