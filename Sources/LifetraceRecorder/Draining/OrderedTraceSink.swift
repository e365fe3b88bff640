import LifetraceFormat

/// Puts the events of the two streams into a sink in one timestamp order.
///
/// A binary trace's reader merges streams by timestamp only within a flush group, so a writer
/// fed with a system event before app events that happened earlier would make them read out of
/// order. This sink holds events back until ``release(through:)`` says no earlier event can still
/// arrive (the supervisor passes the time it started its last drain of the app's region), then
/// appends them merged.
public final class OrderedTraceSink: TraceEventSink {
    let target: any TraceEventSink
    private var pending: [[TraceEvent]] = [[], []]
    private var heads = [0, 0]
    private var latestSymbols = SymbolTable()

    /// A sink ordering events for `target`.
    public init(target: any TraceEventSink) {
        self.target = target
    }

    /// Holds `event` back until it is released; each stream must arrive in its own time order.
    public func append(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError) {
        pending[Int(event.stream.rawValue)].append(event)
        latestSymbols = symbols
    }

    /// Appends, in timestamp order, every held event stamped at or before `watermark`.
    public func release(through watermark: Int64) throws(TraceError) {
        while true {
            var best = -1
            for stream in 0..<2 where heads[stream] < pending[stream].count {
                let timestamp = pending[stream][heads[stream]].timestamp
                if timestamp <= watermark && (best < 0 || timestamp < pending[best][heads[best]].timestamp) {
                    best = stream
                }
            }
            guard best >= 0 else { break }
            try target.append(pending[best][heads[best]], symbols: latestSymbols)
            heads[best] += 1
        }
        for stream in 0..<2 where heads[stream] > 1024 || heads[stream] == pending[stream].count {
            pending[stream].removeFirst(heads[stream])
            heads[stream] = 0
        }
    }

    /// The number of events held back.
    public var pendingCount: Int { pending[0].count - heads[0] + pending[1].count - heads[1] }

    /// Flushes what was released so far.
    public func flush() throws(TraceError) {
        try target.flush()
    }

    /// Releases everything and closes the target.
    public func close() throws(TraceError) {
        try release(through: .max)
        try target.close()
    }
}

extension TraceWriter: TraceEventSink {}
