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
    /// Events the producers reported dropped so far, and records rejected (``rejectedCount``);
    /// saturates at Int64.max, however large the counts a damaged or hostile region holds.
    public private(set) var droppedCount: Int64 = 0
    /// Whether a record stamped later than the drain is rejected: a live process on the same
    /// clock cannot have taken such a timestamp, and one would hold every later event back
    /// (a recovery, whose process may have run before a reboot, does not reject them).
    public let rejectsFutureTimestamps: Bool
    private var futureRejected: Int64 = 0

    /// Records read and not written: the drainer's rejected slots (``RegionDrainer/rejectedCount``)
    /// and, with ``rejectsFutureTimestamps``, records stamped after the drain. Each is counted in
    /// a `dropped` record in the trace.
    public var rejectedCount: Int64 { TraceTime.advanced(drainer.rejectedCount, by: futureRejected) }

    /// A pump draining `region`; see ``RegionDrainer`` for `defersCommit`, `resuming` and
    /// `givesUpOnDamage`. Nothing is written before `notBefore` (the last event already in the
    /// trace, when resuming).
    public init(
        region: RecorderRegion, defersCommit: Bool = false, resuming: Bool = false, notBefore: Int64 = .min,
        rejectsFutureTimestamps: Bool = false, givesUpOnDamage: Bool = false
    ) {
        drainer = RegionDrainer(
            region: region, defersCommit: defersCommit, resuming: resuming, givesUpOnDamage: givesUpOnDamage)
        lastWritten = notBefore
        self.rejectsFutureTimestamps = rejectsFutureTimestamps
        batch.reserveCapacity(4096)
    }

    /// Drains the region once and appends what it read to `sink`, interning names into `symbols`.
    /// Returns the number of events appended.
    @discardableResult
    public func pump(into sink: any TraceEventSink, symbols: inout SymbolTable) throws(TraceError) -> Int {
        batch.removeAll(keepingCapacity: true)
        drainer.drain(into: &batch)
        if rejectsFutureTimestamps { rejectFuture() }
        try writeSideRecords(into: sink)
        guard !batch.isEmpty else { return 0 }
        // The standard library's sort is stable: equal timestamps keep their ring order.
        batch.sort { $0.timestamp < $1.timestamp }
        for record in batch { try write(record, into: sink, symbols: &symbols) }
        writtenCount += batch.count
        return batch.count
    }

    /// Drains the region once, as ``pump(into:symbols:)`` does, with the rings merged as they are
    /// read (``RegionDrainer/drainMerged(_:)``) rather than gathered and sorted: memory stays
    /// bounded by the number of rings however full they are (a recovery). Does not reject records
    /// stamped after the drain.
    @discardableResult
    public func pumpMerged(into sink: any TraceEventSink, symbols: inout SymbolTable) throws(TraceError) -> Int {
        var count = 0
        try drainer.drainMerged { (record: DrainedEvent) throws(TraceError) in
            try write(record, into: sink, symbols: &symbols)
            count += 1
        }
        try writeSideRecords(into: sink)
        writtenCount += count
        return count
    }

    /// Stack samples and images written so far (docs/RECORDING.md, "Stack samples").
    public private(set) var sampleCount = 0

    /// Writes the images and samples the drainer read to `sink`, when it takes them.
    private func writeSideRecords(into sink: any TraceEventSink) throws(TraceError) {
        let records = drainer.sideRecords.take()
        guard !records.isEmpty, let target = sink as? any StackSampleSink else { return }
        try target.write(records)
        sampleCount += records.count
    }

    /// Appends one record, never before the last one written (see the type's comment).
    private func write(_ drained: DrainedEvent, into sink: any TraceEventSink, symbols: inout SymbolTable) throws(TraceError) {
        var record = drained
        if record.timestamp < lastWritten {
            record.timestamp = lastWritten
            clampedCount += 1
        }
        lastWritten = record.timestamp
        if record.type == .dropped { droppedCount = TraceTime.advanced(droppedCount, by: record.value) }
        let event = record.traceEvent { self.symbol($0, symbols: &symbols) }
        try sink.append(event, symbols: symbols)
    }

    /// Removes the records stamped after now (read after the drain: every record it read was
    /// stamped before), counting them in one `dropped` record.
    private func rejectFuture() {
        let now = MonotonicClock.now()
        var future: Int64 = 0
        var latest = Int64.min
        // A drainer's `dropped` record carries the counts of its ring (stamped at the ring's
        // latest record, which may be one of those removed): it is kept, moved to now, so that
        // the counts the trace holds are the counts reported.
        for index in batch.indices where batch[index].type == .dropped && batch[index].timestamp > now {
            batch[index].timestamp = now
        }
        batch.removeAll { record in
            guard record.timestamp > now else {
                latest = max(latest, record.timestamp)
                return false
            }
            future += 1
            return true
        }
        guard future > 0 else { return }
        futureRejected = TraceTime.advanced(futureRejected, by: future)
        batch.append(
            DrainedEvent(
                timestamp: max(latest, lastWritten == .min ? now : lastWritten), type: .dropped, thread: .main, name: 0,
                scene: 0, value: future, hasValue: true))
    }

    /// The trace's symbol for region name `id`, as the drainer read it.
    /// The cache assumes every call passes the same table, as the supervisor and writer do.
    private func symbol(_ id: UInt32, symbols: inout SymbolTable) -> Symbol {
        guard id != 0 else { return .none }
        let index = Int(id)
        if index < symbolIDs.count, !symbolIDs[index].isNone { return symbolIDs[index] }
        // The drainer passes on only records whose names the region holds (it read them once).
        guard let name = drainer.names.name(id) else { return .none }
        let symbol = symbols.intern(name)
        if index >= symbolIDs.count { symbolIDs.append(contentsOf: repeatElement(.none, count: index + 1 - symbolIDs.count)) }
        symbolIDs[index] = symbol
        return symbol
    }
}
