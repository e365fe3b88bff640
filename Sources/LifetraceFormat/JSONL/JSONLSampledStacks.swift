/// The stack samples, images and symbols of a text trace, collected as its lines are read
/// (docs/JSONL.md, "Stack samples"): each `stack` line's id mapped to a node of one
/// ``SampledStacks``, whose limits bound what is kept.
///
/// A reference, so that the copies of a reader share what was read (a consumer that reads the
/// events through a copy, `import` and `dump`, asks the original for the samples afterwards), as
/// the binary reader's copies do.
final class JSONLSampledStacks {
    /// The most `stack` lines of a trace: as many as the nodes ``SampledStacks`` keeps, since a
    /// writer defines each stack it keeps once. More is a `limitExceeded` error, so that the ids'
    /// table stays bounded whatever a text trace claims.
    static let maxStacks = SampledStacks.maxNodes

    /// The most `stack` lines this table takes (``maxStacks``; fewer in tests).
    let stackLimit: Int

    init(maxStacks: Int = JSONLSampledStacks.maxStacks) {
        stackLimit = maxStacks
    }

    /// What was read so far.
    private(set) var collected = SampledStacks()
    // Per stack id - 1: its node (-1: not kept, beyond the node limit) and its depth.
    private var stacks: [(node: Int32, depth: Int32)] = []

    /// Checks what `line` refers to and keeps its record.
    func apply(_ line: JSONLSampleLine) throws(TraceError) {
        let fields = line.fields
        switch line.record {
        case .image(let image):
            collected.addImage(image)
        case .symbol(let address, let symbol):
            collected.addSymbol(symbol, for: address)
        case .sample(let timestamp, let thread, let stack):
            guard stack <= Int64(stacks.count) else {
                throw fields.error(.invalidValue, at: fields.member("stack"), "stack \(stack) is not defined on an earlier line")
            }
            let node = stacks[Int(stack) - 1].node
            collected.addSample(timestamp: timestamp, thread: thread, stack: node < 0 ? nil : Int(node))
        case .stack(let id, let parent, let frames):
            guard id == Int64(stacks.count) + 1 else {
                throw fields.error(.invalidValue, at: fields.member("id"), "stack ids must be 1, 2, 3, ... in order: expected \(stacks.count + 1)")
            }
            guard stacks.count < stackLimit else {
                throw fields.error(.limitExceeded, at: nil, "more than \(stackLimit) stacks")
            }
            let base = parent.map { stacks[Int($0) - 1] } ?? (node: -1, depth: 0)
            let depth = Int(base.depth) + frames.count
            guard depth <= SampledStacks.maxDepth else {
                throw fields.error(
                    .invalidValue, at: fields.member("frames"),
                    "the stack is deeper than \(SampledStacks.maxDepth) frames (\(base.depth) in its parent and \(frames.count) here)")
            }
            var node: Int32 = -1
            // A stack under a parent that was not kept is not kept either (its frames are not known whole).
            if parent == nil || base.node >= 0, let interned = collected.intern(frames, under: base.node < 0 ? nil : Int(base.node)) {
                node = Int32(interned)
            }
            stacks.append((node, Int32(depth)))
        }
    }
}
