import LifetraceFormat

/// Stack samples merged into a tree by function, outermost frame first: what a flame graph (or
/// icicle) draws. A node's width is its samples; its children are the functions it called in
/// them, the heaviest first. At most ``nodeLimit`` nodes: the samples of a stack past it count in
/// the deepest node kept (as its own).
public struct FlameGraph: Hashable, Sendable {
    /// One function on one path from the outermost frame.
    public struct Node: Hashable, Sendable {
        /// The frame (its location is the file only: the lines of a function are one node).
        public var frame: FrameName
        /// The caller's node, -1 for an outermost frame.
        public var parent: Int
        /// 0 for an outermost frame.
        public var depth: Int
        /// The samples with this node on their stack.
        public var samples: Int
        /// The samples whose innermost frame is this node.
        public var selfSamples: Int
        /// The callees' nodes, the most samples first (then by function).
        public var children: [Int]
    }

    /// The most nodes kept.
    public static let nodeLimit = 5000

    /// The nodes; ``roots`` and ``Node/children`` index them.
    public private(set) var nodes: [Node] = []
    /// The outermost frames' nodes, the most samples first.
    public private(set) var roots: [Int] = []
    /// The samples merged.
    public private(set) var sampleCount = 0
    /// The deepest node (0 without nodes): the graph's rows are `maxDepth + 1`.
    public private(set) var maxDepth = 0
    private var index: [Key: Int] = [:]

    private struct Key: Hashable {
        var parent: Int
        var function: String
    }

    /// No samples.
    public init() {}

    /// Adds `count` samples of the stack `frames`, outermost first.
    public mutating func add(_ frames: [FrameName], count: Int) {
        guard count > 0, !frames.isEmpty else { return }
        sampleCount += count
        var parent = -1
        for frame in frames {
            let key = Key(parent: parent, function: frame.function)
            let node: Int
            if let known = index[key] {
                node = known
            } else {
                guard nodes.count < Self.nodeLimit else { break }
                var named = frame
                named.location = frame.location.map { $0.split(separator: ":").first.map(String.init) ?? $0 }
                let depth = parent < 0 ? 0 : nodes[parent].depth + 1
                nodes.append(Node(frame: named, parent: parent, depth: depth, samples: 0, selfSamples: 0, children: []))
                node = nodes.count - 1
                index[key] = node
                if parent < 0 { roots.append(node) } else { nodes[parent].children.append(node) }
                maxDepth = max(maxDepth, depth)
            }
            nodes[node].samples += count
            parent = node
        }
        if parent >= 0 { nodes[parent].selfSamples += count }
    }

    /// Orders ``roots`` and each node's children: the most samples first, then by function.
    public mutating func sort() {
        let order: (Int, Int) -> Bool = { [nodes] in
            nodes[$0].samples != nodes[$1].samples ? nodes[$0].samples > nodes[$1].samples
                : nodes[$0].frame.function < nodes[$1].frame.function
        }
        roots.sort(by: order)
        for node in nodes.indices { nodes[node].children.sort(by: order) }
    }

    /// The main thread's samples of `stacks` in `start ... start + duration`, named by `names`.
    public static func mainThread(
        start: Int64, duration: Int64, stacks: SampledStacks, names: (UInt64) -> FrameName
    ) -> FlameGraph {
        let end = TraceTime.advanced(start, by: duration)
        var counts: [Int: Int] = [:]
        for sample in stacks.samples where sample.thread == .main && sample.timestamp >= start && sample.timestamp <= end {
            counts[sample.stack, default: 0] += 1
        }
        var graph = FlameGraph()
        var cache: [UInt64: FrameName] = [:]
        // Stacks in node order, so that the graph is the same from run to run.
        for (stack, count) in counts.sorted(by: { $0.key < $1.key }) {
            graph.add(stacks.frames(of: stack).map { address in
                if let known = cache[address] { return known }
                let named = names(address)
                cache[address] = named
                return named
            }, count: count)
        }
        graph.sort()
        return graph
    }
}
