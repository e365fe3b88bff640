import LifetraceFormat

/// The stalls, and the violations about them, that a streamed output holds back until the
/// trace's stack samples are read, so that it writes the same blame as `check`.
///
/// A reader knows a trace's samples only once its last event is read, while the analyzer sends a
/// stall's edge as soon as the stall is final. An edge sink that writes as it goes (the exports)
/// hands every edge to ``hold(_:)`` first; the stalls and the violations of the rules that
/// ``StallSamplePass/blames(_:)`` are kept, in their order, and ``release(stacks:names:)`` gives
/// them back at the end with each stall's ``StallProfile`` and each violation's message extended
/// by ``StallSamplePass/blame(_:profiles:)``, as `check`'s pass does. Past ``limit`` stalls
/// (the stall sample pass keeps as many), edges are not held: they are written as they come,
/// without samples, so that memory does not grow with the trace.
public struct HeldStallEvidence {
    /// The most stalls held (the stall sample pass's own bound, ``StallIntervals``).
    public static let limit = StallIntervals.limit

    private var edges: [LifecycleEdge] = []
    private var stalls = 0

    /// Holds nothing yet.
    public init() {}

    /// Whether `edge` is held: a stall, or a violation whose message the samples' blame extends,
    /// while fewer than ``limit`` stalls are held. An edge not held is the caller's to write now.
    public mutating func hold(_ edge: LifecycleEdge) -> Bool {
        guard stalls < Self.limit else { return false }
        switch edge {
        case .stall:
            stalls += 1
        case .finding(let violation) where StallSamplePass.blames(violation.rule):
            break
        default:
            return false
        }
        edges.append(edge)
        return true
    }

    /// The edges held, in the order they came, each stall with the profile of its samples (nil
    /// when none was taken in it), each violation about a stall with the blame in its message;
    /// `names` names the frames of `stacks` (the same names the output gives its samples).
    /// Empties the queue.
    public mutating func release(
        stacks: SampledStacks, names: TraceSymbolNames?
    ) -> [(edge: LifecycleEdge, profile: StallProfile?)] {
        defer { edges.removeAll() }
        guard let names, !stacks.samples.isEmpty else { return edges.map { ($0, nil) } }
        var walk = StallSampleWalk(stacks: stacks, names: names.name)
        var profiles: [Int64: StallProfile] = [:]
        for case .stall(let stall, _) in edges where profiles[stall.start] == nil {
            if let profile = walk.profile(start: stall.start, duration: stall.duration) { profiles[stall.start] = profile }
        }
        return edges.map { edge in
            switch edge {
            case .stall(let stall, _):
                return (edge, profiles[stall.start])
            case .finding(var violation):
                StallSamplePass.blame(&violation, profiles: profiles)
                return (.finding(violation), nil)
            default:
                return (edge, nil)
            }
        }
    }
}
