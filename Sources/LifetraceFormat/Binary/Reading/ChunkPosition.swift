/// Where a chunk of a binary trace lies in its file: the frame it was decoded from, from its
/// frame header to the end of its compressed data (docs/FORMAT.md, "Chunk frames").
///
/// What an output that points into a binary trace points at (a SARIF region's `byteOffset` and
/// `byteLength`): an event's record lies compressed inside its chunk, so the chunk is the
/// smallest part of the file that holds it.
public struct ChunkPosition: Hashable, Sendable {
    /// The offset of the frame's first byte in the file.
    public var byteOffset: Int64
    /// The frame's length in bytes.
    public var byteLength: Int64

    /// A chunk frame of `byteLength` bytes at `byteOffset`.
    public init(byteOffset: Int64, byteLength: Int64) {
        self.byteOffset = byteOffset
        self.byteLength = byteLength
    }
}
