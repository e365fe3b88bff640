import LifetraceFormat
import LifetraceOutput

/// One event as a violation or report shows it: its fields with strings resolved.
public struct EventSummary: Sendable, Hashable, CustomStringConvertible {
    /// The event's timestamp (ns on the trace's clock).
    public var timestamp: Int64
    /// The time since the lifetime's launch (ns), or nil when there is no launch.
    public var sinceLaunch: Int64?
    /// The time since the trace's first event (ns), the moment it is shown at; nil when not known.
    public var sinceStart: Int64?
    /// The stream the event is on.
    public var stream: TraceStream
    /// The thread the event is on.
    public var thread: ThreadID
    /// The event's type.
    public var type: EventType
    /// The callback, signpost, mark or task name, when the event has one.
    public var name: String?
    /// The scene, when the event has one.
    public var scene: String?
    /// The state a `state` event moves to.
    public var state: LifecycleState?
    /// Other fields in text form (`background`, `id`, `signal`, ...), in a stable order.
    public var fields: [(key: String, value: String)]
    /// The line of the text trace the event was read from (``TraceEvent/line``), nil for a
    /// binary trace: where GitHub annotations and SARIF results point. Not part of the summary's
    /// value (equality and hashing leave it out), like the event's own line.
    public var line: Int?
    /// The chunk of the binary trace the event was decoded from (``TraceEvent/chunkNumber``,
    /// placed by its reader's ``ChunkPositions``), nil for a text trace: where SARIF regions and
    /// GitHub annotations point in a binary trace. Not part of the summary's value either.
    public var chunk: ChunkPosition?

    /// Summarises `event`, resolving its symbols in `symbols` and its chunk in `chunks`; `launch`
    /// is the lifetime's launch time, `origin` the trace's first event's.
    public init(
        _ event: TraceEvent, symbols: SymbolTable, launch: Int64?, origin: Int64? = nil, chunks: ChunkPositions? = nil
    ) {
        timestamp = event.timestamp
        sinceLaunch = launch.map { event.timestamp - $0 }
        sinceStart = origin.map { TraceTime.elapsed(from: $0, to: event.timestamp) }
        stream = event.stream
        thread = event.thread
        type = event.type
        line = event.line
        chunk = chunks?.position(of: event)
        fields = []
        switch event.payload {
        case .launch(let reason, let background, let prewarm, let pid):
            if let reason = symbols.string(reason) { fields.append(("reason", reason)) }
            if background { fields.append(("background", "true")) }
            if prewarm { fields.append(("prewarm", "true")) }
            if let pid { fields.append(("pid", String(pid))) }
        case .state(let to, let scene):
            state = to
            self.scene = symbols.string(scene)
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
            self.name = symbols.string(name)
            self.scene = symbols.string(scene)
        case .runloopWake, .runloopSleep:
            break
        case .signpostBegin(let name, let id), .signpostEnd(let name, let id):
            self.name = symbols.string(name)
            if let id { fields.append(("id", String(id))) }
        case .mark(let name):
            self.name = symbols.string(name)
        case .frame(let first):
            if let first { fields.append(("first", String(first))) }
        case .bgtaskBegin(let id, let name), .bgtaskEnd(let id, let name), .bgtaskExpire(let id, let name):
            fields.append(("id", String(id)))
            self.name = symbols.string(name)
        case .exit(let code, let signal):
            if let code { fields.append(("code", String(code))) }
            if let signal { fields.append(("signal", String(signal))) }
        case .dropped(let count):
            fields.append(("count", String(count)))
        }
    }

    /// The type and fields, for example `callback.begin didEnterBackground scene=main`; names
    /// are cut the way every message cuts them (``NameText/shown(_:)``).
    public var label: String {
        var parts = [type.name]
        if let name { parts.append(NameText.shown(name)) }
        if let state { parts.append("to=\(state.name)") }
        if let scene { parts.append("scene=\(NameText.shown(scene))") }
        for field in fields { parts.append("\(field.key)=\(NameText.shown(field.value))") }
        return parts.joined(separator: " ")
    }

    /// For example `callback.begin didEnterBackground scene=main at +1.234 s (thread 3)`, the
    /// moment since the trace's first event (``TraceClock``).
    public var description: String {
        let when = sinceStart.map(TraceClock.moment) ?? "\(timestamp) ns"
        var text = label + " at " + when
        if !thread.isMain { text += " (thread \(thread))" }
        return text
    }

    public static func == (lhs: EventSummary, rhs: EventSummary) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.stream == rhs.stream && lhs.thread == rhs.thread
            && lhs.type == rhs.type && lhs.name.map(NameBytes.init) == rhs.name.map(NameBytes.init)
            && lhs.scene.map(NameBytes.init) == rhs.scene.map(NameBytes.init)
            && lhs.state == rhs.state
            && lhs.fields.elementsEqual(rhs.fields, by: { NameBytes($0.key) == NameBytes($1.key) && NameBytes($0.value) == NameBytes($1.value) })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(type)
        hasher.combine(name)
    }
}
