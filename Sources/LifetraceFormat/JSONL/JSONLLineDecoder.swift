/// Turns one parsed JSONL line into an event, the metadata, or a `callback` shorthand, checking
/// every field strictly against the event model (see `docs/JSONL.md`).
struct JSONLLineDecoder {
    /// What one line says.
    enum Line {
        /// The `meta` line.
        case metadata(TraceMetadata)
        /// An event.
        case event(TraceEvent)
        /// A `callback` shorthand: its `callback.begin`, and when its `callback.end` is due.
        case callback(begin: TraceEvent, endTimestamp: Int64)
        /// An image, stack, sample or symbol: kept beside the events (``JSONLSampledStacks``).
        case sampleRecord(JSONLSampleLine)
    }

    /// The input's name in errors.
    let file: String

    private static let commonFields: Set<String> = ["ts", "type", "stream", "thread"]
    private static let typeFields: [String: Set<String>] = [
        "launch": ["reason", "background", "prewarm", "pid"],
        "state": ["to", "scene"],
        "callback.begin": ["name", "scene"],
        "callback.end": ["name", "scene"],
        "callback": ["name", "dur", "scene"],
        "runloop.wake": [],
        "runloop.sleep": [],
        "signpost.begin": ["name", "id"],
        "signpost.end": ["name", "id"],
        "mark": ["name"],
        "frame": ["first"],
        "bgtask.begin": ["id", "name"],
        "bgtask.end": ["id", "name"],
        "bgtask.expire": ["id", "name"],
        "exit": ["code", "signal"],
        "dropped": ["count"],
    ]

    /// Decodes `object`, the line numbered `lineNumber`, interning its strings in `symbols`.
    func decode(
        _ object: JSONLObject, lineNumber: Int, symbols: inout SymbolTable
    ) throws(TraceError) -> Line {
        var fields = JSONLFields(object: object, line: lineNumber, file: file)
        try fields.rejectDuplicates()
        guard let typeMember = fields.member("type") else {
            throw fields.error(.missingField, at: nil, "missing field \"type\"")
        }
        guard let type = object.string(typeMember) else {
            throw fields.error(.invalidValue, at: typeMember, "\"type\" must be a string")
        }
        if type == "meta" { return .metadata(try fields.metadata()) }
        if let record = try JSONLSampleLine.decode(type: type, fields: fields) { return .sampleRecord(record) }
        guard let allowed = Self.typeFields[type] else {
            throw fields.error(.unknownType, at: typeMember, "unknown type \"\(type)\"")
        }
        fields.type = type
        for member in object.members where !Self.commonFields.contains(member.key) && !allowed.contains(member.key) {
            throw TraceError(
                .unknownField, file: file, at: .line(lineNumber, column: object.column(of: member.keyOffset)),
                "unknown field \"\(member.key)\" for type \"\(type)\"")
        }

        let timestamp = try fields.requiredInteger("ts")
        guard TraceTime.contains(timestamp) else {
            throw fields.error(.invalidValue, at: fields.member("ts"), TraceTime.outOfRangeMessage(timestamp))
        }
        if type == "callback" {
            let name = symbols.intern(try fields.requiredString("name"))
            let scene = try fields.optionalString("scene").map { symbols.intern($0) } ?? .none
            let duration = try fields.optionalInteger("dur", minimum: 0) ?? 0
            let end = TraceTime.advanced(timestamp, by: duration)
            guard TraceTime.contains(end) else {
                throw fields.error(.invalidValue, at: fields.member("dur"), "\"dur\" takes the end past the largest timestamp (2^60 ns)")
            }
            let begin = try event(.callbackBegin(name: name, scene: scene), at: timestamp, fields: fields)
            return .callback(begin: begin, endTimestamp: end)
        }
        let payload = try Self.payload(type: type, fields: fields, symbols: &symbols)
        return .event(try event(payload, at: timestamp, fields: fields))
    }

    private func event(_ payload: EventPayload, at timestamp: Int64, fields: JSONLFields) throws(TraceError)
        -> TraceEvent
    {
        var event = TraceEvent(
            timestamp: timestamp, payload: payload, stream: try fields.stream(default: payload.type.defaultStream),
            thread: try fields.thread())
        event.line = fields.line
        return event
    }

    private static func payload(
        type: String, fields: JSONLFields, symbols: inout SymbolTable
    ) throws(TraceError) -> EventPayload {
        func name() throws(TraceError) -> Symbol { symbols.intern(try fields.requiredString("name")) }
        func optional(_ key: String) throws(TraceError) -> Symbol {
            try fields.optionalString(key).map { symbols.intern($0) } ?? .none
        }
        switch type {
        case "launch":
            return .launch(
                reason: try optional("reason"), background: try fields.optionalBool("background") ?? false,
                prewarm: try fields.optionalBool("prewarm") ?? false, pid: try fields.optionalInteger("pid"))
        case "state":
            return .state(to: try fields.state(), scene: try optional("scene"))
        case "callback.begin":
            return .callbackBegin(name: try name(), scene: try optional("scene"))
        case "callback.end":
            return .callbackEnd(name: try name(), scene: try optional("scene"))
        case "runloop.wake":
            return .runloopWake
        case "runloop.sleep":
            return .runloopSleep
        case "signpost.begin":
            return .signpostBegin(name: try name(), id: try fields.optionalInteger("id"))
        case "signpost.end":
            return .signpostEnd(name: try name(), id: try fields.optionalInteger("id"))
        case "mark":
            return .mark(name: try name())
        case "frame":
            return .frame(first: try fields.optionalBool("first"))
        case "bgtask.begin":
            return .bgtaskBegin(id: try fields.requiredInteger("id"), name: try optional("name"))
        case "bgtask.end":
            return .bgtaskEnd(id: try fields.requiredInteger("id"), name: try optional("name"))
        case "bgtask.expire":
            return .bgtaskExpire(id: try fields.requiredInteger("id"), name: try optional("name"))
        case "exit":
            return .exit(code: try fields.optionalInt32("code"), signal: try fields.optionalInt32("signal"))
        default:  // "dropped": the only type left in `typeFields`.
            return .dropped(count: try fields.requiredInteger("count", minimum: 0))
        }
    }
}
