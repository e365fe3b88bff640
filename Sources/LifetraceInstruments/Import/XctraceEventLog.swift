import LifetraceFormat

/// The events of one import as its rows make them, put in time order at the end.
///
/// Rows give an interval's end with its start, so events are kept (at most
/// ``XctraceLimits/maxEvents``) and sorted once; events at the same time keep the order they were
/// made in. Each event remembers the process it came from, and each table counts its rows by
/// process, so that the rows of other processes are left out, and named, once the recorded
/// process is known.
final class XctraceEventLog {
    /// The strings behind the events' symbols.
    private(set) var symbols = SymbolTable()
    private var events: [TraceEvent] = []
    private var processes: [Int64?] = []
    private let limits: XctraceLimits
    /// Each table's rows by process (nil: rows that name none), in the order tables were met.
    private(set) var rows: [(table: String, counts: [Int64?: Int])] = []
    /// The name each process is shown with, as first seen.
    private(set) var names: [Int64: String] = [:]
    /// The first process an os-signpost row names.
    private(set) var firstSignpostProcess: Int64?
    private var intervals: Int64 = 0

    /// An empty log.
    init(limits: XctraceLimits) { self.limits = limits }

    /// The symbol for `string`.
    func symbol(_ string: String) -> Symbol { symbols.intern(string) }

    /// Adds `event` of process `pid` (nil: any process); `row` locates the error past the bound.
    func append(_ event: TraceEvent, process pid: Int64?, row: XctraceRow, file: String) throws(TraceError) {
        guard events.count < limits.maxEvents else {
            throw TraceError(
                .limitExceeded, file: file, at: .line(row.line, column: row.column),
                "more than \(limits.maxEvents) events; the limit keeps memory bounded")
        }
        events.append(event)
        processes.append(pid)
    }

    /// Counts a row of `table` of process `pid`, shown as `name`.
    func sawRow(of table: String, process pid: Int64?, name: String?) {
        if table == "os-signpost", firstSignpostProcess == nil { firstSignpostProcess = pid }
        if let pid, let name, names[pid] == nil { names[pid] = name }
        if let index = rows.firstIndex(where: { $0.table == table }) {
            rows[index].counts[pid, default: 0] += 1
        } else {
            rows.append((table, [pid: 1]))
        }
    }

    /// The processes `table`'s rows name, in increasing order.
    func processes(of table: String) -> [Int64] {
        (rows.first { $0.table == table }?.counts.keys.compactMap { $0 } ?? []).sorted()
    }

    /// A signpost id for the next launch-phase interval, distinct from the others'.
    func nextIntervalID() -> Int64 {
        intervals += 1
        return intervals
    }

    /// The events of process `pid` (and of no process), in time order.
    func events(of pid: Int64?) -> [TraceEvent] {
        var order: [Int] = []
        order.reserveCapacity(events.count)
        for index in events.indices where pid == nil || processes[index] == nil || processes[index] == pid {
            order.append(index)
        }
        order.sort { (events[$0].timestamp, $0) < (events[$1].timestamp, $1) }
        return order.map { events[$0] }
    }
}
