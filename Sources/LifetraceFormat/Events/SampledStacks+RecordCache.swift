/// The stack records a ``SampledStacks`` interned, by their parent node and frames: a trace
/// defines its stacks again in every chunk (docs/FORMAT.md, "Stack samples"), and a record seen
/// before is found by one hash of its frames' bytes instead of a tree lookup per frame.
///
/// Bounded whatever a trace claims: at most ``maxEntries`` records and ``maxFrames`` frames
/// (2 MiB of them), records of ``minFrames`` frames or more (a shorter one costs as few lookups
/// as a hash).
/// A record that does not fit is walked in the tree, within ``SampledStacks/maxWalkedFrames``.
struct StackRecordCache: Sendable {
    /// The fewest frames of a record kept.
    static let minFrames = 4
    /// The most records kept.
    static let maxEntries = 1 << 16
    /// The most frames of all records kept.
    static let maxFrames = SampledStacks.maxNodes

    /// A stack record: its parent node (-1: none) and frames, hashed as one run of bytes.
    struct Key: Hashable, Sendable {
        var parent: Int32
        var frames: [UInt64]

        func hash(into hasher: inout Hasher) {
            hasher.combine(parent)
            frames.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private var nodes: [Key: Int32] = [:]
    private var frames = 0

    /// Whether a record of `frames` is worth keeping.
    static func holds(_ frames: [UInt64]) -> Bool { frames.count >= minFrames }

    /// The node a record interned to, if it was kept.
    func node(of key: Key) -> Int32? { nodes.isEmpty ? nil : nodes[key] }

    /// Keeps the node of a record, unless the cache is full.
    mutating func insert(_ key: Key, node: Int32) {
        guard nodes.count < Self.maxEntries, frames + key.frames.count <= Self.maxFrames else { return }
        if nodes.updateValue(node, forKey: key) == nil { frames += key.frames.count }
    }
}
