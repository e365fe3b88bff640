import LifetraceFormat

/// Writes the timeline in the Trace Event Format (the JSON that chrome://tracing, Perfetto's
/// legacy importer, Speedscope and others read): one object with `displayTimeUnit`, `otherData`
/// (the trace's metadata) and `traceEvents`, one event per line.
///
/// Every track becomes a thread of one process (`tid` = the track's index) named by an `M`
/// (`thread_name`) event and ordered by `thread_sort_index`; slices are `B`/`E` pairs, or `X`
/// with a duration for the analysis's stalls and launch windows; instants are `i` with thread
/// scope. Times are microseconds with three decimals, so nanoseconds survive.
public struct ChromeTraceWriter: TimelineRecordWriter {
    private let output: ExportOutputFile
    private var line: [UInt8] = []
    private var escapedNames: [[UInt8]?] = []
    private var categoryLiterals: [[UInt8]] = TimelineCategory.allCases.map { JSONBytes.quoted($0.name) }
    private var pid: Int64 = 1
    private var eventCount = 0
    /// How many objects were written to `traceEvents`.
    public var traceEventCount: Int { eventCount }

    /// A writer to `output`, which it commits in ``finish()``.
    public init(output: ExportOutputFile) {
        self.output = output
        line.reserveCapacity(512)
    }

    /// Writes the object's head, with the metadata as `otherData`.
    public mutating func start(metadata: TraceMetadata) throws(ExportError) {
        var head: [UInt8] = Array("{\"displayTimeUnit\":\"ns\",\"otherData\":{".utf8)
        for (index, field) in metadata.fields.enumerated() {
            if index > 0 { head.append(UInt8(ascii: ",")) }
            head += JSONBytes.quoted(field.key)
            head.append(UInt8(ascii: ":"))
            head += JSONBytes.quoted(field.value)
        }
        head += Array("},\n\"traceEvents\":[\n".utf8)
        try output.write(head)
    }

    /// Names the process or the track's thread, and orders it.
    public mutating func declare(_ track: TimelineTrack) throws(ExportError) {
        switch track.kind {
        case .process(let pid):
            self.pid = pid
            try metadataEvent(tid: 0, name: "process_name", argument: "name", value: JSONBytes.quoted(track.name))
        case .thread, .lane:
            try metadataEvent(tid: track.index, name: "thread_name", argument: "name", value: JSONBytes.quoted(track.name))
            var rank: [UInt8] = []
            JSONBytes.appendInteger(Int64(track.index), to: &rank)
            try metadataEvent(tid: track.index, name: "thread_sort_index", argument: "sort_index", value: rank)
        }
    }

    /// Writes one event object.
    public mutating func write(_ record: TimelineRecord, names: SymbolTable) throws(ExportError) {
        line.removeAll(keepingCapacity: true)
        beginEvent(tid: record.track)
        switch record.phase {
        case .begin: append("\"ph\":\"B\",\"ts\":")
        case .end: append("\"ph\":\"E\",\"ts\":")
        case .instant: append("\"ph\":\"i\",\"s\":\"t\",\"ts\":")
        case .complete(let duration):
            append("\"ph\":\"X\",\"dur\":")
            JSONBytes.appendMicroseconds(duration, to: &line)
            append(",\"ts\":")
        }
        JSONBytes.appendMicroseconds(record.timestamp, to: &line)
        if record.phase != .end {
            append(",\"cat\":")
            line += categoryLiterals[Int(record.category.rawValue)]
            append(",\"name\":")
            appendName(record.name, names: names)
            if !record.args.isEmpty {
                append(",\"args\":{")
                for index in 0..<record.args.count {
                    let arg = record.args[index]
                    if index > 0 { append(",") }
                    appendName(arg.key, names: names)
                    append(":")
                    switch arg.value {
                    case .int(let value): JSONBytes.appendInteger(value, to: &line)
                    case .name(let symbol): appendName(symbol, names: names)
                    case .text(let text): line += JSONBytes.quoted(text)
                    }
                }
                append("}")
            }
        }
        append("}")
        try flushLine()
    }

    /// Closes the array and the object, and commits the file.
    public mutating func finish() throws(ExportError) {
        try output.write(Array("\n]}\n".utf8))
        try output.commit()
    }

    // MARK: - Pieces

    private mutating func metadataEvent(tid: Int, name: String, argument: String, value: [UInt8]) throws(ExportError) {
        line.removeAll(keepingCapacity: true)
        beginEvent(tid: tid)
        append("\"ph\":\"M\",\"name\":\"\(name)\",\"args\":{\"\(argument)\":")
        line += value
        append("}}")
        try flushLine()
    }

    private mutating func beginEvent(tid: Int) {
        if eventCount > 0 { append(",\n") }
        append("{\"pid\":")
        JSONBytes.appendInteger(pid, to: &line)
        append(",\"tid\":")
        JSONBytes.appendInteger(Int64(tid), to: &line)
        append(",")
    }

    private mutating func flushLine() throws(ExportError) {
        eventCount += 1
        try output.write(line)
    }

    private mutating func appendName(_ symbol: Symbol, names: SymbolTable) {
        let index = Int(symbol.rawValue)
        if index >= escapedNames.count {
            escapedNames.append(contentsOf: repeatElement(nil, count: index + 1 - escapedNames.count))
        }
        if let escaped = escapedNames[index] {
            line += escaped
            return
        }
        let escaped = JSONBytes.quoted(names[symbol])
        escapedNames[index] = escaped
        line += escaped
    }

    private mutating func append(_ text: String) {
        line.append(contentsOf: text.utf8)
    }
}
