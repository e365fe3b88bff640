import LifetraceFormat

/// Moves a region's records to a sink as the trace's `app` stream, in timestamp order.
///
/// Each drain is sorted by timestamp (rings are per thread, so threads interleave). A record
/// whose thread was preempted between taking its timestamp and publishing it can arrive after
/// a later drain was written; it is then written at the last written timestamp, so the stream
/// never goes backwards (``clampedCount`` counts such records).
public final class AppStreamPump: @unchecked Sendable {
    /// The drainer reading the region.
    public let drainer: RegionDrainer
    private var batch: [DrainedEvent] = []
    private var symbolIDs: [Symbol] = []
    private var lastWritten: Int64 = .min
    /// Records written with a later timestamp than they carried, to keep the stream in order.
    public private(set) var clampedCount = 0
    /// Records written so far, `dropped` records included.
    public private(set) var writtenCount = 0
    /// Events the producers reported dropped so far.
    public private(set) var droppedCount: Int64 = 0

    /// A pump draining `region`; see ``RegionDrainer`` for `defersCommit` and `resuming`. Nothing
    /// is written before `notBefore` (the last event already in the trace, when resuming).
    public init(region: RecorderRegion, defersCommit: Bool = false, resuming: Bool = false, notBefore: Int64 = .min) {
        drainer = RegionDrainer(region: region, defersCommit: defersCommit, resuming: resuming)
        lastWritten = notBefore
        batch.reserveCapacity(4096)
    }

    /// Drains the region once and appends what it read to `sink`, interning names into `symbols`.
    /// Returns the number of events appended.
    @discardableResult
    public func pump(into sink: any TraceEventSink, symbols: inout SymbolTable) throws(TraceError) -> Int {
        batch.removeAll(keepingCapacity: true)
        drainer.drain(into: &batch)
        guard !batch.isEmpty else { return 0 }
        // The standard library's sort is stable: equal timestamps keep their ring order.
        batch.sort { $0.timestamp < $1.timestamp }
        for var record in batch {
            if record.timestamp < lastWritten {
                record.timestamp = lastWritten
                clampedCount += 1
            }
            lastWritten = record.timestamp
            if record.type == .dropped { droppedCount += record.value }
            let event = record.traceEvent { self.symbol($0, symbols: &symbols) }
            try sink.append(event, symbols: symbols)
        }
        writtenCount += batch.count
        return batch.count
    }

    /// The trace's symbol for region name `id`, read from the region once.
    /// The cache assumes every call passes the same table, as the supervisor and writer do.
    private func symbol(_ id: UInt32, symbols: inout SymbolTable) -> Symbol {
        guard id != 0 else { return .none }
        let index = Int(id)
        if index < symbolIDs.count, !symbolIDs[index].isNone { return symbolIDs[index] }
        guard let name = drainer.region.symbol(id) else { return symbols.intern("#\(id)") }
        let symbol = symbols.intern(name)
        if index >= symbolIDs.count { symbolIDs.append(contentsOf: repeatElement(.none, count: index + 1 - symbolIDs.count)) }
        symbolIDs[index] = symbol
        return symbol
    }
}
