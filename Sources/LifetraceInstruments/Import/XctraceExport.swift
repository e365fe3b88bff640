import LifetraceFormat

/// Reads what `xcrun xctrace export` writes for an App Launch recording into a lifetrace trace.
///
/// Each input is one XML document: a table export (`--xpath` of the `life-cycle-period` or the
/// `os-signpost` table) or the table of contents (`--toc`), whose first run gives the metadata
/// (app, OS, device, Instruments version and template). Several documents of one recording are
/// read together into one trace. Documents stream through `XMLParser` in bounded memory
/// (``XctraceLimits``); the first problem stops the import with an error naming the file, line
/// and column. The mapping, what is lost and the Xcode versions the structure was taken from are
/// in docs/INSTRUMENTS.md.
public enum XctraceExport: TraceConverter {
    /// Reads `inputs` with the default limits.
    public static func convert(_ inputs: [TraceConverterInput]) throws(TraceError) -> DecodedTrace {
        try convert(inputs, limits: XctraceLimits())
    }

    /// Reads `inputs`, in order, into one trace within `limits`: the rows of the recording's
    /// target process (``targetProcess(_:contents:tables:)``), the others left out and named in
    /// the metadata (`omitted`); an import that would keep nothing of rows it read is an error.
    public static func convert(_ inputs: [TraceConverterInput], limits: XctraceLimits) throws(TraceError) -> DecodedTrace {
        let log = XctraceEventLog(limits: limits)
        var contents: (table: XctraceTableOfContents, file: String)?
        var tables: String?
        for input in inputs {
            let file = input.name
            let document = try XctraceDocumentParser.read(input, limits: limits) { (row) throws(TraceError) in
                switch row.schema.name {
                case "life-cycle-period": try LifeCyclePeriodRows.append(row, to: log, file: file)
                default: try OSSignpostRows.append(row, to: log, file: file)
                }
            }
            if document.root == .tableOfContents {
                if contents == nil { contents = (document.tableOfContents, file) }
            } else if tables == nil {
                tables = file
            }
        }
        let file = contents?.file ?? tables ?? inputs.first?.name ?? "-"
        let target = try targetProcess(log, contents: contents?.table, file: file)
        let events = log.events(of: target?.pid)
        var metadata = TraceMetadata(contents?.table.metadata ?? [])
        if metadata["app"] == nil, let pid = target?.pid, let name = log.names[pid] { metadata["app"] = name }
        metadata["source"] = "xcrun xctrace export"
        guard let target else { return DecodedTrace(metadata: metadata, symbols: log.symbols, events: events) }
        // What was left out, table by table, and of which processes.
        var leftOut: [String] = []
        var others: Set<Int64> = []
        var total = 0
        for (table, counts) in log.rows {
            let count = counts.reduce(0) { $0 + ($1.key == nil || $1.key == target.pid ? 0 : $1.value) }
            guard count > 0 else { continue }
            total += count
            leftOut.append("\(count) \(table) row\(count == 1 ? "" : "s")")
            others.formUnion(counts.keys.compactMap { $0 }.filter { $0 != target.pid })
        }
        let named = others.sorted().map { pid in log.names[pid].map { "\($0) (\(pid))" } ?? "\(pid)" }
        let kept = log.rows.reduce(0) { $0 + $1.counts.reduce(0) { $0 + ($1.key == nil || $1.key == target.pid ? $1.value : 0) } }
        if kept == 0 && total > 0 {
            throw TraceError(
                .invalidValue, file: file,
                "no row is of process \(target.pid), \(target.reason): all \(total) rows are of other processes "
                    + "(\(named.joined(separator: ", "))); nothing would be imported")
        }
        // Left out by design, not a problem reading: said in the metadata, which `info` and the
        // reports show, rather than as an issue, which a CI gate takes for a trace not read whole.
        if total > 0 {
            metadata["omitted"] = leftOut.joined(separator: " and ") + " of other processes (\(named.joined(separator: ", "))): "
                + "the trace is of process \(target.pid), \(target.reason)"
        }
        return DecodedTrace(metadata: metadata, symbols: log.symbols, events: events)
    }

    /// The recording's target process, and why it is the one: the table of contents' target
    /// process; without one, the only process of the life-cycle-period rows (several are an
    /// error: only the table of contents tells which was recorded), else the process of the
    /// first os-signpost row; nil when no row names a process.
    static func targetProcess(
        _ log: XctraceEventLog, contents: XctraceTableOfContents?, file: String
    ) throws(TraceError) -> (pid: Int64, reason: String)? {
        if let pid = contents?.pid { return (pid, "the recording's target process in the table of contents") }
        let launched = log.processes(of: "life-cycle-period")
        if launched.count > 1 {
            let named = launched.map { pid in log.names[pid].map { "\($0) (\(pid))" } ?? "\(pid)" }
            throw TraceError(
                .invalidValue, file: file,
                "the life-cycle-period rows are of \(launched.count) processes (\(named.joined(separator: ", "))); "
                    + "only the table of contents says which one was recorded: import its export (xctrace export --toc) with the tables")
        }
        if let pid = launched.first { return (pid, "the only process of the life-cycle-period rows") }
        if let pid = log.firstSignpostProcess { return (pid, "the process of the first os-signpost row (no table of contents)") }
        return nil
    }
}
