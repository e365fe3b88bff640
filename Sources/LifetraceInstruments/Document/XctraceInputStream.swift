import Foundation
import LifetraceFormat

/// The bytes of one input as a stream for `XMLParser`, which reads it block by block: the
/// document is never held whole. A read error is kept for the reader to report; once the reading
/// is stopped, the stream says it has ended, so a rejected document is not read on.
final class XctraceInputStream: InputStream {
    private let input: TraceConverterInput
    private var prefixOffset = 0
    /// The first read error, if any.
    private(set) var readError: TraceError?
    /// Set when the reading stops early: every later read returns 0.
    var isStopped = false

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
            return count
        }
        do {
            return try input.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length))
        } catch {
            readError = error
            isStopped = true
            return -1
        }
    }
}
