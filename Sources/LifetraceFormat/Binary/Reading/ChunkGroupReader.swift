/// Reads a binary trace's frames after the header, one flush group at a time, and merges the
/// events of a group's chunks by timestamp into batches.
@usableFromInline
struct ChunkGroupReader {
    /// An event used to fill buffers before they are written.
    static let placeholder = TraceEvent(timestamp: 0, payload: .runloopWake, stream: .app)
    /// The most chunks merged as one group; a larger group is merged in parts.
    static let maxGroupChunks = 16
    /// The most raw bytes merged as one group; a larger group is merged in parts.
    static let maxGroupBytes = 64 << 20
    /// The window limit given to the codec: 16 MiB, the largest chunk any reader accepts.
    static let windowLog = 24

    let input: TraceInput
    let decompressor: any ChunkDecompressor
    let maxChunkSize: Int
    let collectsStatistics: Bool
    let collectsStackSamples: Bool
    // Decoders of the current group, in file order; slots past `active` are kept for reuse.
    var decoders: [ChunkDecoder] = []
    var active = 0
    // Decoded events of each active decoder: slot i owns events[i * batch ..< (i + 1) * batch].
    @usableFromInline let events = EventBatches()
    var batchStart: [Int] = []
    var batchEnd: [Int] = []
    var finished = false
    // The group's append order, when a group-order frame gave one: runs of one stream each.
    var order: [GroupOrder.Run] = []
    var orderIndex = 0
    var orderRemaining: UInt64 = 0
    // When the file was cut inside a chunk of the current group: the cut chunk's first
    // timestamp, from which the group's events are not returned (``withholdCutGroup``).
    var lossFrom: Int64?
    // Whether the input's end, when at a frame boundary, is known to be a flush group's end (a
    // recovery's committed length): a last group of only a system chunk is then whole.
    var endsAtGroupBoundary = false
    /// The stack samples and images read so far, with the decoders' chunk-local stacks.
    let stacks = ChunkStacks()
    /// The place of every chunk read, by the number its events carry.
    let positions = ChunkPositions()
    // Events the headers of the chunks read so far declare, for the end-of-trace check.
    var declaredEvents: UInt64 = 0

    init(
        input: TraceInput, maxChunkSize: Int, codec: some TraceCodec, options: BinaryTraceReader.Options
    ) throws(TraceError) {
        self.input = input
        self.maxChunkSize = maxChunkSize
        collectsStatistics = options.collectsChunkStatistics
        collectsStackSamples = options.collectsStackSamples
        do {
            decompressor = try codec.makeDecompressor(windowLog: ChunkGroupReader.windowLog)
        } catch {
            throw TraceError(.io, file: input.name, "zstd: \(error)")
        }
    }

    /// Reads and checks the file header; throws when it is missing, cut, corrupt or unsupported.
    static func readHeader(from input: TraceInput, limit: Int) throws(TraceError) -> FileHeader {
        let name = input.name
        guard try input.ensure(BinaryTraceFormat.frameHeaderSize) else {
            if input.available == 0 { throw TraceError(.truncated, file: name, "empty input: not a binary trace") }
            throw TraceError(.truncated, file: name, at: .byte(Int64(input.available), chunk: nil), "file ends inside the file header")
        }
        let (magic, size) = input.withAvailable { bytes in
            (bytes.littleEndian(at: 0, as: UInt32.self), bytes.littleEndian(at: 4, as: UInt32.self))
        }
        guard magic == BinaryTraceFormat.headerMagic else {
            throw TraceError(.badMagic, file: name, at: .byte(0, chunk: nil), "not a binary trace (magic 0x\(String(magic, radix: 16)))")
        }
        guard Int(size) <= BinaryTraceFormat.maxHeaderSize else {
            throw TraceError(.limitExceeded, file: name, at: .byte(4, chunk: nil), "file header of \(size) bytes exceeds the 1 MiB limit")
        }
        let total = BinaryTraceFormat.frameHeaderSize + Int(size)
        guard try input.ensure(total) else {
            throw TraceError(.truncated, file: name, at: .byte(Int64(input.available), chunk: nil), "file ends inside the file header (\(total) bytes)")
        }
        let result: Result<FileHeader, FileHeader.Problem> = input.withAvailable { bytes in
            Result { () throws(FileHeader.Problem) -> FileHeader in
                try FileHeader(content: UnsafeRawBufferPointer(rebasing: bytes[BinaryTraceFormat.frameHeaderSize..<total]))
            }
        }
        switch result {
        case .success(let header):
            guard Int(header.maxChunkSize) <= limit else {
                throw TraceError(.limitExceeded, file: name, at: .byte(16, chunk: nil), "declared chunk size \(header.maxChunkSize) exceeds the limit of \(limit) bytes")
            }
            input.consume(total)
            return header
        case .failure(.badSignature):
            throw TraceError(.badMagic, file: name, at: .byte(8, chunk: nil), "file header signature is not LTRC")
        case .failure(.unsupportedVersion(let major, let minor)):
            throw TraceError(.unsupportedVersion, file: name, at: .byte(12, chunk: nil), "format version \(major).\(minor) is not supported (this reader reads \(BinaryTraceFormat.majorVersion).x)")
        case .failure(.checksum(let stored, let computed)):
            throw TraceError(.corruptChunk, file: name, at: .byte(0, chunk: nil), "file header checksum mismatch (stored \(hex32(stored)), computed \(hex32(computed)))")
        case .failure(.chunkSize(let size)):
            throw TraceError(.limitExceeded, file: name, at: .byte(16, chunk: nil), "declared chunk size \(size) is outside 1...\(BinaryTraceFormat.hardMaxChunkSize)")
        case .failure(.malformed(let reason)):
            throw TraceError(.corruptChunk, file: name, at: .byte(8, chunk: nil), "bad file header: \(reason)")
        }
    }

    /// The range of ``events`` holding the next merged events, or nil at the end of the trace.
    ///
    /// The events stay valid until the next call. Each range is a run of one chunk's events that
    /// all come, by timestamp, before the next event of every other chunk of the group (the chunk
    /// earlier in the file winning ties), so returning runs in order is the k-way merge.
    mutating func nextRun(
        summary: inout BinaryTraceSummary, symbols: inout SymbolTable, issues: inout [TraceError],
        chunks: inout [ChunkStatistics]
    ) -> Range<Int>? {
        while true {
            if active == 0 {
                if finished { return nil }
                loadGroup(summary: &summary, issues: &issues, chunks: &chunks)
                continue
            }
            if orderIndex < order.count, let run = nextOrderedRun(symbols: &symbols, issues: &issues) {
                return run
            }
            var best = -1
            var bestTimestamp = Int64.max
            var others = 0
            for slot in 0..<active {
                if batchStart[slot] == batchEnd[slot] && !refillBatch(slot, symbols: &symbols, issues: &issues) { continue }
                let timestamp = events[batchStart[slot]].timestamp
                if best < 0 || timestamp < bestTimestamp {
                    best = slot
                    bestTimestamp = timestamp
                }
                others += 1
            }
            if best < 0 {
                active = 0
                continue
            }
            let start = batchStart[best]
            let end = batchEnd[best]
            if others == 1 {
                batchStart[best] = end
                guard let run = beforeLoss(start..<end) else { continue }
                return run
            }
            // The run of `best` goes on while it stays before every other head; on equal
            // timestamps the chunk earlier in the file goes first. (A slot before `best` has a
            // head above `bestTimestamp`, so `head - 1` cannot overflow.)
            var limit = Int64.max
            for slot in 0..<active where slot != best && batchStart[slot] < batchEnd[slot] {
                let head = events[batchStart[slot]].timestamp
                limit = min(limit, slot < best ? head - 1 : head)
            }
            var index = start + 1
            while index < end && events[index].timestamp <= limit { index += 1 }
            batchStart[best] = index
            guard let run = beforeLoss(start..<index) else { continue }
            return run
        }
    }

    // `run` up to its first event at or after ``lossFrom``, which ends the group there; nil when
    // nothing of it is left.
    private mutating func beforeLoss(_ run: Range<Int>) -> Range<Int>? {
        guard let lossFrom else { return run }
        var index = run.lowerBound
        while index < run.upperBound && events[index].timestamp < lossFrom { index += 1 }
        if index < run.upperBound { active = 0 }
        return index > run.lowerBound ? run.lowerBound..<index : nil
    }

    // The next events in the order the group-order frame gives; nil (and no more ordering for
    // this group) when a chunk ends before its runs do.
    private mutating func nextOrderedRun(symbols: inout SymbolTable, issues: inout [TraceError]) -> Range<Int>? {
        let stream = order[orderIndex].stream
        guard let slot = (0..<active).first(where: { decoders[$0].header.stream == stream }),
            batchStart[slot] < batchEnd[slot] || refillBatch(slot, symbols: &symbols, issues: &issues)
        else {
            order = []
            return nil
        }
        let start = batchStart[slot]
        let count = Int(min(orderRemaining, UInt64(batchEnd[slot] - start)))
        batchStart[slot] = start + count
        orderRemaining -= UInt64(count)
        if orderRemaining == 0 {
            orderIndex += 1
            if orderIndex < order.count { orderRemaining = order[orderIndex].count }
        }
        return start..<(start + count)
    }

    // Decodes the next batch of `slot`; false when the chunk is finished.
    private mutating func refillBatch(_ slot: Int, symbols: inout SymbolTable, issues: inout [TraceError]) -> Bool {
        if decoders[slot].isFinished { return false }
        if decoders[slot].isAtEnd {
            finishChunk(slot, issues: &issues)
            return false
        }
        let size = BinaryTraceReader.batchSize
        let (count, failure) = decoders[slot].decode(into: events.base + slot * size, capacity: size, symbols: &symbols)
        batchStart[slot] = slot * size
        batchEnd[slot] = slot * size + count
        if let failure {
            report(failure, of: slot, issues: &issues)
            decoders[slot].isFinished = true
            return count > 0
        }
        return count > 0 || refillBatch(slot, symbols: &symbols, issues: &issues)
    }

    private mutating func finishChunk(_ slot: Int, issues: inout [TraceError]) {
        decoders[slot].isFinished = true
        let decoder = decoders[slot]
        if decoder.decodedCount != decoder.header.eventCount {
            issues.append(chunkError(.corruptChunk, decoder, "chunk holds \(decoder.decodedCount) events, its header says \(decoder.header.eventCount)"))
        } else if !decoder.deltasAreConsumed {
            issues.append(chunkError(.corruptChunk, decoder, "the delta section has \(decoder.records.count - decoder.deltaPosition) bytes left over"))
        } else if decoder.timestamp != decoder.header.lastTimestamp {
            issues.append(chunkError(.corruptChunk, decoder, "last event at \(decoder.timestamp), header says \(decoder.header.lastTimestamp)"))
        }
    }

    private func report(_ failure: ChunkDecoder.Failure, of slot: Int, issues: inout [TraceError]) {
        let decoder = decoders[slot]
        issues.append(chunkError(.corruptChunk, decoder, "bad event record at raw offset \(failure.recordOffset): \(failure.reason); the rest of the chunk is skipped"))
    }

    private func chunkError(_ kind: TraceError.Kind, _ decoder: ChunkDecoder, _ message: String) -> TraceError {
        TraceError(kind, file: input.name, at: .byte(decoder.offset, chunk: .init(stream: decoder.header.stream, sequence: decoder.header.sequence)), message)
    }
}

/// `0x` and eight hexadecimal digits.
func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
