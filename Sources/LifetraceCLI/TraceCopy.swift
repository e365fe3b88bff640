import LifetraceFormat

/// Feeds every event of an opened trace to `append`, reading through the concrete reader so that
/// the per-event loop is specialised (no dispatch through ``AnyTraceSource`` per event).
/// Returns the reader's issues.
func copyEvents(
    of source: AnyTraceSource, to append: (TraceEvent, SymbolTable) throws(TraceError) -> Void
) throws(TraceError) -> [TraceError] {
    if var reader = source.binary {
        while let event = try reader.next() { try append(event, reader.symbols) }
        return reader.issues
    }
    var reader = source.jsonl!
    while let event = try reader.next() { try append(event, reader.symbols) }
    return reader.issues
}
