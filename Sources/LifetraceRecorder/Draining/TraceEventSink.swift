import Foundation
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

extension TraceEvent {
    /// The same event with its symbols moved from `source` to `target`.
    public func reinterned(from source: SymbolTable, into target: inout SymbolTable) -> TraceEvent {
        func move(_ symbol: Symbol) -> Symbol {
            guard let string = source.string(symbol) else { return .none }
            return target.intern(string)
        }
        var copy = self
        switch payload {
        case .launch(let reason, let background, let prewarm, let pid):
            copy.payload = .launch(reason: move(reason), background: background, prewarm: prewarm, pid: pid)
        case .state(let to, let scene):
            copy.payload = .state(to: to, scene: move(scene))
        case .callbackBegin(let name, let scene):
            copy.payload = .callbackBegin(name: move(name), scene: move(scene))
        case .callbackEnd(let name, let scene):
            copy.payload = .callbackEnd(name: move(name), scene: move(scene))
        case .signpostBegin(let name, let id):
            copy.payload = .signpostBegin(name: move(name), id: id)
        case .signpostEnd(let name, let id):
            copy.payload = .signpostEnd(name: move(name), id: id)
        case .mark(let name):
            copy.payload = .mark(name: move(name))
        case .bgtaskBegin(let id, let name):
            copy.payload = .bgtaskBegin(id: id, name: move(name))
        case .bgtaskEnd(let id, let name):
            copy.payload = .bgtaskEnd(id: id, name: move(name))
        case .bgtaskExpire(let id, let name):
            copy.payload = .bgtaskExpire(id: id, name: move(name))
        case .runloopWake, .runloopSleep, .frame, .exit, .dropped:
            break
        }
        return copy
    }
}
