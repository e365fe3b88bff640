/// How a lifetime ended, and why the analysis thinks so.
public struct LifetimeEnd: Sendable, Hashable {
    /// The kinds of ending.
    public enum Kind: String, Sendable, Hashable {
        /// willTerminate, then `exit`: the orderly end of a background app.
        case terminated
        /// Killed or purged while Suspended: the normal, silent end.
        case killedWhileSuspended
        /// Ended in Background (not suspended) without willTerminate.
        case killedInBackground
        /// Killed by a signal while Inactive or Active (a crash or a watchdog kill).
        case killedInForeground
        /// Exited with a code while Inactive or Active, without willTerminate.
        case exitedInForeground
        /// A new `launch` came with no `exit` for this lifetime.
        case relaunched
        /// The trace ends before the lifetime does (recording stopped or the file was cut).
        case endOfTrace
    }

    /// The kind of ending.
    public var kind: Kind
    /// When it ended (ns on the trace's clock): the `exit`, or the last event seen.
    public var timestamp: Int64
    /// The time since launch (ns), when there was a launch.
    public var sinceLaunch: Int64?
    /// The exit code, when the `exit` event has one.
    public var code: Int32?
    /// The signal, when the `exit` event has one.
    public var signal: Int32?
    /// The facts that led to the conclusion, one sentence each.
    public var facts: [String]

    /// Creates an ending.
    public init(
        kind: Kind, timestamp: Int64, sinceLaunch: Int64?, code: Int32?, signal: Int32?, facts: [String]
    ) {
        self.kind = kind
        self.timestamp = timestamp
        self.sinceLaunch = sinceLaunch
        self.code = code
        self.signal = signal
        self.facts = facts
    }

    /// A short phrase for the kind, for text reports.
    public var phrase: String {
        switch kind {
        case .terminated: "terminated (willTerminate, then exit)"
        case .killedWhileSuspended: "killed while suspended (the normal silent end)"
        case .killedInBackground: "killed in background"
        case .killedInForeground: "killed in the foreground"
        case .exitedInForeground: "exited in the foreground"
        case .relaunched: "no exit; relaunched"
        case .endOfTrace: "still running when the trace ends"
        }
    }
}
