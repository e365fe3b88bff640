import LifetraceFormat

/// Writes a trace in the canonical text form, one JSON object per line.
///
/// Canonical means: fields in a fixed order per type (`ts`, `type`, `stream` only when it is not
/// the type's default, `thread` only when it is not the main thread, then the type's fields in the
/// order of the event table), fields at their default omitted, no spaces, strings escaped
/// minimally (`\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other control characters as `\u00XX`,
/// everything else as UTF-8). Reading canonical text and writing it again reproduces it byte for
/// byte. The `meta` line comes first, and only when there is metadata.
public final class JSONLTraceWriter {
    let output: StagedOutputFile
    private var line: [UInt8] = []

    /// Creates the file at `path` (`-` is standard output) and writes the metadata line. The file
    /// appears under its name only when ``close()`` succeeds.
    public init(path: String, metadata: TraceMetadata) throws(TraceError) {
        output = try StagedOutputFile(path: path)
        try start(metadata)
    }

    /// Writes to an open file descriptor, which stays open; `name` is used in errors.
    public init(fileDescriptor: Int32, name: String, metadata: TraceMetadata) throws(TraceError) {
        output = StagedOutputFile(fileDescriptor: fileDescriptor, name: name)
        try start(metadata)
    }

    private func start(_ metadata: TraceMetadata) throws(TraceError) {
        line.reserveCapacity(256)
        guard !metadata.isEmpty else { return }
        Self.encode(metadata, into: &line)
        try output.write(line)
    }

    /// Writes one event; its strings are looked up in `symbols`.
    public func append(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError) {
        line.removeAll(keepingCapacity: true)
        Self.encode(event, symbols: symbols, into: &line)
        try output.write(line)
    }

    /// Writes out everything and, for a file, moves it into place.
    public func close() throws(TraceError) {
        try output.commit()
    }

    /// The canonical line for `event`, without the line break.
    public static func line(for event: TraceEvent, symbols: SymbolTable) -> String {
        var bytes: [UInt8] = []
        encode(event, symbols: symbols, into: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// The canonical `meta` line for `metadata`, without the line break.
    public static func line(for metadata: TraceMetadata) -> String {
        var bytes: [UInt8] = []
        encode(metadata, into: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// Appends the canonical `meta` line, with its line break, to `bytes`.
    public static func encode(_ metadata: TraceMetadata, into bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"type":"meta""#.utf8)
        for field in metadata.fields {
            bytes.append(UInt8(ascii: ","))
            JSONOutput.appendString(field.key, lineSeparators: false, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            JSONOutput.appendString(field.value, lineSeparators: false, to: &bytes)
        }
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// Appends the canonical line for `event`, with its line break, to `bytes`.
    public static func encode(_ event: TraceEvent, symbols: SymbolTable, into bytes: inout [UInt8]) {
        var fields = JSONLFieldWriter(bytes: bytes, symbols: symbols)
        bytes = []
        fields.bytes.append(contentsOf: #"{"ts":"#.utf8)
        fields.appendNumber(event.timestamp)
        fields.key("type")
        fields.appendQuoted(event.type.name)
        if event.stream != event.type.defaultStream {
            fields.key("stream")
            fields.appendQuoted(event.stream.name)
        }
        if let number = event.thread.number {
            fields.key("thread")
            fields.bytes.append(contentsOf: String(number).utf8)
        }
        switch event.payload {
        case .launch(let reason, let background, let prewarm, let pid):
            fields.symbol("reason", reason)
            if background { fields.literal("background", "true") }
            if prewarm { fields.literal("prewarm", "true") }
            fields.integer("pid", pid)
        case .state(let to, let scene):
            fields.string("to", to.name)
            fields.symbol("scene", scene)
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
            fields.string("name", symbols[name])
            fields.symbol("scene", scene)
        case .runloopWake, .runloopSleep:
            break
        case .signpostBegin(let name, let id), .signpostEnd(let name, let id):
            fields.string("name", symbols[name])
            fields.integer("id", id)
        case .mark(let name):
            fields.string("name", symbols[name])
        case .frame(let first):
            if let first { fields.literal("first", first ? "true" : "false") }
        case .bgtaskBegin(let id, let name), .bgtaskEnd(let id, let name), .bgtaskExpire(let id, let name):
            fields.integer("id", id)
            fields.symbol("name", name)
        case .exit(let code, let signal):
            fields.integer("code", code.map(Int64.init))
            fields.integer("signal", signal.map(Int64.init))
        case .dropped(let count):
            fields.integer("count", count)
        }
        fields.bytes.append(contentsOf: "}\n".utf8)
        swap(&bytes, &fields.bytes)
    }
}

/// Appends `,"key":value` members to a line being built.
private struct JSONLFieldWriter {
    var bytes: [UInt8]
    let symbols: SymbolTable

    /// Keys are the event model's own names, which need no escaping.
    mutating func key(_ key: StaticString) {
        bytes.append(contentsOf: #",""#.utf8)
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: #"":"#.utf8)
    }

    mutating func appendQuoted(_ string: String) {
        JSONOutput.appendString(string, lineSeparators: false, to: &bytes)
    }

    mutating func appendNumber(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func string(_ key: StaticString, _ value: String) {
        self.key(key)
        appendQuoted(value)
    }

    /// A string field, omitted when the symbol is none.
    mutating func symbol(_ key: StaticString, _ symbol: Symbol) {
        guard let value = symbols.string(symbol) else { return }
        string(key, value)
    }

    mutating func integer(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        appendNumber(value)
    }

    mutating func literal(_ key: StaticString, _ text: String) {
        self.key(key)
        bytes.append(contentsOf: text.utf8)
    }
}
