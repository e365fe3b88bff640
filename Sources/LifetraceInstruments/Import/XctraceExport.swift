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

    /// Reads `inputs`, in order, into one trace within `limits`.
    public static func convert(_ inputs: [TraceConverterInput], limits: XctraceLimits) throws(TraceError) -> DecodedTrace {
        let log = XctraceEventLog(limits: limits)
        var contents: XctraceTableOfContents?
        for input in inputs {
            let file = input.name
            let document = try XctraceDocumentParser.read(input, limits: limits) { (row) throws(TraceError) in
                switch row.schema.name {
                case "life-cycle-period": try LifeCyclePeriodRows.append(row, to: log, file: file)
                default: try OSSignpostRows.append(row, to: log, file: file)
                }
            }
            if document.root == .tableOfContents, contents == nil { contents = document.tableOfContents }
        }
        let process = contents?.pid ?? log.launchedProcess ?? log.firstSignpostProcess?.pid
        let (events, leftOut) = log.events(of: process)
        var metadata = TraceMetadata(contents?.metadata ?? [])
        if metadata["app"] == nil, let name = log.processName ?? log.firstSignpostProcess?.name { metadata["app"] = name }
        metadata["source"] = "xcrun xctrace export"
        // Left out by design, not a problem reading: said in the metadata, which `info` and the
        // reports show, rather than as an issue, which a CI gate takes for a trace not read whole.
        if leftOut > 0, let process { metadata["omitted"] = "\(leftOut) os-signpost rows of processes other than \(process)" }
        return DecodedTrace(metadata: metadata, symbols: log.symbols, events: events)
    }
}
