import LifetraceFormat

/// The lane of a timeline a span belongs to.
public enum TimelineLane: Hashable, Sendable {
    /// The system view's states (`state` events); the span's value is a `LifecycleState` code.
    case systemState
    /// The effective app view's states (callbacks, scenes included); the value is an
    /// `AppViewState` code.
    case appState
    /// One scene's app view; the value is a `SceneViewState` code.
    case sceneState(Symbol)
    /// A main-thread busy interval, as the analyzer counts them (run loop or callbacks).
    case busy
    /// A main-thread callback, `depth` levels inside other callbacks.
    case callback(depth: Int)
    /// A main-thread signpost interval on signpost lane `depth` (``EdgeInterval/lane``: its depth
    /// inside other signposts while they nest, the exports' lane when they overlap).
    case signpost(depth: Int)
    /// A background task, from its begin to its end (or expiry, or the end of the lifetime).
    case backgroundTask
    /// A `mark` (an instant: start equals end).
    case mark
    /// A `frame` (an instant).
    case frame
}

/// An interval (or an instant) of a timeline, as ``LifecycleTimeline`` reports it.
public struct TimelineSpan: Hashable, Sendable {
    /// Its lane.
    public var lane: TimelineLane
    /// Where it starts (ns on the trace's clock).
    public var start: Int64
    /// Where it ends (ns); equal to `start` for an instant.
    public var end: Int64
    /// The state code of a state lane; 0 elsewhere.
    public var value: UInt8
    /// The callback, signpost, task or mark name; `.none` for states, busy intervals and frames.
    public var name: Symbol

    /// Creates a span.
    public init(lane: TimelineLane, start: Int64, end: Int64, value: UInt8 = 0, name: Symbol = .none) {
        self.lane = lane
        self.start = start
        self.end = end
        self.value = value
        self.name = name
    }
}

/// Receives the spans of a timeline as they close. Generic use keeps the replay free of
/// existentials: ``LifecycleTimeline/consume(_:symbols:into:)`` is specialised per sink.
public protocol TimelineSink {
    /// One closed span (or an instant).
    mutating func record(_ span: TimelineSpan)
}

/// A sink that keeps only the time range the spans cover.
public struct TimelineRange: TimelineSink, Sendable {
    /// The earliest start seen, or nil before the first span.
    public private(set) var start: Int64?
    /// The latest end seen, or nil before the first span.
    public private(set) var end: Int64?

    /// An empty range.
    public init() {}

    /// Widens the range to cover `span`.
    public mutating func record(_ span: TimelineSpan) {
        start = min(start ?? span.start, span.start)
        end = max(end ?? span.end, span.end)
    }
}
