import Foundation
import LifetraceFormat

/// A sink that keeps events in memory, for tests and for tools that analyse a run in-process.
public final class TraceEventCollection: TraceEventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var storedEvents: [TraceEvent] = []
    private var storedSymbols = SymbolTable()
    private var flushedCount = 0
    private var closed = false

    /// An empty collection.
    public init() {}

    /// Adds one event, re-interning its symbols into the collection's own table.
    public func append(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError) {
        lock.withLock {
            storedEvents.append(event.reinterned(from: symbols, into: &storedSymbols))
        }
    }

    /// Marks everything appended so far as flushed.
    public func flush() throws(TraceError) {
        lock.withLock { flushedCount = storedEvents.count }
    }

    /// Flushes and marks the collection closed.
    public func close() throws(TraceError) {
        lock.withLock {
            flushedCount = storedEvents.count
            closed = true
        }
    }

    /// The events appended so far, with the table their symbols refer to.
    public var snapshot: (events: [TraceEvent], symbols: SymbolTable) {
        lock.withLock { (storedEvents, storedSymbols) }
    }

    /// The number of events covered by the last flush.
    public var flushed: Int { lock.withLock { flushedCount } }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { lock.withLock { closed } }
}
