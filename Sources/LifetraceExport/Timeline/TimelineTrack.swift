import LifetraceFormat

/// A row of the exported timeline: the app's process, one of its threads, or a lane of its own
/// (a lifecycle view, a scene, the main thread's busy intervals, signposts, violations...).
///
/// Slices on one track always nest (each lane holds at most one open slice per nesting level),
/// which both Perfetto and the Trace Event Format require.
public struct TimelineTrack: Sendable, Hashable {
    /// What the track stands for.
    public enum Kind: Sendable, Hashable {
        /// The app's process; every other track belongs to it.
        case process(pid: Int64)
        /// A thread of the process, with the thread id shown to viewers.
        case thread(ThreadID, tid: Int64)
        /// A lane that is not a thread, shown under `parent` (the process, or a thread for the
        /// thread's signposts).
        case lane(parent: Int)
    }

    /// The track's position among the tracks declared, counted from 0; the process is 0.
    public var index: Int
    /// What the track stands for.
    public var kind: Kind
    /// The name viewers show.
    public var name: String

    /// Creates a track.
    public init(index: Int, kind: Kind, name: String) {
        self.index = index
        self.kind = kind
        self.name = name
    }
}

/// What a timeline record groups under, shown by viewers as the event's category.
public enum TimelineCategory: UInt8, Sendable, CaseIterable, Hashable {
    /// A process lifetime, its launch and exit.
    case lifetime
    /// A state of the system view, the app view or a scene.
    case state
    /// A delegate callback.
    case callback
    /// A main-thread busy interval (run loop awake).
    case busy
    /// An app-defined signpost interval.
    case signpost
    /// An app-defined mark.
    case mark
    /// A presented frame.
    case frame
    /// A background task.
    case backgroundTask
    /// A rule violation found by the analysis.
    case violation
    /// A main-thread stall found by the analysis.
    case stall
    /// The launch window and its milestones.
    case launch
    /// Events the recorder lost, and ends with no begin.
    case recorder

    /// The category's name as viewers show it.
    public var name: String {
        switch self {
        case .lifetime: "lifetime"
        case .state: "state"
        case .callback: "callback"
        case .busy: "busy"
        case .signpost: "signpost"
        case .mark: "mark"
        case .frame: "frame"
        case .backgroundTask: "bgtask"
        case .violation: "violation"
        case .stall: "stall"
        case .launch: "launch"
        case .recorder: "recorder"
        }
    }
}
