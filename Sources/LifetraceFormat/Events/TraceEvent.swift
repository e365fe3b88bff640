/// One event of a trace: when it happened, who saw it, on which thread, and what it says.
///
/// Strings are ``Symbol``s of the ``SymbolTable`` that comes with the events.
public struct TraceEvent: Hashable, Sendable {
    /// Nanoseconds on the trace's monotonic clock.
    public var timestamp: Int64
    // Stored in this order so that the one-byte stream fills the payload's tail padding: the
    // event takes 40 bytes instead of 48, and readers move a sixth less memory per event.
    /// The thread the event happened on.
    public var thread: ThreadID
    /// The event's type and fields.
    public var payload: EventPayload
    /// The stream the event is on.
    public var stream: TraceStream
    /// Whether ``storedLine`` numbers the binary chunk the event was decoded from
    /// (``chunkNumber``) rather than a line of text. A byte of the padding after ``stream``.
    @usableFromInline
    var storedLineIsChunk = false
    /// ``line`` or ``chunkNumber`` as stored: 0 for none. Four bytes that fit in the padding
    /// after ``stream``, so the event stays 40 bytes (`TraceEventLineTests`): knowing where the
    /// event was read costs no memory.
    @usableFromInline
    var storedLine: UInt32 = 0

    /// Creates an event; `stream` defaults to the type's default stream.
    @inlinable
    public init(
        timestamp: Int64, payload: EventPayload, stream: TraceStream? = nil, thread: ThreadID = .main
    ) {
        self.timestamp = timestamp
        self.payload = payload
        self.stream = stream ?? payload.type.defaultStream
        self.thread = thread
    }

    /// The event's type.
    @inlinable
    public var type: EventType { payload.type }

    /// The line of the text (JSONL) trace the event was read from, counted from 1 as an editor
    /// counts (blank lines included); both events of a `callback` shorthand have its line. Nil
    /// for an event of a binary trace (which has its ``chunkNumber``), one made in memory, or one
    /// past line 4,294,967,295.
    ///
    /// Where the event was read is not what it says: two events are equal, and hash alike,
    /// whatever their lines. Outputs that point at an event (GitHub annotations, SARIF regions)
    /// read it from the witnesses that keep it (`EventSummary.line`), never from the file again.
    @inlinable
    public var line: Int? {
        get { storedLineIsChunk || storedLine == 0 ? nil : Int(storedLine) }
        set {
            storedLine = newValue.flatMap(UInt32.init(exactly:)) ?? 0
            storedLineIsChunk = false
        }
    }

    /// The chunk of the binary trace the event was decoded from: its number among the chunks
    /// its reader read, counted from 1 in file order, which the reader's ``ChunkPositions``
    /// turns into the chunk's place in the file. Nil for an event of a text trace, one made in
    /// memory, or one past the chunks whose places a reader keeps
    /// (``ChunkPositions/limit``). Like ``line``, not part of the event's value.
    @inlinable
    public var chunkNumber: Int? {
        get { storedLineIsChunk && storedLine != 0 ? Int(storedLine) : nil }
        set {
            storedLine = newValue.flatMap(UInt32.init(exactly:)) ?? 0
            storedLineIsChunk = storedLine != 0
        }
    }

    @inlinable
    public static func == (lhs: TraceEvent, rhs: TraceEvent) -> Bool {
        lhs.timestamp == rhs.timestamp && lhs.thread == rhs.thread && lhs.payload == rhs.payload && lhs.stream == rhs.stream
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(timestamp)
        hasher.combine(thread)
        hasher.combine(payload)
        hasher.combine(stream)
    }
}

/// The fields of an event, by type. See the text form in `docs/FORMAT.md` for their meaning.
public enum EventPayload: Hashable, Sendable {
    /// A process lifetime starts; with `background` the app launches straight into Background.
    case launch(reason: Symbol, background: Bool, prewarm: Bool, pid: Int64?)
    /// The system moved the app (`scene` none) or a scene to a state.
    case state(to: LifecycleState, scene: Symbol)
    /// A delegate callback starts.
    case callbackBegin(name: Symbol, scene: Symbol)
    /// A delegate callback returns.
    case callbackEnd(name: Symbol, scene: Symbol)
    /// The run loop starts processing.
    case runloopWake
    /// The run loop goes back to waiting.
    case runloopSleep
    /// An app-defined interval starts.
    case signpostBegin(name: Symbol, id: Int64?)
    /// An app-defined interval ends.
    case signpostEnd(name: Symbol, id: Int64?)
    /// An app-defined instant.
    case mark(name: Symbol)
    /// A frame was presented; `first` marks the first frame, when the recorder knows it.
    case frame(first: Bool?)
    /// A background task assertion was taken.
    case bgtaskBegin(id: Int64, name: Symbol)
    /// A background task assertion was released.
    case bgtaskEnd(id: Int64, name: Symbol)
    /// The system expired a background task.
    case bgtaskExpire(id: Int64, name: Symbol)
    /// The process ended, with an exit code or killed by a signal.
    case exit(code: Int32?, signal: Int32?)
    /// The recorder lost `count` events before this point.
    case dropped(count: Int64)

    /// The event's type.
    @inlinable
    public var type: EventType {
        switch self {
        case .launch: .launch
        case .state: .state
        case .callbackBegin: .callbackBegin
        case .callbackEnd: .callbackEnd
        case .runloopWake: .runloopWake
        case .runloopSleep: .runloopSleep
        case .signpostBegin: .signpostBegin
        case .signpostEnd: .signpostEnd
        case .mark: .mark
        case .frame: .frame
        case .bgtaskBegin: .bgtaskBegin
        case .bgtaskEnd: .bgtaskEnd
        case .bgtaskExpire: .bgtaskExpire
        case .exit: .exit
        case .dropped: .dropped
        }
    }
}
