/// Typed, checked access to the fields of one JSONL line, with errors that point at the value.
struct JSONLFields {
    /// The parsed line.
    let object: JSONLObject
    /// The line's number.
    let line: Int
    /// The input's name.
    let file: String
    /// The line's `type`, once known, for messages.
    var type = ""

    init(object: JSONLObject, line: Int, file: String) {
        self.object = object
        self.line = line
        self.file = file
    }

    /// The member named `key`.
    func member(_ key: String) -> JSONLObject.Member? {
        object.members.first(where: { $0.key == key })
    }

    /// An error at `member`'s value, or at the start of the line when there is no member.
    func error(_ kind: TraceError.Kind, at member: JSONLObject.Member?, _ message: String) -> TraceError {
        let offset = member?.valueRange.lowerBound ?? 0
        return TraceError(kind, file: file, at: .line(line, column: object.column(of: offset)), message)
    }

    /// Fails on the second occurrence of a key.
    func rejectDuplicates() throws(TraceError) {
        // A line has a handful of members: comparing pairs is cheaper than hashing them.
        let members = object.members
        for later in members.indices.dropFirst() {
            for earlier in 0..<later where members[earlier].key == members[later].key {
                throw TraceError(
                    .syntax, file: file, at: .line(line, column: object.column(of: members[later].keyOffset)),
                    "duplicate field \"\(members[later].key)\"")
            }
        }
    }

    private func missing(_ key: String) -> TraceError {
        error(.missingField, at: nil, "missing field \"\(key)\" for type \"\(type)\"")
    }

    /// A required string.
    func requiredString(_ key: String) throws(TraceError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    /// An optional string.
    func optionalString(_ key: String) throws(TraceError) -> String? {
        guard let member = member(key) else { return nil }
        guard let value = object.string(member) else {
            throw error(.invalidValue, at: member, "\"\(key)\" must be a string")
        }
        return value
    }

    /// An optional Boolean.
    func optionalBool(_ key: String) throws(TraceError) -> Bool? {
        guard let member = member(key) else { return nil }
        guard let value = object.bool(member) else {
            throw error(.invalidValue, at: member, "\"\(key)\" must be true or false")
        }
        return value
    }

    /// A required integer, at least `minimum` when given.
    func requiredInteger(_ key: String, minimum: Int64? = nil) throws(TraceError) -> Int64 {
        guard let value = try optionalInteger(key, minimum: minimum) else { throw missing(key) }
        return value
    }

    /// An optional integer, written as one (no fraction or exponent), in Int64 range and at least
    /// `minimum` when given.
    func optionalInteger(_ key: String, minimum: Int64? = nil) throws(TraceError) -> Int64? {
        guard let member = member(key) else { return nil }
        let what = minimum == 0 ? "a non-negative integer" : "an integer"
        guard member.kind == .number, let value = Int64(object.rawText(member)) else {
            throw error(.invalidValue, at: member, "\"\(key)\" must be \(what) in 64-bit range")
        }
        if let minimum, value < minimum {
            throw error(.invalidValue, at: member, "\"\(key)\" must be \(what)")
        }
        return value
    }

    /// An optional 32-bit integer (exit codes and signals).
    func optionalInt32(_ key: String) throws(TraceError) -> Int32? {
        guard let member = member(key) else { return nil }
        guard member.kind == .number, let value = Int32(object.rawText(member)) else {
            throw error(.invalidValue, at: member, "\"\(key)\" must be an integer in 32-bit range")
        }
        return value
    }

    /// The `stream` field, or the type's default stream.
    func stream(default defaultStream: TraceStream) throws(TraceError) -> TraceStream {
        guard let member = member("stream") else { return defaultStream }
        guard let name = object.string(member), let stream = TraceStream(name: name) else {
            throw error(.invalidValue, at: member, "\"stream\" must be \"system\" or \"app\"")
        }
        return stream
    }

    /// The `thread` field: `"main"` (the default) or a thread number.
    func thread() throws(TraceError) -> ThreadID {
        guard let member = member("thread") else { return .main }
        if object.string(member) == "main" { return .main }
        guard member.kind == .number, let number = UInt64(object.rawText(member)), number <= ThreadID.maxNumber
        else {
            throw error(.invalidValue, at: member, "\"thread\" must be \"main\" or a non-negative integer")
        }
        return .numbered(number)
    }

    /// The `to` field of a `state` event.
    func state() throws(TraceError) -> LifecycleState {
        let names = LifecycleState.allCases.map(\.name).joined(separator: ", ")
        guard let member = member("to") else { throw missing("to") }
        guard let name = object.string(member), let state = LifecycleState(name: name) else {
            throw error(.invalidValue, at: member, "\"to\" must be one of \(names)")
        }
        return state
    }

    /// The `meta` line's fields, every value a string, in the order written.
    func metadata() throws(TraceError) -> TraceMetadata {
        var metadata = TraceMetadata()
        for member in object.members where member.key != "type" {
            guard let value = object.string(member) else {
                throw error(.invalidValue, at: member, "meta field \"\(member.key)\" must be a string")
            }
            metadata[member.key] = value
        }
        return metadata
    }
}
