import LifetraceFormat

/// The os-signpost table as lifetrace events, one row at a time.
///
/// Columns read (by mnemonic): `time` (event-time), `thread`, `process`, `event-type`,
/// `identifier` (os-signpost-identifier), `name` (signpost-name). A `Begin` row is a
/// `signpost.begin`, an `End` row a `signpost.end` (the identifier is the signpost id), an
/// `Event` row a `mark`; on the row's thread (the main thread when Instruments calls it so). The
/// subsystem, category, scope and message are not kept. See docs/INSTRUMENTS.md.
enum OSSignpostRows {
    /// Adds the event of `row` to `log`.
    static func append(_ row: XctraceRow, to log: XctraceEventLog, file: String) throws(TraceError) {
        let time = try row.nanoseconds(row.required("time", file: file), file: file)
        let kind = XctraceRow.text(of: try row.required("event-type", file: file))
        let threadValue = row.cell("thread")
        var pid = try row.pid(of: row.cell("process"), file: file)
        if pid == nil { pid = try row.pid(of: threadValue, file: file) }
        log.sawRow(of: "os-signpost", process: pid, name: XctraceRow.processName(of: row.cell("process") ?? threadValue?.child("process")))
        let name = row.cell("name").map(XctraceRow.text(of:)) ?? ""
        let symbol = log.symbol(name.isEmpty ? "(unnamed)" : name)
        let id = row.cell("identifier")?.unsigned.map { Int64(bitPattern: $0) }
        let payload: EventPayload
        switch kind {
        case "Begin": payload = .signpostBegin(name: symbol, id: id)
        case "End": payload = .signpostEnd(name: symbol, id: id)
        case "Event": payload = .mark(name: symbol)
        default:
            throw row.error(.invalidValue, "os-signpost event-type \"\(kind)\" is not Begin, End or Event", file: file)
        }
        let event = TraceEvent(timestamp: time, payload: payload, thread: XctraceRow.thread(of: threadValue))
        try log.append(event, process: pid, row: row, file: file)
    }
}
