import Foundation
import LifetraceFormat

/// Output held back until its turn: bytes stay in memory up to a limit, and past it the whole
/// spool moves to an unnamed temporary file, so that several traces can be written side by side
/// and copied out in order with memory bounded by the limit, not by the output's size. A spool
/// made on an output writes straight through to it instead (one trace, nothing to wait for).
///
/// One thread writes to a spool at a time.
public final class OutputSpool: @unchecked Sendable {
    /// The bytes kept in memory before the spool moves to a temporary file.
    public static let memoryLimit = 1 << 20

    private var buffer: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?
    private var failed = false
    private let direct: StagedOutputFile?
    private var directError: TraceError?

    /// An empty spool.
    public init() { direct = nil }

    /// A spool that writes straight through to `output`; the first write error is thrown by
    /// ``copy(to:)``.
    public init(writingThrough output: StagedOutputFile) { direct = output }

    deinit { if let file { fclose(file) } }

    /// Appends a string's UTF-8.
    public func write(_ string: String) {
        buffer.append(contentsOf: string.utf8)
        wrote()
    }

    /// Lets `body` append bytes in place (a JSON value written straight into the spool).
    public func write(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        wrote()
    }

    private func wrote() {
        if let direct {
            // Written through in blocks, so that a streamed document costs few writes.
            if buffer.count >= 1 << 16 { writeThrough(direct) }
        } else if buffer.count >= Self.memoryLimit {
            spill()
        }
    }

    private func writeThrough(_ output: StagedOutputFile) {
        if directError == nil {
            do throws(TraceError) { try output.write(buffer) } catch { directError = error }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private func spill() {
        if file == nil { file = tmpfile() }
        guard let file else {
            // No temporary file can be made: keep the output in memory rather than lose it.
            return
        }
        let written = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != buffer.count { failed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Copies everything written, in order, to `output`, and empties the spool (for a spool that
    /// writes through: throws the write error it met, if any).
    public func copy(to output: StagedOutputFile) throws(TraceError) {
        if let direct {
            writeThrough(direct)
            if let directError { throw directError }
            return
        }
        if let file {
            spill()
            fflush(file)
            rewind(file)
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if count == 0 { break }
                try output.write(chunk[..<count])
            }
            if failed || ferror(file) != 0 { throw TraceError(.io, file: output.name, "cannot read back a temporary file") }
            fclose(file)
            self.file = nil
            return
        }
        try output.write(buffer)
        buffer.removeAll()
    }
}
