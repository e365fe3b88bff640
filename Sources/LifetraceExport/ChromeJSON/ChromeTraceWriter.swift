import LifetraceFormat
import LifetraceOutput

/// Writes the timeline in the Trace Event Format (the JSON that chrome://tracing, Perfetto's
/// legacy importer, Speedscope and others read): one object with `displayTimeUnit`, `otherData`
/// (the trace's metadata) and `traceEvents`, one event per line.
///
/// Every track becomes a thread of one process (`tid` = the track's index) named by an `M`
/// (`thread_name`) event and ordered by `thread_sort_index`; slices are `B`/`E` pairs, or `X`
/// with a duration for the analysis's stalls and launch windows; instants are `i` with thread
/// scope. Times are microseconds with three decimals, so nanoseconds survive.
///
/// The document is streamed: each event is written by the package's one JSON writer
/// (`JSONOutput`, compact, strings escaped as the trace's text form escapes them) into a line
/// buffer that goes out before the next, so memory does not grow with the number of events.
public struct ChromeTraceWriter: TimelineRecordWriter {
    private let output: ExportOutputFile
    private var line: [UInt8] = []
    private var escapedNames: [[UInt8]?] = []
    private var categoryLiterals: [[UInt8]] = TimelineCategory.allCases.map { Self.quoted($0.name) }
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
        var head: [UInt8] = Array("{\"displayTimeUnit\":\"ns\",\"otherData\":".utf8)
        JSONOutput.write(to: &head, lineSeparators: false) { json in
            json.object { json in
                for field in metadata.fields {
                    json.key(escaping: field.key)
                    json.value(field.value)
                }
            }
        }
        head += Array(",\n\"traceEvents\":[\n".utf8)
        try output.write(head)
    }

    /// Names the process or the track's thread, and orders it.
    public mutating func declare(_ track: TimelineTrack) throws(ExportError) {
        switch track.kind {
        case .process(let pid):
            self.pid = pid
            try metadataEvent(tid: 0, name: "process_name") { $0.member("name", track.name) }
        case .thread, .lane:
            try metadataEvent(tid: track.index, name: "thread_name") { $0.member("name", track.name) }
            try metadataEvent(tid: track.index, name: "thread_sort_index") { $0.member("sort_index", Int64(track.index)) }
        }
    }

    /// Writes one event object.
    public mutating func write(_ record: TimelineRecord, names: SymbolTable) throws(ExportError) {
        try event(tid: record.track) { json, writer in
            switch record.phase {
            case .begin: json.member("ph", "B")
            case .end: json.member("ph", "E")
            case .instant:
                json.member("ph", "i")
                json.member("s", "t")
            case .complete(let duration):
                json.member("ph", "X")
                json.key("dur")
                json.value(scaled: duration, decimals: 3)
            }
            json.key("ts")
            json.value(scaled: record.timestamp, decimals: 3)
            guard record.phase != .end else { return }
            json.key("cat")
            json.value(quoted: writer.categoryLiterals[Int(record.category.rawValue)])
            json.key("name")
            json.value(quoted: writer.quoted(record.name, names: names))
            guard !record.args.isEmpty else { return }
            json.key("args")
            json.object { json in
                for index in 0..<record.args.count {
                    let arg = record.args[index]
                    json.key(quoted: writer.quoted(arg.key, names: names))
                    switch arg.value {
                    case .int(let value): json.value(value)
                    case .name(let symbol): json.value(quoted: writer.quoted(symbol, names: names))
                    case .text(let text): json.value(text)
                    }
                }
            }
        }
    }

    /// Closes the array and the object, and commits the file.
    public mutating func finish() throws(ExportError) {
        try output.write(Array("\n]}\n".utf8))
        try output.commit()
    }

    // MARK: - Pieces

    /// A metadata (`M`) event named `name`, whose `args` members `args` writes.
    private mutating func metadataEvent(tid: Int, name: StaticString, args: (inout JSONOutput) -> Void) throws(ExportError) {
        try event(tid: tid) { json, _ in
            json.member("ph", "M")
            json.key("name")
            json.value(name.description)
            json.member("args", object: args)
        }
    }

    /// One event object on a line of its own: `pid` and `tid`, then the members `body` writes.
    private mutating func event(tid: Int, _ body: (inout JSONOutput, inout ChromeTraceWriter) -> Void) throws(ExportError) {
        line.removeAll(keepingCapacity: true)
        if eventCount > 0 { line.append(contentsOf: ",\n".utf8) }
        let pid = pid
        // The line moves into the closure's writer and back, so that `body` may fill the names'
        // cache of this writer meanwhile.
        var bytes: [UInt8] = []
        swap(&bytes, &line)
        JSONOutput.write(to: &bytes, lineSeparators: false) { json in
            json.object { json in
                json.member("pid", pid)
                json.member("tid", Int64(tid))
                body(&json, &self)
            }
        }
        swap(&bytes, &line)
        eventCount += 1
        try output.write(line)
    }

    /// The name behind `symbol` as a JSON string, escaped once per name.
    private mutating func quoted(_ symbol: Symbol, names: SymbolTable) -> [UInt8] {
        let index = Int(symbol.rawValue)
        if index >= escapedNames.count {
            escapedNames.append(contentsOf: repeatElement(nil, count: index + 1 - escapedNames.count))
        }
        if let escaped = escapedNames[index] { return escaped }
        let escaped = Self.quoted(names[symbol])
        escapedNames[index] = escaped
        return escaped
    }

    /// `string` as a JSON string, escaped as the trace's text form escapes it.
    private static func quoted(_ string: String) -> [UInt8] { JSONOutput.quoted(string, lineSeparators: false) }
}
