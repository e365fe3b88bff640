/// The two ways a binary trace ends early (docs/FORMAT.md, "Truncation"), told apart: at a frame
/// boundary without its end-of-trace record, or inside a frame.
extension TraceError {
    // The one spelling of the unclosed end's message, which ``isNotClosed`` recognises.
    private static let notClosedPrefix = "not closed: "

    /// The issue of a binary trace that ends at byte `offset`, at a frame boundary, without its
    /// end-of-trace record.
    static func notClosed(file: String, at offset: Int64) -> TraceError {
        TraceError(.truncated, file: file, at: .byte(offset, chunk: nil), "\(notClosedPrefix)no end-of-trace record (truncated at byte \(offset))")
    }

    /// Whether this issue only says that a binary trace ends unclosed at a frame boundary: every
    /// frame written was read whole, as in the trace of an app killed between two flushes (which
    /// `lifetrace recover` seals). A trace that ends inside a frame is not: data was cut off.
    public var isNotClosed: Bool {
        kind == .truncated && message.hasPrefix(TraceError.notClosedPrefix)
    }
}

extension Array where Element == TraceError {
    /// Whether these issues of a reader say that data of the trace was lost: anything but an
    /// unclosed end (``TraceError/isNotClosed``). A copy of such a trace is marked as missing data
    /// (``TraceWriter/marksDataLost``), so that it does not read as whole.
    public var losesData: Bool { contains { !$0.isNotClosed } }
}
