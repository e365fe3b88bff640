import LifetraceFormat

/// One thing drawn on the timeline: a slice's begin or end, a complete slice, or an instant.
///
/// Names are ``Symbol``s of the exporter's own name table (passed to the writer with each record),
/// so that a writer can encode each distinct name once (Perfetto interning, cached JSON escapes).
public struct TimelineRecord: Sendable {
    /// What kind of record it is.
    public enum Phase: Sendable, Hashable {
        /// A slice opens on the track; it stays open until the matching ``end``.
        case begin
        /// The innermost open slice of the track closes.
        case end
        /// A slice whose end is known: it lasts `duration` ns from the timestamp.
        case complete(duration: Int64)
        /// An event without duration.
        case instant
    }

    /// What kind of record it is.
    public var phase: Phase
    /// The track it is on (``TimelineTrack/index``).
    public var track: Int
    /// When (ns on the trace's clock).
    public var timestamp: Int64
    /// The name; ``Symbol/none`` for an ``Phase/end``.
    public var name: Symbol
    /// The category.
    public var category: TimelineCategory
    /// Key-value details shown with the record.
    public var args: TimelineArgs

    /// Creates a record.
    public init(
        _ phase: Phase, track: Int, at timestamp: Int64, name: Symbol = .none,
        category: TimelineCategory, args: TimelineArgs = TimelineArgs()
    ) {
        self.phase = phase
        self.track = track
        self.timestamp = timestamp
        self.name = name
        self.category = category
        self.args = args
    }
}

/// A key-value detail of a ``TimelineRecord``.
public struct TimelineArg: Sendable {
    /// A value: an integer, a name of the exporter's name table, or free text.
    public enum Value: Sendable {
        /// An integer.
        case int(Int64)
        /// A string of the name table (trace strings: scenes, reasons, names).
        case name(Symbol)
        /// Free text (messages), encoded as it comes.
        case text(String)
    }

    /// The key, a symbol of the name table.
    public var key: Symbol
    /// The value.
    public var value: Value

    /// Creates a detail.
    public init(_ key: Symbol, _ value: Value) {
        self.key = key
        self.value = value
    }
}

/// The details of a record: up to four kept inline, so that the common records allocate nothing,
/// and any further ones in an array.
public struct TimelineArgs: Sendable {
    private var first: TimelineArg?
    private var second: TimelineArg?
    private var third: TimelineArg?
    private var fourth: TimelineArg?
    private var more: [TimelineArg] = []
    /// How many details there are.
    public private(set) var count = 0

    /// No details.
    public init() {}

    /// Adds a detail.
    public mutating func append(_ arg: TimelineArg) {
        switch count {
        case 0: first = arg
        case 1: second = arg
        case 2: third = arg
        case 3: fourth = arg
        default: more.append(arg)
        }
        count += 1
    }

    /// Adds an integer detail.
    public mutating func append(_ key: Symbol, int value: Int64) { append(TimelineArg(key, .int(value))) }

    /// Adds a name detail; nothing when `value` is ``Symbol/none``.
    public mutating func append(_ key: Symbol, name value: Symbol) {
        if !value.isNone { append(TimelineArg(key, .name(value))) }
    }

    /// Adds a text detail.
    public mutating func append(_ key: Symbol, text value: String) { append(TimelineArg(key, .text(value))) }

    /// The detail at `index` (0 ..< ``count``).
    public subscript(index: Int) -> TimelineArg {
        switch index {
        case 0: first!
        case 1: second!
        case 2: third!
        case 3: fourth!
        default: more[index - 4]
        }
    }

    /// Whether there are none.
    public var isEmpty: Bool { count == 0 }
}
