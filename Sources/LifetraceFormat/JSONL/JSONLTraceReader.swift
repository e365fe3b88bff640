import Foundation

/// Reads a trace in the text form: one JSON object per line (see `docs/JSONL.md`).
///
/// The input is read line by line in bounded memory: a line longer than 1 MiB is an error, found
/// without reading the line whole. Blank lines (empty or only whitespace) are skipped but counted,
/// so line numbers in errors match an editor's. An optional `meta` object on the first non-blank
/// line holds the metadata. A `callback` shorthand with a duration becomes a `callback.begin`
/// now and a `callback.end` at `ts + dur`, delivered before the first later event that is due
/// after it: any event with a later timestamp, or an event of its own stream at the same
/// timestamp. Every problem is a ``TraceError`` naming the line and column; nothing is skipped.
public struct JSONLTraceReader: TraceEventSource {
    /// The trace's metadata, from the `meta` line, or empty.
    public private(set) var metadata = TraceMetadata()
    /// The strings behind the events' symbols; grows as events are read.
    public private(set) var symbols = SymbolTable()

    /// The number of strings in ``symbols``.
    public var symbolCount: Int { symbols.count }
    /// The stack samples, images and symbols read so far (docs/JSONL.md, "Stack samples").
    public var sampledStacks: SampledStacks { stackLines.collected }
    /// Always empty: every problem in a text trace stops the reading with an error.
    public var issues: [TraceError] { [] }

    /// The input's name, as errors give it.
    public var name: String { lines.name }

    /// The number of the line read last (1-based): the line of the event ``next()`` returned
    /// last, unless that was the end of a `callback` shorthand. Each event carries its own line
    /// (``TraceEvent/line``; a shorthand's end has the shorthand's).
    public var lineNumber: Int { lines.lineNumber }

    private var lines: JSONLLineReader
    private let decoder: JSONLLineDecoder
    private var pendingEnds = PendingCallbackEnds()
    private var lookahead: JSONLLineDecoder.Line?
    private var sawFirstLine = false
    private let stackLines = JSONLSampledStacks()

    /// Opens the file at `path`; `-` reads standard input. Reads the metadata and the first event
    /// ahead, so an error in them is thrown here.
    public init(path: String) throws(TraceError) {
        try self.init(handle: FileDescriptorHandle.open(path: path), name: path, prefix: [])
    }

    /// Reads the text trace in `bytes`; `name` is used in errors.
    public init(bytes: [UInt8], name: String) throws(TraceError) {
        try self.init(lines: JSONLLineReader(bytes: bytes, name: name))
    }

    /// Reads from `handle`, of which `prefix` has already been read.
    init(handle: FileDescriptorHandle, name: String, prefix: [UInt8]) throws(TraceError) {
        try self.init(lines: JSONLLineReader(handle: handle, name: name, prefix: prefix))
    }

    init(lines: JSONLLineReader) throws(TraceError) {
        self.lines = lines
        self.decoder = JSONLLineDecoder(file: lines.name)
        lookahead = try readLine()
        if case .metadata(let metadata)? = lookahead {
            self.metadata = metadata
            lookahead = try readLine()
        }
    }

    /// The next event, or nil at the end of the input.
    public mutating func next() throws(TraceError) -> TraceEvent? {
        if lookahead == nil { lookahead = try readLine() }
        let upcoming: TraceEvent
        switch lookahead {
        case nil:
            return pendingEnds.removeFirst()
        case .event(let event)?, .callback(let event, _)?:
            upcoming = event
        case .metadata?, .sampleRecord?:
            preconditionFailure("metadata is rejected after the first line; sample records are kept as they are read")
        }
        if let end = pendingEnds.first,
            end.timestamp < upcoming.timestamp
                || (end.timestamp == upcoming.timestamp && end.stream == upcoming.stream)
        {
            return pendingEnds.removeFirst()
        }
        if case .callback(let begin, let endTimestamp)? = lookahead {
            guard pendingEnds.count < PendingCallbackEnds.limit else {
                throw TraceError(
                    .limitExceeded, file: lines.name, at: .line(lines.lineNumber, column: 1),
                    "more than \(PendingCallbackEnds.limit) callback shorthands still open")
            }
            guard case .callbackBegin(let name, let scene) = begin.payload else { preconditionFailure() }
            var end = TraceEvent(
                timestamp: endTimestamp, payload: .callbackEnd(name: name, scene: scene), stream: begin.stream, thread: begin.thread)
            end.line = begin.line
            pendingEnds.insert(end)
        }
        lookahead = nil
        return upcoming
    }

    /// Decodes the next non-blank line, or returns nil at the end of the input.
    private mutating func readLine() throws(TraceError) -> JSONLLineDecoder.Line? {
        while let line = try lines.nextLine() {
            if line.allSatisfy(JSONLObject.isWhitespace) { continue }
            let number = lines.lineNumber
            let object = try JSONLObject(line: line, lineNumber: number, file: lines.name)
            let decoded = try decoder.decode(object, lineNumber: number, symbols: &symbols)
            defer { sawFirstLine = true }
            if case .metadata = decoded, sawFirstLine {
                let type = object.members.first(where: { $0.key == "type" })!
                throw TraceError(
                    .invalidValue, file: lines.name,
                    at: .line(number, column: object.column(of: type.valueRange.lowerBound)),
                    "\"meta\" is allowed only on the first line")
            }
            if case .sampleRecord(let record) = decoded {
                try stackLines.apply(record)
                continue
            }
            return decoded
        }
        return nil
    }
}
