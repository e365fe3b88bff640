import LifetraceAnalysis
import LifetraceFormat

/// The trace's stack samples as Perfetto `PerfSample` packets, which Perfetto's UI shows as a
/// CPU profile of the thread (a flame graph of a selected time range): one packet of
/// `interned_data` (function names, frames, callstacks) that clears the sequence's incremental
/// state, then a packet per sample naming its callstack, on their own sequence
/// (``sequenceID``), so that they need nothing of the timeline's interning. A thread's `pid`
/// and `tid` are those of its track in the timeline.
enum PerfettoSamples {
    /// The samples' sequence (the timeline's is 1).
    static let sequenceID: UInt64 = 2

    /// `interned_data` field numbers (`interned_data.proto`, `profile_common.proto`).
    enum Field {
        static let functionNames: UInt32 = 5
        static let frames: UInt32 = 6
        static let callstacks: UInt32 = 7
        static let buildIDs: UInt32 = 16
        static let mappingPaths: UInt32 = 17
        static let mappings: UInt32 = 19
        // Mapping: iid 1, build_id 2, start 4, end 5, path_string_ids 7.
        /// `TracePacket.perf_sample = 66`.
        static let perfSample: UInt32 = 66
        // InternedString: iid 1, str 2. Frame: iid 1, function_name_id 2, mapping_id 3, rel_pc 4.
        // Callstack: iid 1, frame_ids 2 (the outermost frame first). PerfSample: pid 2, tid 3,
        // callstack_iid 4.
    }

    /// The packets (each a `TracePacket`'s bytes) of every sample in `stacks`, for process `pid`.
    static func packets(_ stacks: SampledStacks, names: TraceSymbolNames, pid: Int64) -> [[UInt8]] {
        guard !stacks.samples.isEmpty else { return [] }
        var interned = ProtobufEncoder(capacity: 4096)
        var entry = ProtobufEncoder(capacity: 128)
        var functionIDs: [String: UInt64] = [:]
        var frameIDs: [UInt64: UInt64] = [:]
        var callstackIDs: [Int: UInt64] = [:]
        // A mapping per image (Perfetto drops a frame without one), and one for addresses that
        // no image holds; a frame's rel_pc is its offset in its image.
        var mappingIDs: [String: UInt64] = [:]
        func mapping(_ image: LoadedImage?) -> UInt64 {
            let key = image.map { "\($0.path)@\($0.base)" } ?? ""
            if let known = mappingIDs[key] { return known }
            let id = UInt64(mappingIDs.count + 1)
            mappingIDs[key] = id
            entry.reset()
            entry.appendUInt(1, id)
            entry.appendString(2, image?.path ?? "[unknown]")
            interned.appendMessage(Field.mappingPaths, entry)
            entry.reset()
            entry.appendUInt(1, id)
            entry.appendString(2, image?.buildID ?? "")
            interned.appendMessage(Field.buildIDs, entry)
            entry.reset()
            entry.appendUInt(1, id)
            entry.appendUInt(2, id)
            if let image {
                entry.appendUInt(4, image.base)
                entry.appendUInt(5, image.base &+ image.size)
            }
            entry.appendUInt(7, id)
            interned.appendMessage(Field.mappings, entry)
            return id
        }
        for sample in stacks.samples where callstackIDs[sample.stack] == nil {
            var frames: [UInt64] = []
            for address in stacks.frames(of: sample.stack) {
                if let known = frameIDs[address] {
                    frames.append(known)
                    continue
                }
                let function = names.name(address).function
                let functionID: UInt64
                if let known = functionIDs[function] {
                    functionID = known
                } else {
                    functionID = UInt64(functionIDs.count + 1)
                    functionIDs[function] = functionID
                    entry.reset()
                    entry.appendUInt(1, functionID)
                    entry.appendString(2, function)
                    interned.appendMessage(Field.functionNames, entry)
                }
                let frameID = UInt64(frameIDs.count + 1)
                frameIDs[address] = frameID
                let image = stacks.image(containing: address)
                let mappingID = mapping(image)
                entry.reset()
                entry.appendUInt(1, frameID)
                entry.appendUInt(2, functionID)
                entry.appendUInt(3, mappingID)
                entry.appendUInt(4, address &- (image?.base ?? 0))
                interned.appendMessage(Field.frames, entry)
                frames.append(frameID)
            }
            let callstackID = UInt64(callstackIDs.count + 1)
            callstackIDs[sample.stack] = callstackID
            entry.reset()
            entry.appendUInt(1, callstackID)
            for frame in frames { entry.appendUInt(2, frame) }
            interned.appendMessage(Field.callstacks, entry)
        }
        var packet = ProtobufEncoder(capacity: interned.count + 16)
        packet.appendUInt(PerfettoField.TracePacket.timestamp, UInt64(max(0, stacks.samples[0].timestamp)))
        packet.appendUInt(PerfettoField.TracePacket.trustedPacketSequenceID, sequenceID)
        packet.appendUInt(PerfettoField.TracePacket.sequenceFlags, PerfettoField.TracePacket.incrementalStateCleared)
        packet.appendMessage(PerfettoField.TracePacket.internedData, interned)
        var result = [packet.bytes]
        var sample = ProtobufEncoder(capacity: 32)
        for taken in stacks.samples {
            guard let callstack = callstackIDs[taken.stack] else { continue }
            sample.reset()
            sample.appendInt(2, pid)
            sample.appendInt(3, Int64(Int32(truncatingIfNeeded: pid &+ Int64(truncatingIfNeeded: taken.thread.rawValue))))
            sample.appendUInt(4, callstack)
            packet.reset()
            packet.appendUInt(PerfettoField.TracePacket.timestamp, UInt64(max(0, taken.timestamp)))
            packet.appendUInt(PerfettoField.TracePacket.trustedPacketSequenceID, sequenceID)
            packet.appendUInt(PerfettoField.TracePacket.sequenceFlags, PerfettoField.TracePacket.needsIncrementalState)
            packet.appendMessage(Field.perfSample, sample)
            result.append(packet.bytes)
        }
        return result
    }
}
