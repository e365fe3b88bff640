/// The order in which a flush group's events were appended, as runs of streams, and the
/// group-order frame that stores it when merging by timestamp would not reproduce it
/// (see `docs/FORMAT.md`, "Group order frame").
struct GroupOrder: Equatable {
    /// Consecutive events of one stream.
    struct Run: Equatable {
        /// The stream code.
        var stream: UInt8
        /// The number of events.
        var count: UInt64
    }

    /// The runs, in append order.
    private(set) var runs: [Run] = []

    /// An empty order.
    init() {}

    /// Creates an order from runs.
    init(runs: [Run]) { self.runs = runs }

    /// Notes `count` more appended events of `stream`.
    mutating func record(_ stream: UInt8, count: UInt64 = 1) {
        if let last = runs.indices.last, runs[last].stream == stream {
            runs[last].count += count
        } else {
            runs.append(Run(stream: stream, count: count))
        }
    }

    /// Forgets the runs, for the next group.
    mutating func reset() { runs.removeAll(keepingCapacity: true) }

    /// Whether the reader's timestamp merge of `chunks` (in file order) gives back this order.
    func isReproduced(byMerging chunks: [ChunkEncoder]) -> Bool {
        if chunks.count < 2 { return true }
        let timestamps = chunks.map(\.timestamps)
        var next = [Int](repeating: 0, count: chunks.count)
        for run in runs {
            guard let chunk = chunks.firstIndex(where: { $0.stream.rawValue == run.stream }) else { return false }
            for _ in 0..<run.count {
                // The reader takes the earliest head; on a tie, the chunk earlier in the file.
                var best = -1
                for index in chunks.indices where next[index] < timestamps[index].count {
                    if best < 0 || timestamps[index][next[index]] < timestamps[best][next[best]] { best = index }
                }
                if best != chunk { return false }
                next[best] += 1
            }
        }
        return true
    }

    /// The group-order frame for flush group `flushGroup`.
    func encoded(flushGroup: UInt64) -> [UInt8] {
        var content: [UInt8] = []
        content.appendLittleEndian(flushGroup)
        Varint.append(UInt64(runs.count), to: &content)
        for run in runs {
            content.append(run.stream)
            Varint.append(run.count, to: &content)
        }
        var frame: [UInt8] = []
        frame.appendLittleEndian(BinaryTraceFormat.orderMagic)
        frame.appendLittleEndian(UInt32(content.count + 4))
        frame.appendLittleEndian(CRC32C.checksum(content))
        return frame + content
    }

    /// Decodes a group-order frame's content; nil when its checksum or layout is wrong.
    init?(content: UnsafeRawBufferPointer, flushGroup: inout UInt64) {
        var cursor = ByteCursor(content)
        guard let stored = cursor.readInteger(as: UInt32.self), let group = cursor.readInteger(as: UInt64.self) else {
            return nil
        }
        var crc = CRC32C()
        crc.update(UnsafeRawBufferPointer(rebasing: content[4...]))
        guard crc.value == stored else { return nil }
        flushGroup = group
        guard let count = cursor.varint(), count <= UInt64(cursor.remaining / 2) else { return nil }
        for _ in 0..<count {
            guard let stream = cursor.byte(), let events = cursor.varint() else { return nil }
            runs.append(Run(stream: stream, count: events))
        }
    }
}
