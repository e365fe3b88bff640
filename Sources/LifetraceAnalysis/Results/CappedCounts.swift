/// What an analysis counted instead of keeping, past its caps (docs/RELIABILITY.md, "Memory:
/// bounded per trace"): a small trace can claim a million lifetimes, stalls, threads or scenes,
/// and what the analysis holds must not grow with the claim. Every output that lists these says
/// how many it left out (``TraceAnalysis/capNotes``).
public struct CappedCounts: Sendable, Hashable {
    /// The most lifetime reports a trace's analysis keeps in full; later lifetimes are counted.
    public static let lifetimeLimit = 5000
    /// The most stalls the kept lifetime reports of a trace list in full, together.
    public static let traceStallLimit = 10_000
    /// The most stalls a lifetime keeps in full; `launch-stall` and `hang` still judge every
    /// stall past them, from counts (``LifetimeReport/omittedStalls``).
    public static let lifetimeStallLimit = 1000
    /// The most threads followed at once with a callback or signpost open; a begin on another
    /// thread while that many are open is counted, not followed.
    public static let threadLimit = 10_000
    /// The most scenes a lifetime follows; the events of later scenes are counted, not followed.
    public static let sceneLimit = 1000

    /// Lifetimes whose report was not kept (past ``lifetimeLimit``).
    public var lifetimes = 0
    /// Stalls not listed in their lifetime's report (past ``lifetimeStallLimit`` in the lifetime,
    /// or past ``traceStallLimit`` in the trace); their lifetimes count them.
    public var stalls = 0
    /// Callback and signpost begins not followed because ``threadLimit`` threads had something open.
    public var threadBegins = 0
    /// Callback and signpost begins not followed because their thread had
    /// ``ThreadStacks/depthLimit`` intervals open.
    public var deepBegins = 0
    /// `state` events and scene callbacks not followed because their lifetime already had
    /// ``sceneLimit`` scenes.
    public var sceneEvents = 0
    /// What the stack samples' reader and pass left out past their limits, one line each
    /// (``SampledStacks/lossNote``, ``StallSamplePass``): filled by the stall sample pass.
    public var stackSampleNotes: [String] = []

    /// Nothing counted.
    public init() {}

    /// Adds a line to ``stackSampleNotes`` unless it is there already (a report that runs the
    /// pass again says it once).
    public mutating func addStackSampleNote(_ note: String) {
        if !stackSampleNotes.contains(note) { stackSampleNotes.append(note) }
    }

    /// Whether anything was left out.
    public var isEmpty: Bool { self == CappedCounts() }

    /// One sentence per kind of thing left out, without a final period: what outputs print
    /// beside ``TraceAnalysis/omittedNote``.
    public var notes: [String] {
        var notes: [String] = []
        if lifetimes > 0 {
            notes.append(
                "\(lifetimes) more lifetime\(lifetimes == 1 ? " was" : "s were") found and not listed: an analysis "
                    + "keeps the first \(Self.lifetimeLimit) lifetimes of a trace in full; the counts include the others")
        }
        if stalls > 0 {
            notes.append(
                "\(stalls) more stall\(stalls == 1 ? " was" : "s were") found and not listed: an analysis keeps the first "
                    + "\(Self.lifetimeStallLimit) stalls of a lifetime and \(Self.traceStallLimit) of a trace in full, "
                    + "and the rules judge every stall")
        }
        if threadBegins > 0 {
            notes.append(
                "\(threadBegins) callback or signpost begin\(threadBegins == 1 ? " was" : "s were") not followed: an "
                    + "analysis follows at most \(Self.threadLimit) threads with something open at once")
        }
        if deepBegins > 0 {
            notes.append(
                "\(deepBegins) callback or signpost begin\(deepBegins == 1 ? " was" : "s were") not followed: an "
                    + "analysis follows at most \(ThreadStacks.depthLimit) open intervals per thread")
        }
        if sceneEvents > 0 {
            notes.append(
                "\(sceneEvents) scene event\(sceneEvents == 1 ? " was" : "s were") not followed: an analysis follows "
                    + "at most \(Self.sceneLimit) scenes per lifetime")
        }
        return notes + stackSampleNotes
    }
}
