import LifetraceFormat

/// An event the adapter decided to record, with names as strings: a destination interns them
/// (``RecorderDestination``) or collects them (the tests).
public struct AdaptedEvent: Sendable, Hashable {
    /// The moment of the input that caused it (ns, the trace's clock).
    public var timestamp: Int64
    /// The thread of that input.
    public var thread: ThreadID
    /// What is recorded.
    public var kind: Kind

    /// An event at `timestamp` on `thread`.
    public init(_ kind: Kind, at timestamp: Int64, thread: ThreadID = .main) {
        self.timestamp = timestamp
        self.thread = thread
        self.kind = kind
    }

    /// The recorded events, by their trace types.
    public enum Kind: Sendable, Hashable {
        /// `callback.begin`.
        case callbackBegin(name: String, scene: String?)
        /// `callback.end`.
        case callbackEnd(name: String, scene: String?)
        /// `runloop.wake`.
        case runloopWake
        /// `runloop.sleep`.
        case runloopSleep
        /// `frame`, with `first` when the adapter knows whether it is the process's first.
        case frame(first: Bool?)
        /// `signpost.begin`.
        case signpostBegin(name: String, id: Int64?)
        /// `signpost.end`.
        case signpostEnd(name: String, id: Int64?)
        /// `mark`.
        case mark(name: String)
        /// `bgtask.begin`.
        case bgtaskBegin(id: Int64, name: String)
        /// `bgtask.end`.
        case bgtaskEnd(id: Int64, name: String)
        /// `bgtask.expire`.
        case bgtaskExpire(id: Int64, name: String)
    }
}

/// Where the adapter's events go.
///
/// The adapter calls ``write(_:)`` synchronously, on the thread of the input that caused the
/// event, while that input is being handled; so a destination that stamps events itself (the
/// recorder) stamps them with the input's own time and thread.
public protocol LifecycleEventDestination: AnyObject, Sendable {
    /// Records `event`.
    func write(_ event: AdaptedEvent)
}
