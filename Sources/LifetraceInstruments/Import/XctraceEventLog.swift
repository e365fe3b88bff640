import LifetraceFormat

/// The events of one import as its rows make them, put in time order at the end.
///
/// Rows give an interval's end with its start, so events are kept (at most
/// ``XctraceLimits/maxEvents``) and sorted once; events at the same time keep the order they were
/// made in. Each event remembers the process it came from, so that signposts of other processes
/// are left out once the recorded process is known.
final class XctraceEventLog {
    /// The strings behind the events' symbols.
    private(set) var symbols = SymbolTable()
    private var events: [TraceEvent] = []
    private var processes: [Int64?] = []
    private let limits: XctraceLimits
    /// The first process a `launch` names, the recorded process when no table of contents says.
    private(set) var launchedProcess: Int64?
    /// The first process an os-signpost row names, and its name.
    private(set) var firstSignpostProcess: (pid: Int64?, name: String?)?
    private var intervals: Int64 = 0
    /// The first process name a table shows.
    var processName: String?

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
        if case .launch = event.payload, launchedProcess == nil { launchedProcess = pid }
        events.append(event)
        processes.append(pid)
    }

    /// Notes the process of an os-signpost row.
    func sawSignpost(of pid: Int64?, name: String?) {
        if firstSignpostProcess == nil { firstSignpostProcess = (pid, name) }
    }

    /// A signpost id for the next launch-phase interval, distinct from the others'.
    func nextIntervalID() -> Int64 {
        intervals += 1
        return intervals
    }

    /// The events of process `pid` (and of no process), in time order, and how many were left out.
    func events(of pid: Int64?) -> (events: [TraceEvent], leftOut: Int) {
        var order: [Int] = []
        order.reserveCapacity(events.count)
        for index in events.indices where pid == nil || processes[index] == nil || processes[index] == pid {
            order.append(index)
        }
        let leftOut = events.count - order.count
        order.sort { (events[$0].timestamp, $0) < (events[$1].timestamp, $1) }
        return (order.map { events[$0] }, leftOut)
    }
}
