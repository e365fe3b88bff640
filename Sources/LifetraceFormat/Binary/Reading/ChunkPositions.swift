/// The places of the chunks a binary trace reader has read, by chunk number
/// (``TraceEvent/chunkNumber``): how a witness of the analysis learns where its event lies in
/// the file without the event growing and without the file being read again.
///
/// Each event carries only its chunk's number (four bytes of its padding, stamped once per
/// chunk, not per event); the reader adds each chunk's place here as it reads the chunk, and
/// whoever summarises an event (a violation's witness) asks for it. Twelve bytes a chunk, and
/// never more than ``limit`` chunks, so memory stays bounded whatever the file holds: the
/// events of a chunk past the limit have no number. Shared between the decoding thread, which
/// adds, and the analysing one, which asks (rarely: once per witness), under a lock.
public final class ChunkPositions: Sendable {
    /// The most chunks whose places are kept: 12 MiB. A trace written with the default chunk
    /// size has that many chunks only past 50 GB or so.
    public static let limit = 1 << 20

    private struct Table {
        var offsets: [Int64] = []
        var lengths: [UInt32] = []
    }

    private let table = Locked(Table())

    /// An empty table.
    public init() {}

    /// Adds the chunk frame of `length` bytes at `offset`; returns its number (from 1), or 0
    /// (none) past ``limit``.
    func add(offset: Int64, length: Int) -> UInt32 {
        table.withLock { table in
            guard table.offsets.count < Self.limit, let length = UInt32(exactly: length) else { return 0 }
            table.offsets.append(offset)
            table.lengths.append(length)
            return UInt32(table.offsets.count)
        }
    }

    /// The place of chunk `number`, when it was read.
    public func position(of number: Int) -> ChunkPosition? {
        table.withLock { table in
            guard number >= 1, number <= table.offsets.count else { return nil }
            return ChunkPosition(byteOffset: table.offsets[number - 1], byteLength: Int64(table.lengths[number - 1]))
        }
    }

    /// The place of the chunk `event` was decoded from, when it has one.
    public func position(of event: TraceEvent) -> ChunkPosition? {
        event.chunkNumber.flatMap(position(of:))
    }
}
