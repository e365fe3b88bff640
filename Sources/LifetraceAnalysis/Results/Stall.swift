import LifetraceFormat
import LifetraceOutput

/// A main-thread busy interval at or above the stall threshold.
public struct Stall: Sendable, Hashable {
    /// When the busy interval started (ns on the trace's clock).
    public var start: Int64
    /// How long it lasted (ns).
    public var duration: Int64
    /// The time since the launch (ns), or nil when the lifetime has no launch event.
    public var sinceLaunch: Int64?
    /// Whether the interval was still open when the lifetime ended (killed or trace cut short);
    /// it then lasts until that end.
    public var unfinished: Bool
    /// The callbacks and signposts that ran on the main thread during the stall, longest first
    /// (at most ``Stall/blameLimit``).
    public var blame: [BlameEntry]
    /// The work the stall is blamed on: the innermost interval that covers most of it (more than
    /// half), or the longest interval when none does; nil when nothing ran on the main thread.
    public var work: BlameEntry?
    /// The event that opened the busy interval: the main thread's `runloop.wake`, or without
    /// run-loop events the outermost main-thread callback's begin.
    public var opening: TraceEvent?

    /// The most blame entries kept per stall.
    public static let blameLimit = 5

    /// Creates a stall.
    public init(
        start: Int64, duration: Int64, sinceLaunch: Int64?, unfinished: Bool, blame: [BlameEntry],
        work: BlameEntry? = nil, opening: TraceEvent? = nil
    ) {
        self.work = work
        self.opening = opening
        self.start = start
        self.duration = duration
        self.sinceLaunch = sinceLaunch
        self.unfinished = unfinished
        self.blame = blame
    }
}

/// Something that ran on the main thread during a stall.
public struct BlameEntry: Sendable, Hashable {
    /// What kind of interval it is.
    public enum Kind: String, Sendable, Hashable {
        /// A delegate callback.
        case callback
        /// An app-defined signpost interval.
        case signpost
    }

    /// The kind of interval.
    public var kind: Kind
    /// The callback or signpost name.
    public var name: String
    /// How long it ran within the stall (ns).
    public var duration: Int64
    /// The names of the intervals it ran in, outermost first, ending with its own name:
    /// `["didFinishLaunching", "IndexSearchCatalog"]`.
    public var chain: [String]

    /// Creates an entry; with no chain given, the chain is the entry's own name.
    public init(kind: Kind, name: String, duration: Int64, chain: [String]? = nil) {
        self.kind = kind
        self.name = name
        self.duration = duration
        self.chain = chain ?? [name]
    }

    /// The chain as people read it: `didFinishLaunching > IndexSearchCatalog`.
    public var chainText: String { chain.joined(separator: " > ") }
}

extension Stall {
    /// The work the stall is blamed on, as messages write it: `signpost "IndexSearchCatalog"
    /// (405 ms, in didFinishLaunching > IndexSearchCatalog)`; nil when nothing is blamed.
    public var workText: String? {
        guard let work else { return nil }
        let chain = work.chain.count > 1 ? ", in \(work.chainText)" : ""
        return "\(work.kind.rawValue) \"\(work.name)\" (\(DurationFormat.fixed.string(work.duration))\(chain))"
    }
}
