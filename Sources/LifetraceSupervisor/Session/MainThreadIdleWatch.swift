import LifetraceFormat
import LifetraceRecorder

/// Passes the app stream on to the trace and notes whether the app's main thread was last seen
/// waiting in its run loop (its last main-thread event is `runloop.sleep`): the moment the system
/// holds an idle process (a prewarm `pause`), so that the app is not stopped half-way through a
/// turn of its run loop.
final class MainThreadIdleWatch: TraceEventSink {
    let target: any TraceEventSink
    /// Whether the last main-thread event drained was `runloop.sleep`.
    private(set) var mainThreadIdle = false

    init(target: any TraceEventSink) {
        self.target = target
    }

    func append(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError) {
        if event.thread.isMain && event.stream == .app { mainThreadIdle = event.type == .runloopSleep }
        try target.append(event, symbols: symbols)
    }

    func flush() throws(TraceError) { try target.flush() }

    func close() throws(TraceError) { try target.close() }
}
