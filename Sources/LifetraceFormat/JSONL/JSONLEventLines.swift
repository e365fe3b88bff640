/// Finds the lines of a text trace that given events came from, so that an annotation can point
/// at the event's line (GitHub's `line=`).
///
/// The events are named by ``Key`` (time, type, thread and name), which is what a report keeps of
/// an event. The end of a `callback` shorthand comes from the shorthand's line. Only the keys
/// asked for are kept, so memory follows the number of events looked for, not the trace.
public enum JSONLEventLines {
    /// An event as a report names it.
    public struct Key: Hashable, Sendable {
        /// The timestamp (ns).
        public var timestamp: Int64
        /// The event type.
        public var type: EventType
        /// The thread.
        public var thread: ThreadID
        /// The callback, signpost, mark or task name, or nil.
        public var name: String?

        /// Creates a key.
        public init(timestamp: Int64, type: EventType, thread: ThreadID, name: String?) {
            self.timestamp = timestamp
            self.type = type
            self.thread = thread
            self.name = name
        }
    }

    /// The line (counted from 1) of the first event of `path` matching each key in `keys`; keys
    /// with no such event are absent. Nil when `path` is not a text trace or cannot be read.
    public static func lines(in path: String, of keys: Set<Key>) -> [Key: Int]? {
        guard !keys.isEmpty, path != "-" else { return nil }
        do throws(TraceError) {
            let handle = try FileDescriptorHandle.open(path: path)
            let prefix = try TraceFile.readPrefix(handle, name: path)
            guard TraceFile.kind(of: prefix) == .jsonl else { return nil }
            var reader = JSONLLineReader(handle: handle, name: path, prefix: prefix)
            let decoder = JSONLLineDecoder(file: path)
            var symbols = SymbolTable()
            var found: [Key: Int] = [:]
            func note(_ event: TraceEvent, line: Int) {
                let key = Key(event, symbols: symbols)
                if keys.contains(key) && found[key] == nil { found[key] = line }
            }
            while let line = try reader.nextLine() {
                if line.allSatisfy(JSONLObject.isWhitespace) { continue }
                let number = reader.lineNumber
                let object = try JSONLObject(line: line, lineNumber: number, file: path)
                switch try decoder.decode(object, lineNumber: number, symbols: &symbols) {
                case .metadata, .sampleRecord:
                    break
                case .event(let event):
                    note(event, line: number)
                case .callback(let begin, let endTimestamp):
                    note(begin, line: number)
                    if case .callbackBegin(let name, let scene) = begin.payload {
                        note(
                            TraceEvent(
                                timestamp: endTimestamp, payload: .callbackEnd(name: name, scene: scene),
                                stream: begin.stream, thread: begin.thread),
                            line: number)
                    }
                }
                if found.count == keys.count { break }
            }
            return found
        } catch {
            return nil
        }
    }
}

extension JSONLEventLines.Key {
    /// The key of `event`, its name resolved in `symbols`.
    public init(_ event: TraceEvent, symbols: SymbolTable) {
        let name: Symbol
        switch event.payload {
        case .callbackBegin(let symbol, _), .callbackEnd(let symbol, _), .signpostBegin(let symbol, _),
            .signpostEnd(let symbol, _), .mark(let symbol), .bgtaskBegin(_, let symbol), .bgtaskEnd(_, let symbol),
            .bgtaskExpire(_, let symbol):
            name = symbol
        case .launch, .state, .runloopWake, .runloopSleep, .frame, .exit, .dropped:
            name = .none
        }
        self.init(timestamp: event.timestamp, type: event.type, thread: event.thread, name: symbols.string(name))
    }
}
