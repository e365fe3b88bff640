import LifetraceFormat

/// Writes a trace for people to read: one event per line in aligned columns.
///
/// Columns: the time since the trace's first event in seconds to the microsecond (`+1305.633203 s`,
/// the way every command names a moment: docs/REPORTS.md, "One clock"), stream, thread, type,
/// then the type's fields as `key=value` (strings quoted only when they hold spaces, quotes or
/// control characters). Metadata comes first as `# key: value` lines. Metadata keys and values
/// and every string field go through ``TerminalText``: a newline cannot forge a line, and no
/// escape sequence or bidirectional control reaches the terminal. This form is for reading only;
/// use ``JSONLTraceWriter`` for a form that reads back.
///
/// ```
/// # app: com.example.Notes
/// # time: since the trace's first event
///      +0.000000 s  system  main     launch          reason=user pid=812
///      +0.041250 s  app     main     callback.begin  name=willFinishLaunching
/// ```
public final class TextTraceWriter {
    private let output: StagedOutputFile
    private var origin: Int64?
    private var line: [UInt8] = []

    /// Creates the file at `path` (`-` is standard output) and writes the metadata lines.
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
        for field in metadata.fields { try output.write("# \(TerminalText.escaped(field.key)): \(TerminalText.escaped(field.value))\n") }
        try output.write("# time: \(TraceClock.origin)\n")
    }

    /// Writes one event; the first event written sets time zero.
    public func append(_ event: TraceEvent, symbols: SymbolTable) throws(TraceError) {
        let origin = self.origin ?? event.timestamp
        self.origin = origin
        line.removeAll(keepingCapacity: true)
        Self.encode(event, symbols: symbols, origin: origin, into: &line)
        try output.write(line)
    }

    /// Writes out everything and, for a file, moves it into place.
    public func close() throws(TraceError) {
        try output.commit()
    }

    /// The line for `event`, timed from `origin`, without the line break.
    public static func line(for event: TraceEvent, symbols: SymbolTable, origin: Int64) -> String {
        var bytes: [UInt8] = []
        encode(event, symbols: symbols, origin: origin, into: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// Appends the line for `event`, with its line break, to `bytes`.
    public static func encode(_ event: TraceEvent, symbols: SymbolTable, origin: Int64, into bytes: inout [UInt8]) {
        let (offset, overflow) = event.timestamp.subtractingReportingOverflow(origin)
        pad(overflow ? "overflow" : seconds(offset), to: 16, right: true, into: &bytes)
        bytes.append(contentsOf: "  ".utf8)
        pad(event.stream.name, to: 6, right: false, into: &bytes)
        bytes.append(contentsOf: "  ".utf8)
        pad(event.thread.description, to: 7, right: false, into: &bytes)
        bytes.append(contentsOf: "  ".utf8)
        let fields = describe(event.payload, symbols: symbols)
        pad(event.type.name, to: fields.isEmpty ? 0 : 14, right: false, into: &bytes)
        for (index, field) in fields.enumerated() {
            bytes.append(contentsOf: (index == 0 ? "  " : " ").utf8)
            bytes.append(contentsOf: field.key.utf8)
            bytes.append(UInt8(ascii: "="))
            bytes.append(contentsOf: field.value.utf8)
        }
        bytes.append(UInt8(ascii: "\n"))
    }

    private static func describe(_ payload: EventPayload, symbols: SymbolTable) -> [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = []
        func add(_ key: String, _ symbol: Symbol) {
            if let string = symbols.string(symbol) { fields.append((key, quotedIfNeeded(string))) }
        }
        func add(_ key: String, _ value: (some CustomStringConvertible)?) {
            if let value { fields.append((key, value.description)) }
        }
        switch payload {
        case .launch(let reason, let background, let prewarm, let pid):
            add("reason", reason)
            if background { add("background", true) }
            if prewarm { add("prewarm", true) }
            add("pid", pid)
        case .state(let to, let scene):
            add("to", to.name)
            add("scene", scene)
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
            add("name", name)
            add("scene", scene)
        case .runloopWake, .runloopSleep:
            break
        case .signpostBegin(let name, let id), .signpostEnd(let name, let id):
            add("name", name)
            add("id", id)
        case .mark(let name):
            add("name", name)
        case .frame(let first):
            add("first", first)
        case .bgtaskBegin(let id, let name), .bgtaskEnd(let id, let name), .bgtaskExpire(let id, let name):
            add("id", id)
            add("name", name)
        case .exit(let code, let signal):
            add("code", code)
            add("signal", signal)
        case .dropped(let count):
            add("count", count)
        }
        return fields
    }

    /// `+s.uuuuuu s`: seconds with six decimals, truncated toward zero, always signed.
    static func seconds(_ nanoseconds: Int64) -> String { TraceClock.preciseMoment(nanoseconds) }

    /// `string` as is when it is plain; otherwise quoted as JSON quotes it, with what JSON leaves
    /// raw (C1 controls, bidirectional controls) escaped by ``TerminalText``.
    private static func quotedIfNeeded(_ string: String) -> String {
        let plain = !string.isEmpty && string.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != 0x7F }
            && !string.unicodeScalars.contains(where: TerminalText.needsEscape)
        if plain { return string }
        var bytes: [UInt8] = []
        JSONOutput.appendString(string, lineSeparators: false, to: &bytes)
        return TerminalText.escaped(String(decoding: bytes, as: UTF8.self))
    }

    private static func pad(_ text: String, to width: Int, right: Bool, into bytes: inout [UInt8]) {
        let padding = max(0, width - text.count)
        if right { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding)) }
        bytes.append(contentsOf: text.utf8)
        if !right { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding)) }
    }
}
