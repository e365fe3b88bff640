extension AnyTraceSource {
    /// Feeds every event of the trace to `append`, reading through the concrete reader so that
    /// the per-event loop is specialised (no dispatch through ``AnyTraceSource`` per event).
    /// Returns the reader's issues.
    public func copyEvents(
        to append: (TraceEvent, SymbolTable) throws(TraceError) -> Void
    ) throws(TraceError) -> [TraceError] {
        if var reader = binary {
            while let event = try reader.next() { try append(event, reader.symbols) }
            return reader.issues
        }
        if var reader = jsonl {
            while let event = try reader.next() { try append(event, reader.symbols) }
            return reader.issues
        }
        var reader = decoded!
        while let event = try reader.next() { try append(event, reader.symbols) }
        return reader.issues
    }
}
