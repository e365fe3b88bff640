/// The frame tree of a ``SampledStacks`` cut into the pieces a writer defines as `stack` records
/// (docs/FORMAT.md, "Stack samples"), so that a chunk defines only the frames its samples use,
/// each once, however many stacks share them.
///
/// A segment ends at a node that a sample names or where the tree branches (a node with two or
/// more children that samples use); it holds the frames from below the segment above it (its
/// ``parent(of:)``) down to that node. A stack record per segment, whose `parent` is the record
/// of the segment above, lets a chunk define the outer frames that many stacks share once, where
/// a record per whole stack would repeat them for every stack: 2,000 stacks that differ only in
/// their innermost frame under 1,000 shared ones cost about 1 KB and 2,000 small records a
/// chunk, not 2 MB. Nodes that no kept sample uses are left out.
struct StackSegments {
    let stacks: SampledStacks
    // Per node that a sample uses: the nearest segment end strictly above it (-1 none).
    private let above: [Int32]

    /// Cuts the tree of `stacks` at its samples' stacks and at its branches.
    init(_ stacks: SampledStacks) {
        self.stacks = stacks
        let nodes = stacks.nodes
        var used = [Bool](repeating: false, count: nodes.count)
        var children = [UInt8](repeating: 0, count: nodes.count)
        var isEnd = [Bool](repeating: false, count: nodes.count)
        for sample in stacks.samples {
            isEnd[sample.stack] = true
            var node = sample.stack
            while node >= 0, !used[node] {
                used[node] = true
                let parent = Int(nodes[node].parent)
                if parent >= 0, children[parent] < 2 { children[parent] += 1 }
                node = parent
            }
        }
        for node in nodes.indices where children[node] >= 2 { isEnd[node] = true }
        // A node's parent comes before it (interning appends a node after its parent), so one
        // pass in index order finds every node's nearest segment end above. (A node whose parent
        // came after it would keep -1: its segment then runs to the outermost frame, still right.)
        var above = [Int32](repeating: -1, count: nodes.count)
        for node in nodes.indices where used[node] {
            let parent = Int(nodes[node].parent)
            guard parent >= 0, parent < node else { continue }
            above[node] = isEnd[parent] ? Int32(parent) : above[parent]
        }
        self.above = above
    }

    /// The segment end above segment end `node`, or -1 when its segment starts at the outermost frame.
    func parent(of node: Int) -> Int { Int(above[node]) }

    /// The frames of the segment that ends at `node`, outermost first.
    func frames(of node: Int) -> [UInt64] {
        let stop = Int(above[node])
        var frames: [UInt64] = []
        var current = node
        while current >= 0, current != stop {
            frames.append(stacks.nodes[current].address)
            current = Int(stacks.nodes[current].parent)
        }
        return frames.reversed()
    }
}
