import LifetraceFormat

/// The stall sample pass's walk over a trace's samples (``StallSamplePass``): the main thread's
/// samples ordered by time once, each address named once per trace at most, and the frames
/// walked bounded per stall (``StallSamplePass/stallFrameLimit``) and per trace
/// (``StallSamplePass/traceStepLimit``), so that a small trace claiming deep, distinct stacks
/// cannot make the pass's time or memory grow with the claim. A stall's stacks are walked the
/// most frequent first: what a bound leaves out is the rarest stacks.
struct StallSampleWalk {
    private struct LineKey: Hashable {
        var function: String
        var location: String
    }

    let stacks: SampledStacks
    let names: (UInt64) -> FrameName
    /// The main thread's samples (indexes in ``SampledStacks/samples``), by time.
    private let order: [Int32]
    /// The samples and frames the pass may still walk in the trace.
    private var steps = StallSamplePass.traceStepLimit
    /// Stalls whose samples were walked only in part, or not at all.
    private(set) var boundedStalls = 0

    // Per trace, for every stall: each address's frame (its name, the location cut to the file)
    // and line. At most one entry per frame node of the trace (``SampledStacks/maxNodes``), as
    // only the nodes' addresses are named; a stall's profile shares the names' storage.
    private var byAddress: [UInt64: (frame: Int32, line: Int32)] = [:]
    private var frames: [FrameName] = []
    private var frameIDs: [FrameName: Int32] = [:]
    private var lineKeys: [LineKey] = []
    private var lineIDs: [LineKey: Int32] = [:]
    // Per frame: the last stack that counted it in its total (a recursive function counts once).
    private var seen: [Int32] = []
    private var serial: Int32 = 0

    init(stacks: SampledStacks, names: @escaping (UInt64) -> FrameName) {
        self.stacks = stacks
        self.names = names
        var order: [Int32] = []
        var sorted = true
        for (index, sample) in stacks.samples.enumerated() where sample.thread == .main {
            if let last = order.last, stacks.samples[Int(last)].timestamp > sample.timestamp { sorted = false }
            order.append(Int32(index))
        }
        if !sorted {
            order.sort { stacks.samples[Int($0)].timestamp != stacks.samples[Int($1)].timestamp
                ? stacks.samples[Int($0)].timestamp < stacks.samples[Int($1)].timestamp : $0 < $1 }
        }
        self.order = order
    }

    private mutating func ids(_ address: UInt64) -> (frame: Int32, line: Int32) {
        if let known = byAddress[address] { return known }
        let named = names(address)
        var line: Int32 = -1
        if let location = named.location, location.contains(":") {
            let key = LineKey(function: named.function, location: location)
            if let known = lineIDs[key] {
                line = known
            } else {
                line = Int32(lineKeys.count)
                lineKeys.append(key)
                lineIDs[key] = line
            }
        }
        var frame = named
        frame.location = named.location.map { $0.split(separator: ":").first.map(String.init) ?? $0 }
        let id: Int32
        if let known = frameIDs[frame] {
            id = known
        } else {
            id = Int32(frames.count)
            frames.append(frame)
            frameIDs[frame] = id
            seen.append(0)
        }
        byAddress[address] = (id, line)
        return (id, line)
    }

    /// The profile of the main thread's samples in `start ... start + duration`, or nil when
    /// none was taken then (or the trace's bound was reached before the stall).
    mutating func profile(start: Int64, duration: Int64) -> StallProfile? {
        let end = TraceTime.advanced(start, by: duration)
        var low = 0
        var high = order.count
        while low < high {
            let middle = (low + high) / 2
            if stacks.samples[Int(order[middle])].timestamp < start { low = middle + 1 } else { high = middle }
        }
        var stackCounts: [Int: Int] = [:]
        var sampleCount = 0
        var uncounted = 0
        var bounded = false
        var index = low
        while index < order.count, stacks.samples[Int(order[index])].timestamp <= end {
            guard steps > 0 else {
                bounded = true
                break
            }
            steps -= 1
            sampleCount += 1
            let stack = stacks.samples[Int(order[index])].stack
            index += 1
            // At most as many distinct stacks as frames walked: the samples of later new ones
            // are counted in the stall, in no frame.
            if let known = stackCounts[stack] {
                stackCounts[stack] = known + 1
            } else if stackCounts.count < StallSamplePass.stallFrameLimit {
                stackCounts[stack] = 1
            } else {
                uncounted += 1
            }
        }
        if bounded { boundedStalls += 1 }
        guard sampleCount > uncounted else { return nil }
        let ranked = stackCounts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var selfCounts: [Int32: Int] = [:]
        var totalCounts: [Int32: Int] = [:]
        var blameCounts: [Int32: Int] = [:]
        var leafCounts: [Int32: [Int32: Int]] = [:]
        var lineCounts: [Int32: Int] = [:]
        var walked: [(stack: Int, count: Int, frames: [Int32])] = []
        var frameBudget = StallSamplePass.stallFrameLimit
        var unwalked = uncounted
        for (stack, count) in ranked {
            let depth = Int(stacks.nodes[stack].depth)
            guard depth <= frameBudget, depth <= steps else {
                unwalked += count
                continue
            }
            frameBudget -= depth
            steps -= depth
            serial &+= 1
            var path: [Int32] = []
            path.reserveCapacity(depth)
            var node = stack
            var blamed = false
            var leaf: Int32 = -1
            while node >= 0 {
                let (frame, line) = ids(stacks.nodes[node].address)
                if line >= 0 { lineCounts[line, default: 0] += count }
                if path.isEmpty {
                    selfCounts[frame, default: 0] += count
                    leaf = frame
                }
                if seen[Int(frame)] != serial {
                    seen[Int(frame)] = serial
                    totalCounts[frame, default: 0] += count
                }
                if !blamed, frames[Int(frame)].isApp {
                    blameCounts[frame, default: 0] += count
                    leafCounts[frame, default: [:]][leaf, default: 0] += count
                    blamed = true
                }
                path.append(frame)
                node = Int(stacks.nodes[node].parent)
            }
            walked.append((stack, count, path))
        }
        if unwalked > 0 && !bounded { boundedStalls += 1 }
        // Frames are counted by function: the addresses of one function are one frame, shown at
        // the line most of its samples were at (a line of 0, compiler-made code, is not one).
        var bestLines: [String: (location: String, count: Int)] = [:]
        for (line, count) in lineCounts {
            let key = lineKeys[Int(line)]
            if let best = bestLines[key.function], best.count > count || (best.count == count && best.location < key.location) { continue }
            bestLines[key.function] = (key.location, count)
        }
        func located(_ frame: FrameName) -> FrameName {
            guard let best = bestLines[frame.function] else { return frame }
            var frame = frame
            frame.location = best.location
            return frame
        }
        let frames = frames
        func top(_ counts: [Int32: Int]) -> [StallProfile.Count] {
            counts.sorted { $0.value != $1.value ? $0.value > $1.value : frames[Int($0.key)].function < frames[Int($1.key)].function }
                .prefix(StallSamplePass.listLimit).map { StallProfile.Count(frame: located(frames[Int($0.key)]), samples: $0.value) }
        }
        // The blamed function, ordered as `top` orders, and the leaf most of its samples were
        // in, when that is another function.
        func mostFirst(_ a: (key: Int32, value: Int), _ b: (key: Int32, value: Int)) -> Bool {
            if a.value != b.value { return a.value > b.value }
            let (first, second) = (frames[Int(a.key)].function, frames[Int(b.key)].function)
            return first != second ? first < second : a.key < b.key
        }
        let blamed = blameCounts.min(by: mostFirst)
        var blameLeaf: StallProfile.Count?
        if let blamed, let most = leafCounts[blamed.key]?.min(by: mostFirst), most.key != blamed.key {
            blameLeaf = StallProfile.Count(frame: located(frames[Int(most.key)]), samples: most.value)
        }
        let heaviest = ranked[0]
        var heaviestStack: [FrameName] = []
        var node = heaviest.key
        while node >= 0 && heaviestStack.count < StallSamplePass.stackLimit {
            heaviestStack.append(located(self.frames[Int(ids(stacks.nodes[node].address).frame)]))
            node = Int(stacks.nodes[node].parent)
        }
        // Stacks in node order, so that the graph is the same from run to run.
        var flame = FlameGraph()
        for stack in walked.sorted(by: { $0.stack < $1.stack }) {
            flame.add(stack.frames.reversed().map { frames[Int($0)] }, count: stack.count)
        }
        flame.sort()
        return StallProfile(
            start: start, duration: duration, sampleCount: sampleCount, hottestSelf: top(selfCounts),
            hottestTotal: top(totalCounts), heaviestStack: heaviestStack, heaviestCount: heaviest.value,
            blame: blamed.map { StallProfile.Count(frame: located(frames[Int($0.key)]), samples: $0.value) },
            blameLeaf: blameLeaf, flame: flame, unwalkedSamples: unwalked)
    }
}
