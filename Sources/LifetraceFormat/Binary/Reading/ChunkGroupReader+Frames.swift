/// Reading frames: the chunks of one flush group, end-of-trace records, skippable frames of
/// others, and recovery from corrupt or truncated data.
extension ChunkGroupReader {
    /// Reads the next flush group's chunks into the decoders (sets `active`), recording issues.
    mutating func loadGroup(summary: inout BinaryTraceSummary, issues: inout [TraceError], chunks: inout [ChunkStatistics]) {
        active = 0
        order = []
        lossFrom = nil
        var group: UInt64?
        var groupBytes = 0
        do {
            frames: while true {
                switch try readFrame(group: group, groupBytes: groupBytes, summary: &summary, issues: &issues, chunks: &chunks) {
                case .chunk(let header):
                    group = header.flushGroup
                    groupBytes += Int(header.rawSize)
                case .other:
                    continue
                case .groupEnds:
                    break frames
                case .inputEnds:
                    finished = true
                    break frames
                case .inputCut(let firstLost):
                    finished = true
                    withholdCutGroup(from: firstLost, issues: &issues)
                    break frames
                case .inputEndsUnclosed:
                    finished = true
                    // Chunks are written in stream order: a group whose last chunk is not of the
                    // last stream may have lost the chunks that follow it.
                    if !endsAtGroupBoundary, active > 0, decoders[active - 1].header.stream < TraceStream.allCases.last!.rawValue {
                        withholdCutGroup(from: nil, issues: &issues)
                    }
                    break frames
                }
            }
        } catch {
            issues.append(error)
            finished = true
        }
        summary.bytesRead = input.offset
        if active > 0 { summary.flushGroupCount += 1 }
        let size = BinaryTraceReader.batchSize
        events.reserve(slots: active)
        while batchStart.count < active {
            batchStart.append(0)
            batchEnd.append(0)
        }
        for slot in 0..<active {
            batchStart[slot] = slot * size
            batchEnd[slot] = slot * size
            // Once per chunk: the decoder overwrites every field of its slot's events but this.
            events.stamp(slot: slot, chunk: decoders[slot].chunkNumber)
        }
        validateOrder()
    }

    /// What ``readFrame`` found.
    enum Frame {
        case chunk(ChunkHeader)
        case other
        case groupEnds
        case inputEnds
        /// The input ends inside a frame that may hold events of the group being read (a chunk,
        /// a frame header, another tool's frame): what the group read so far lacks the cut data.
        /// With the cut chunk's first timestamp, when its header could be read.
        case inputCut(firstLost: Int64?)
        /// The input ends at a frame boundary, unclosed.
        case inputEndsUnclosed
    }

    private mutating func readFrame(
        group: UInt64?, groupBytes: Int, summary: inout BinaryTraceSummary, issues: inout [TraceError],
        chunks: inout [ChunkStatistics]
    ) throws(TraceError) -> Frame {
        let start = input.offset
        guard try input.ensure(BinaryTraceFormat.frameHeaderSize) else {
            let end = start + Int64(input.available)
            if input.available > 0 {
                issues.append(TraceError(.truncated, file: input.name, at: .byte(start, chunk: nil), "truncated at byte \(end): the file ends inside a frame header"))
                input.consume(input.available)
                return .inputCut(firstLost: nil)
            } else if !summary.isClosed {
                issues.append(TraceError.notClosed(file: input.name, at: end))
                return .inputEndsUnclosed
            }
            return .inputEnds
        }
        let (magic, size) = input.withAvailable { bytes in
            (bytes.littleEndian(at: 0, as: UInt32.self), Int(bytes.littleEndian(at: 4, as: UInt32.self)))
        }
        switch magic {
        case BinaryTraceFormat.chunkMagic:
            return try readChunk(at: start, size: size, group: group, groupBytes: groupBytes, summary: &summary, issues: &issues, chunks: &chunks)
        case BinaryTraceFormat.orderMagic:
            return try readOrder(at: start, size: size, group: group, issues: &issues)
        case BinaryTraceFormat.endMagic:
            return try readEnd(at: start, size: size, summary: &summary, issues: &issues)
        case _ where BinaryTraceFormat.isSkippable(magic):
            input.consume(BinaryTraceFormat.frameHeaderSize)
            let skipped = try input.skip(Int64(size))
            if skipped < Int64(size) {
                issues.append(TraceError(.truncated, file: input.name, at: .byte(start, chunk: nil), "truncated at byte \(input.offset): the file ends inside a skippable frame"))
                return .inputCut(firstLost: nil)
            }
            return .other
        default:
            let what = magic == BinaryTraceFormat.zstdMagic ? "a zstd frame without a chunk header" : "unrecognised bytes"
            try resynchronize(after: start, issues: &issues, reason: what, chunk: nil)
            return .other
        }
    }

    private mutating func readChunk(
        at start: Int64, size: Int, group: UInt64?, groupBytes: Int, summary: inout BinaryTraceSummary,
        issues: inout [TraceError], chunks: inout [ChunkStatistics]
    ) throws(TraceError) -> Frame {
        guard size >= ChunkHeader.size, size <= BinaryTraceFormat.maxChunkHeaderSize else {
            try resynchronize(after: start, issues: &issues, reason: "chunk header of \(size) bytes", chunk: nil)
            return .other
        }
        let headerEnd = BinaryTraceFormat.frameHeaderSize + size
        guard try input.ensure(headerEnd) else { return truncatedFrame(at: start, issues: &issues, chunk: nil, cut: .inputCut(firstLost: nil)) }
        guard let header = input.withAvailable({ ChunkHeader(content: UnsafeRawBufferPointer(rebasing: $0[BinaryTraceFormat.frameHeaderSize..<headerEnd])) }) else {
            // Not reached: `size` was checked against the v1 header size above.
            try resynchronize(after: start, issues: &issues, reason: "chunk header of \(size) bytes", chunk: nil)
            return .other
        }
        let location = TraceError.ChunkLocation(stream: header.stream, sequence: header.sequence)
        if let group, header.flushGroup != group { return .groupEnds }
        let rawSize = Int(header.rawSize)
        let compressedSize = Int(header.compressedSize)
        let problem: String? =
            if rawSize > maxChunkSize { "raw size \(rawSize) exceeds the declared maximum \(maxChunkSize)" }
            else if compressedSize > BinaryTraceFormat.compressBound(maxChunkSize) { "compressed size \(compressedSize) exceeds the bound for \(maxChunkSize) bytes" }
            else if Int(header.eventCount) > rawSize / 2 { "\(header.eventCount) events cannot fit in \(rawSize) bytes" }
            else if TraceStream(rawValue: header.stream) == nil { "unknown stream \(header.stream)" }
            else if header.timestampUnit == 0 { "timestamp unit 0" }
            else if header.structureSize > header.rawSize { "structure size \(header.structureSize) exceeds raw size \(rawSize)" }
            else { nil }
        if let problem {
            // The checksum can only be checked with the frame, whose size is not to be trusted here.
            try resynchronize(after: start, issues: &issues, reason: "bad chunk header (\(problem))", chunk: location)
            return .other
        }
        let total = headerEnd + compressedSize
        guard try input.ensure(total) else {
            return truncatedFrame(at: start, issues: &issues, chunk: location, cut: .inputCut(firstLost: header.firstTimestamp))
        }
        if group != nil && (active >= ChunkGroupReader.maxGroupChunks || groupBytes + rawSize > ChunkGroupReader.maxGroupBytes) {
            issues.append(TraceError(.limitExceeded, file: input.name, at: .byte(start, chunk: location), "flush group \(header.flushGroup) exceeds \(ChunkGroupReader.maxGroupChunks) chunks or \(ChunkGroupReader.maxGroupBytes >> 20) MiB; merged in parts"))
            return .groupEnds
        }
        let computed = input.withAvailable { bytes in
            ChunkHeader.checksum(
                content: UnsafeRawBufferPointer(rebasing: bytes[BinaryTraceFormat.frameHeaderSize..<headerEnd]),
                frame: UnsafeRawBufferPointer(rebasing: bytes[headerEnd..<total]))
        }
        guard computed == header.checksum else {
            summary.skippedChunkCount += 1
            let message = "checksum mismatch (stored \(hex32(header.checksum)), computed \(hex32(computed))); chunk skipped"
            // Trust the sizes if a frame starts right after; otherwise search for the next one.
            let nextIsFrame = try input.ensure(total + 4)
                ? input.withAvailable { BinaryTraceFormat.isSkippable($0.littleEndian(at: total, as: UInt32.self)) }
                : try !input.ensure(total + 1)
            if nextIsFrame {
                issues.append(TraceError(.corruptChunk, file: input.name, at: .byte(start, chunk: location), message))
                input.consume(total)
            } else {
                try resynchronize(after: start, issues: &issues, reason: message, chunk: location)
            }
            return .other
        }
        if active == decoders.count {
            var decoder = ChunkDecoder()
            decoder.stacks = collectsStackSamples ? stacks : nil
            decoder.slot = active
            decoders.append(decoder)
        }
        decoders[active].reset(header: header, offset: start)
        var records = decoders[active].records
        decoders[active].records = []
        if records.count < rawSize {
            records.append(contentsOf: repeatElement(0, count: rawSize - records.count))
        } else if records.count > rawSize {
            records.removeLast(records.count - rawSize)
        }
        let failure: TraceCodecError? = records.withUnsafeMutableBytes { destination in
            input.withAvailable { bytes -> TraceCodecError? in
                do throws(TraceCodecError) {
                    try decompressor.decompress(UnsafeRawBufferPointer(rebasing: bytes[headerEnd..<total]), into: destination)
                    return nil
                } catch {
                    return error
                }
            }
        }
        decoders[active].records = records
        if let failure, failure.kind == .needsLibzstd {
            // Not corrupt: this reader cannot read it, nor any later chunk; reading stops here.
            throw TraceError(.needsLibzstd, file: input.name, at: .byte(start, chunk: location), "chunk compressed with libzstd, which this reader does not link; read the trace with lifetrace")
        }
        input.consume(total)
        if let failure {
            summary.skippedChunkCount += 1
            issues.append(TraceError(.corruptChunk, file: input.name, at: .byte(start, chunk: location), "bad zstd frame: \(failure.description); chunk skipped"))
            return .other
        }
        decoders[active].chunkNumber = positions.add(offset: start, length: total)
        active += 1
        summary.chunkCount += 1
        summary.rawBytes += Int64(rawSize)
        summary.chunkBytes += Int64(total)
        declaredEvents += UInt64(header.eventCount)
        if collectsStatistics {
            chunks.append(ChunkStatistics(
                stream: TraceStream(rawValue: header.stream)!, sequence: header.sequence, flushGroup: header.flushGroup,
                offset: start, firstTimestamp: header.firstTimestamp, lastTimestamp: header.lastTimestamp,
                eventCount: header.eventCount, rawSize: header.rawSize, storedSize: UInt32(total)))
        }
        return .chunk(header)
    }

    private mutating func readOrder(at start: Int64, size: Int, group: UInt64?, issues: inout [TraceError]) throws(TraceError) -> Frame {
        guard size >= 13, size <= BinaryTraceFormat.maxOrderSize else {
            try resynchronize(after: start, issues: &issues, reason: "group-order frame of \(size) bytes", chunk: nil)
            return .other
        }
        let total = BinaryTraceFormat.frameHeaderSize + size
        guard try input.ensure(total) else { return truncatedFrame(at: start, issues: &issues, chunk: nil, cut: .inputEnds) }
        var frameGroup: UInt64 = 0
        let order = input.withAvailable {
            GroupOrder(content: UnsafeRawBufferPointer(rebasing: $0[BinaryTraceFormat.frameHeaderSize..<total]), flushGroup: &frameGroup)
        }
        input.consume(total)
        guard let order else {
            issues.append(TraceError(.corruptChunk, file: input.name, at: .byte(start, chunk: nil), "group-order frame is corrupt; its group is merged by timestamp"))
            return .other
        }
        if frameGroup == group { self.order = order.runs }
        return .other
    }

    /// Keeps the group's order only if it accounts for exactly the events of the loaded chunks.
    mutating func validateOrder() {
        guard !order.isEmpty else { return }
        var counts: [UInt8: UInt64] = [:]
        for run in order {
            guard run.count > 0 else { order = []; return }
            counts[run.stream, default: 0] += run.count
        }
        var streams = Set<UInt8>()
        for slot in 0..<active {
            let header = decoders[slot].header
            guard streams.insert(header.stream).inserted, counts[header.stream] == UInt64(header.eventCount) else {
                order = []
                return
            }
        }
        if streams.count != counts.count { order = []; return }
        orderIndex = 0
        orderRemaining = order[0].count
    }

    private mutating func readEnd(at start: Int64, size: Int, summary: inout BinaryTraceSummary, issues: inout [TraceError]) throws(TraceError) -> Frame {
        guard size >= TraceEnd.size, size <= BinaryTraceFormat.maxChunkHeaderSize else {
            try resynchronize(after: start, issues: &issues, reason: "end-of-trace record of \(size) bytes", chunk: nil)
            return .other
        }
        let total = BinaryTraceFormat.frameHeaderSize + size
        guard try input.ensure(total) else { return truncatedFrame(at: start, issues: &issues, chunk: nil, cut: .inputEnds) }
        let end = input.withAvailable { TraceEnd(content: UnsafeRawBufferPointer(rebasing: $0[BinaryTraceFormat.frameHeaderSize..<total])) }
        input.consume(total)
        guard let end else {
            issues.append(TraceError(.corruptChunk, file: input.name, at: .byte(start, chunk: nil), "end-of-trace record checksum mismatch"))
            return .other
        }
        summary.isClosed = true
        if end.flags & TraceEnd.dataLost != 0 {
            issues.append(TraceError(.dataLost, file: input.name, at: .byte(start, chunk: nil), "sealed with data missing: the writer that closed the trace (a recovery, or a copy by import or symbolicate) left out data of the recorded run"))
        }
        summary.declaredTotals = .init(chunks: end.chunkCount, events: end.eventCount, flushGroups: end.flushGroupCount)
        if summary.skippedChunkCount == 0 && (end.chunkCount != UInt64(summary.chunkCount) || end.eventCount != declaredEvents) {
            issues.append(TraceError(.corruptChunk, file: input.name, at: .byte(start, chunk: nil), "end-of-trace record declares \(end.chunkCount) chunks and \(end.eventCount) events; the file holds \(summary.chunkCount) and \(declaredEvents)"))
        }
        try skipAfterEnd(issues: &issues)
        return .inputEnds
    }

    // The end-of-trace record closes the trace: what its totals count is all there is. Only
    // other tools' skippable frames may follow it (a seek table, say), whole, and are skipped as
    // anywhere else. Anything more (a chunk, a second end record, another trace's header, bytes
    // that are no frame, a frame cut short) is damage: read as events it would add what the
    // record does not count, or a second trace's lifetimes to the first's. It is reported once,
    // at its offset with its size, and not read.
    private mutating func skipAfterEnd(issues: inout [TraceError]) throws(TraceError) {
        while try input.ensure(1) {
            let start = input.offset
            var magic: UInt32?
            var size = 0
            if try input.ensure(BinaryTraceFormat.frameHeaderSize) {
                (magic, size) = input.withAvailable { bytes in
                    (bytes.littleEndian(at: 0, as: UInt32.self), Int(bytes.littleEndian(at: 4, as: UInt32.self)))
                }
            }
            if let magic, BinaryTraceFormat.isSkippable(magic), !BinaryTraceFormat.isLifetraceFrame(magic) {
                input.consume(BinaryTraceFormat.frameHeaderSize)
                if try input.skip(Int64(size)) == Int64(size) { continue }
            }
            let what = switch magic {
            case BinaryTraceFormat.chunkMagic?: "they start with a chunk"
            case BinaryTraceFormat.endMagic?: "they start with a second end-of-trace record"
            case BinaryTraceFormat.headerMagic?: "they start with a file header (another trace appended?)"
            case BinaryTraceFormat.orderMagic?: "they start with a group-order frame"
            case let magic? where BinaryTraceFormat.isSkippable(magic): "they start with a skippable frame cut short"
            default: "they are no frame"
            }
            let count = input.offset - start + (try input.skip(.max))
            issues.append(TraceError(
                .trailingData, file: input.name, at: .byte(start, chunk: nil),
                "\(count) byte\(count == 1 ? "" : "s") after the end-of-trace record, which closes the trace, were not read; \(what)"))
            return
        }
    }

    // The input ends inside the frame at `start`. A cut chunk (or a frame that could be one)
    // may hold events of the group being read; a cut group-order or end-of-trace frame comes
    // after the group's chunks and holds none.
    private func truncatedFrame(
        at start: Int64, issues: inout [TraceError], chunk: TraceError.ChunkLocation?, cut: Frame
    ) -> Frame {
        let end = start + Int64(input.available)
        issues.append(TraceError(.truncated, file: input.name, at: .byte(start, chunk: chunk), "truncated at byte \(end): the file ends inside this frame"))
        input.consume(input.available)
        return cut
    }

    // The file ends inside a frame of the group being loaded: the chunks of the group read so
    // far are whole, but the cut data of another stream may lie anywhere among their events
    // (a writer flushes every stream's pending chunk in one group), so merged without it they
    // would show one stream going on while another fell silent. The group is returned only up
    // to the cut chunk's first timestamp, when its header could be read (the merge returns
    // nothing of that chunk before it), and not at all otherwise; the issue says which. Every
    // event returned thus comes before the loss. (At an unclosed end between two chunks of a
    // group, the issue stays the unclosed end's: nothing read was cut.)
    private mutating func withholdCutGroup(from firstLost: Int64?, issues: inout [TraceError]) {
        guard active > 0, let cut = issues.indices.last else { return }
        let group = decoders[0].header.flushGroup
        order = []
        if let firstLost {
            lossFrom = firstLost
            issues[cut].message += "; the events of its flush group \(group) from \(firstLost) ns on (the cut chunk's first "
                + "timestamp, from its unchecked header) are left out: the cut data belongs among them"
            return
        }
        var withheld: UInt64 = 0
        var streams: [String] = []
        for slot in 0..<active {
            let header = decoders[slot].header
            withheld += UInt64(header.eventCount)
            let stream = TraceStream(rawValue: header.stream)?.name ?? "#\(header.stream)"
            if !streams.contains(stream) { streams.append(stream) }
        }
        issues[cut].message += "; the \(withheld) record\(withheld == 1 ? "" : "s") of stream \(streams.joined(separator: " and ")) "
            + "already read in its flush group \(group) are left out: the cut data may belong among them"
        active = 0
    }

    // Skips a frame that cannot be trusted: searches for the next chunk header or end record
    // after its first byte.
    private mutating func resynchronize(
        after start: Int64, issues: inout [TraceError], reason: String, chunk: TraceError.ChunkLocation?
    ) throws(TraceError) {
        input.consume(1)
        try input.scan(for: [BinaryTraceFormat.chunkMagic, BinaryTraceFormat.endMagic])
        let skipped = input.offset - start
        issues.append(TraceError(.corruptChunk, file: input.name, at: .byte(start, chunk: chunk), "\(reason); skipped \(skipped) bytes to the next frame"))
    }
}
