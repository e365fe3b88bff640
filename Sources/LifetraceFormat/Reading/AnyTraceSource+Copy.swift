extension AnyTraceSource {
    /// Feeds every event of the trace to `append`, reading through the concrete reader so that
    /// the per-event loop is specialised (no dispatch through ``AnyTraceSource`` per event).
    /// Returns the reader's issues.
    ///
    /// An event the output cannot hold (``TraceWriter/eventTooLarge``) is an error at its place in
    /// the input, like every other error about the input: `file:line:1` for JSONL, the event's
    /// number for a binary trace.
    public func copyEvents(
        to append: (TraceEvent, SymbolTable) throws(TraceError) -> Void
    ) throws(TraceError) -> [TraceError] {
        if var reader = binary {
            var number = 0
            while let event = try reader.next() {
                number += 1
                do throws(TraceError) {
                    try append(event, reader.symbols)
                } catch where error.message == TraceWriter.eventTooLarge {
                    throw TraceError(error.kind, file: reader.name, "event \(number): \(error.message) of the output")
                }
            }
            return reader.issues
        }
        if var reader = jsonl {
            while let event = try reader.next() {
                do throws(TraceError) {
                    try append(event, reader.symbols)
                } catch where error.message == TraceWriter.eventTooLarge {
                    throw TraceError(error.kind, file: reader.name, at: .line(reader.lineNumber, column: 1), error.message + " of the output")
                }
            }
            return reader.issues
        }
        var reader = decoded!
        while let event = try reader.next() { try append(event, reader.symbols) }
        return reader.issues
    }
}
