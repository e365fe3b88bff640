import LifetraceFormat

/// Where drained events are written: the binary `TraceWriter`, or an in-memory collection.
///
/// Events of one stream are appended in timestamp order.
public protocol TraceEventSink: AnyObject {
    /// Adds one event; its symbols are strings of `symbols`.
    func append(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError)
    /// Makes everything appended so far durable in the output.
    func flush() throws(TraceError)
    /// Flushes and releases the output.
    func close() throws(TraceError)
}
