import LifetraceAnalysis
import LifetraceFormat

/// The trace's stack samples as Perfetto `PerfSample` packets, which Perfetto's UI shows as a
/// CPU profile of the thread (a flame graph of a selected time range): packets of
/// `interned_data` (function names, frames, callstacks), the first of which clears the
/// sequence's incremental state, then a packet per sample naming its callstack, on their own
/// sequence (``sequenceID``), so that they need nothing of the timeline's interning. A thread's
/// `pid` and `tid` are those of its track in the timeline.
///
/// Packets are handed out one by one as they are made: memory holds the interning tables, one
/// packet of interned data (at most ``internedPacketBytes`` and one entry) and one sample
/// packet, whatever the number of samples.
enum PerfettoSamples {
    /// The samples' sequence (the timeline's is 1).
    static let sequenceID: UInt64 = 2

    /// The interned data gathered before it is written as a packet of its own: Perfetto keeps
    /// the entries of every packet of the sequence, so a table can span several packets.
    static let internedPacketBytes = 1 << 20

    /// Writes the packets of every sample in `stacks`, for process `pid`: `emit` is given each
    /// packet as parts whose concatenation is a `TracePacket`'s bytes, and their total length.
    static func write(
        _ stacks: SampledStacks, names: TraceSymbolNames, pid: Int64,
        to emit: (_ parts: [ProtobufEncoder], _ length: Int) throws(ExportError) -> Void
    ) throws(ExportError) {
        guard !stacks.samples.isEmpty else { return }
        typealias Interned = PerfettoField.InternedData
        var interned = ProtobufEncoder(capacity: 4096)
        var entry = ProtobufEncoder(capacity: 128)
        var header = ProtobufEncoder(capacity: 32)
        var first = true
        // Writes what is interned so far as one packet: its header, then the interned data's
        // bytes as they are (not copied into a packet of their own).
        func flushInterned() throws(ExportError) {
            guard interned.count > 0 else { return }
            header.reset()
            header.appendUInt(PerfettoField.TracePacket.timestamp, UInt64(max(0, stacks.samples[0].timestamp)))
            header.appendUInt(PerfettoField.TracePacket.trustedPacketSequenceID, sequenceID)
            header.appendUInt(
                PerfettoField.TracePacket.sequenceFlags,
                first ? PerfettoField.TracePacket.incrementalStateCleared : PerfettoField.TracePacket.needsIncrementalState)
            header.appendTag(PerfettoField.TracePacket.internedData, .lengthDelimited)
            header.appendVarint(UInt64(interned.count))
            try emit([header, interned], header.count + interned.count)
            interned.reset()
            first = false
        }
        func intern(_ field: UInt32) throws(ExportError) {
            interned.appendMessage(field, entry)
            if interned.count >= internedPacketBytes { try flushInterned() }
        }
        var functionIDs: [String: UInt64] = [:]
        var frameIDs: [UInt64: UInt64] = [:]
        var callstackIDs: [Int: UInt64] = [:]
        // A mapping per image (Perfetto drops a frame without one), and one for addresses that
        // no image holds; a frame's rel_pc is its offset in its image.
        var mappingIDs: [String: UInt64] = [:]
        func mapping(_ image: LoadedImage?) throws(ExportError) -> UInt64 {
            let key = image.map { "\($0.path)@\($0.base)" } ?? ""
            if let known = mappingIDs[key] { return known }
            let id = UInt64(mappingIDs.count + 1)
            mappingIDs[key] = id
            entry.reset()
            entry.appendUInt(PerfettoField.InternedString.iid, id)
            entry.appendString(PerfettoField.InternedString.str, image?.path ?? "[unknown]")
            try intern(Interned.mappingPaths)
            entry.reset()
            entry.appendUInt(PerfettoField.InternedString.iid, id)
            entry.appendString(PerfettoField.InternedString.str, image?.buildID ?? "")
            try intern(Interned.buildIDs)
            entry.reset()
            entry.appendUInt(PerfettoField.Mapping.iid, id)
            entry.appendUInt(PerfettoField.Mapping.buildID, id)
            if let image {
                entry.appendUInt(PerfettoField.Mapping.start, image.base)
                entry.appendUInt(PerfettoField.Mapping.end, image.clampedEnd)
            }
            entry.appendUInt(PerfettoField.Mapping.pathStringIDs, id)
            try intern(Interned.mappings)
            return id
        }
        var frames: [UInt64] = []
        for sample in stacks.samples where callstackIDs[sample.stack] == nil {
            frames.removeAll(keepingCapacity: true)
            for address in stacks.frames(of: sample.stack) {
                if let known = frameIDs[address] {
                    frames.append(known)
                    continue
                }
                let image = names.image(containing: address)
                let function = names.name(address).function
                let functionID: UInt64
                if let known = functionIDs[function] {
                    functionID = known
                } else {
                    functionID = UInt64(functionIDs.count + 1)
                    functionIDs[function] = functionID
                    entry.reset()
                    entry.appendUInt(PerfettoField.InternedString.iid, functionID)
                    entry.appendString(PerfettoField.InternedString.str, function)
                    try intern(Interned.functionNames)
                }
                let frameID = UInt64(frameIDs.count + 1)
                frameIDs[address] = frameID
                let mappingID = try mapping(image)
                entry.reset()
                entry.appendUInt(PerfettoField.Frame.iid, frameID)
                entry.appendUInt(PerfettoField.Frame.functionNameID, functionID)
                entry.appendUInt(PerfettoField.Frame.mappingID, mappingID)
                entry.appendUInt(PerfettoField.Frame.relPC, address &- (image?.base ?? 0))
                try intern(Interned.frames)
                frames.append(frameID)
            }
            let callstackID = UInt64(callstackIDs.count + 1)
            callstackIDs[sample.stack] = callstackID
            entry.reset()
            entry.appendUInt(PerfettoField.Callstack.iid, callstackID)
            for frame in frames { entry.appendUInt(PerfettoField.Callstack.frameIDs, frame) }
            try intern(Interned.callstacks)
        }
        try flushInterned()
        // One small packet per sample, its encoders reused: nothing else holds their bytes.
        var sample = ProtobufEncoder(capacity: 32)
        var packet = ProtobufEncoder(capacity: 64)
        for taken in stacks.samples {
            guard let callstack = callstackIDs[taken.stack] else { continue }
            sample.reset()
            sample.appendInt(PerfettoField.PerfSample.pid, pid)
            sample.appendInt(PerfettoField.PerfSample.tid, Int64(Int32(truncatingIfNeeded: pid &+ Int64(truncatingIfNeeded: taken.thread.rawValue))))
            sample.appendUInt(PerfettoField.PerfSample.callstackIID, callstack)
            packet.reset()
            packet.appendUInt(PerfettoField.TracePacket.timestamp, UInt64(max(0, taken.timestamp)))
            packet.appendUInt(PerfettoField.TracePacket.trustedPacketSequenceID, sequenceID)
            packet.appendUInt(PerfettoField.TracePacket.sequenceFlags, PerfettoField.TracePacket.needsIncrementalState)
            packet.appendMessage(PerfettoField.TracePacket.perfSample, sample)
            try emit([packet], packet.count)
        }
    }
}
