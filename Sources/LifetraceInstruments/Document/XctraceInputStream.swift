import Foundation
import LifetraceFormat

/// The bytes of one input as a stream for `XMLParser`, which reads it block by block: the
/// document is never held whole. A read error is kept for the reader to report; once the reading
/// is stopped, the stream says it has ended, so a rejected document is not read on.
///
/// `XMLParser` reports no DTD to its delegate (FoundationXML on Linux reports neither the
/// `<!DOCTYPE` nor an entity's declaration, and drops a declared entity's reference without a
/// word), so the prolog (the bytes before the root element, the only place XML allows a DTD) is
/// read here by XML's own grammar for it: comments (`<!-- ... -->`) and processing instructions
/// (`<? ... ?>`) are skipped whole, whatever they hold, and a `<!DOCTYPE` anywhere between them
/// ends the reading before the parser sees it. A DTD after the root element's start is not
/// well-formed, which the parser reports.
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

    /// The scan of the bytes before the root element, across reads: where in the prolog's
    /// grammar the last byte left it.
    private struct PrologScan {
        enum Place {
            /// Between markup.
            case between
            /// After `<`.
            case open
            /// After `<!`.
            case bang
            /// After `<!-`.
            case bangDash
            /// Inside a comment, after `dashes` dashes in a row.
            case comment(dashes: Int)
            /// Inside a processing instruction (or the XML declaration), after a `?` or not.
            case instruction(question: Bool)
            /// The root element started: the prolog is over.
            case done
        }
        var place = Place.between
        var line = 1
        var column = 0
        /// Where the last `<` is.
        var markupStart = (line: 1, column: 1)
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
        for index in 0..<count {
            if case .done = prolog.place { return count }
            let byte = buffer[index]
            if byte == UInt8(ascii: "\n") {
                prolog.line += 1
                prolog.column = 0
            } else {
                prolog.column += 1
            }
            switch prolog.place {
            case .between:
                if byte == UInt8(ascii: "<") {
                    prolog.place = .open
                    prolog.markupStart = (prolog.line, prolog.column)
                }
            case .open:
                switch byte {
                case UInt8(ascii: "?"): prolog.place = .instruction(question: false)
                case UInt8(ascii: "!"): prolog.place = .bang
                // A name (or anything else, which the parser refuses): the root element starts.
                default: prolog.place = .done
                }
            case .bang:
                switch byte {
                case UInt8(ascii: "-"): prolog.place = .bangDash
                case UInt8(ascii: "D"):
                    doctype = prolog.markupStart
                    isStopped = true
                    return 0
                // Not allowed in a prolog: the parser says so.
                default: prolog.place = .done
                }
            case .bangDash:
                prolog.place = byte == UInt8(ascii: "-") ? .comment(dashes: 0) : .done
            case .comment(let dashes):
                if byte == UInt8(ascii: "-") {
                    prolog.place = .comment(dashes: dashes + 1)
                } else if byte == UInt8(ascii: ">") && dashes >= 2 {
                    prolog.place = .between
                } else {
                    prolog.place = .comment(dashes: 0)
                }
            case .instruction(let question):
                if byte == UInt8(ascii: ">") && question {
                    prolog.place = .between
                } else {
                    prolog.place = .instruction(question: byte == UInt8(ascii: "?"))
                }
            case .done:
                return count
            }
        }
        return count
    }
}
