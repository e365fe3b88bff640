import LifetraceAnalysis
import LifetraceFormat

/// Writes the timeline as a native Perfetto trace: a `Trace` whose `TracePacket`s carry
/// `TrackDescriptor`s (the process, its threads, lanes) and `TrackEvent`s (slices and instants).
///
/// Every packet is on one sequence (`trusted_packet_sequence_id` 1). Event names, categories and
/// annotation names are interned: the first packet that uses a string carries it in
/// `interned_data`, later ones refer to it by id, which keeps a ten-million-event export small.
/// Packets are written as records come, each framed as field 1 of `Trace`, so the file is a
/// valid `Trace` message at every packet boundary and memory stays constant.
public struct PerfettoTraceWriter: TimelineRecordWriter {
    private static let sequenceID: UInt64 = 1

    private let output: ExportOutputFile
    private var packet = ProtobufEncoder(capacity: 512)
    private var event = ProtobufEncoder(capacity: 256)
    private var nested = ProtobufEncoder(capacity: 128)
    private var entry = ProtobufEncoder(capacity: 64)
    private var interned = ProtobufEncoder(capacity: 256)
    private var frame = ProtobufEncoder(capacity: 16)
    private var internedNames: [Bool] = []
    private var internedKeys: [Bool] = []
    private var internedCategories = [Bool](repeating: false, count: TimelineCategory.allCases.count)
    private var firstPacket = true
    private var processPID: Int64 = 1
    private var metadata = TraceMetadata()
    /// How many packets were written.
    public private(set) var packetCount = 0

    /// A writer to `output`, which it commits in ``finish()``.
    public init(output: ExportOutputFile) {
        self.output = output
    }

    /// Remembers the metadata; it is written with the process track.
    public mutating func start(metadata: TraceMetadata) throws(ExportError) {
        self.metadata = metadata
    }

    /// Writes a `TrackDescriptor` packet.
    public mutating func declare(_ track: TimelineTrack) throws(ExportError) {
        typealias Field = PerfettoField.TrackDescriptor
        event.reset()
        event.appendUInt(Field.uuid, Self.uuid(track.index))
        event.appendString(Field.name, track.name)
        switch track.kind {
        case .process(let pid):
            nested.reset()
            nested.appendInt(PerfettoField.ProcessDescriptor.pid, pid)
            nested.appendString(PerfettoField.ProcessDescriptor.processName, metadata["app"] ?? track.name)
            event.appendMessage(Field.process, nested)
            event.appendUInt(Field.childOrdering, Field.explicitOrdering)
            if !metadata.isEmpty {
                event.appendString(Field.description, metadata.fields.map { "\($0.key): \($0.value)" }.joined(separator: "\n"))
            }
        case .thread(_, let tid):
            nested.reset()
            nested.appendInt(PerfettoField.ThreadDescriptor.pid, processPID)
            nested.appendInt(PerfettoField.ThreadDescriptor.tid, Int64(Int32(truncatingIfNeeded: tid)))
            nested.appendString(PerfettoField.ThreadDescriptor.threadName, track.name)
            event.appendMessage(Field.thread, nested)
            event.appendInt(Field.siblingOrderRank, Int64(track.index))
        case .lane(let parent):
            event.appendUInt(Field.parentUUID, Self.uuid(parent))
            event.appendInt(Field.siblingOrderRank, Int64(track.index))
        }
        if case .process(let pid) = track.kind { processPID = pid }
        packet.reset()
        packet.appendUInt(PerfettoField.TracePacket.trustedPacketSequenceID, Self.sequenceID)
        if firstPacket {
            packet.appendUInt(PerfettoField.TracePacket.sequenceFlags, PerfettoField.TracePacket.incrementalStateCleared)
            firstPacket = false
        }
        packet.appendMessage(PerfettoField.TracePacket.trackDescriptor, event)
        try writePacket()
    }

    /// Writes one `TrackEvent` packet, or two (begin and end) for a complete slice.
    public mutating func write(_ record: TimelineRecord, names: SymbolTable) throws(ExportError) {
        switch record.phase {
        case .begin:
            try writeEvent(record, type: PerfettoField.TrackEvent.sliceBegin, at: record.timestamp, names: names)
        case .end:
            try writeEvent(record, type: PerfettoField.TrackEvent.sliceEnd, at: record.timestamp, names: names)
        case .instant:
            try writeEvent(record, type: PerfettoField.TrackEvent.instant, at: record.timestamp, names: names)
        case .complete(let duration):
            try writeEvent(record, type: PerfettoField.TrackEvent.sliceBegin, at: record.timestamp, names: names)
            var end = TimelineRecord(.end, track: record.track, at: record.timestamp &+ duration, category: record.category)
            end.name = .none
            try writeEvent(end, type: PerfettoField.TrackEvent.sliceEnd, at: end.timestamp, names: names)
        }
    }

    /// The stack samples to write at the end (``PerfettoSamples``), set before ``finish()``.
    var samples: (stacks: SampledStacks, names: TraceSymbolNames)?

    /// Writes the stack samples, if any, and commits the file.
    public mutating func finish() throws(ExportError) {
        if let samples {
            let output = output
            var frame = frame
            var written = 0
            try PerfettoSamples.write(samples.stacks, names: samples.names, pid: processPID) { parts, length throws(ExportError) in
                frame.reset()
                frame.appendTag(PerfettoField.Trace.packet, .lengthDelimited)
                frame.appendVarint(UInt64(length))
                try output.write(frame.bytes)
                for part in parts { try output.write(part.bytes) }
                written += 1
            }
            packetCount += written
        }
        try output.commit()
    }

    // MARK: - Encoding

    private mutating func writeEvent(
        _ record: TimelineRecord, type: UInt64, at timestamp: Int64, names: SymbolTable
    ) throws(ExportError) {
        typealias Field = PerfettoField.TrackEvent
        interned.reset()
        event.reset()
        event.appendUInt(Field.type, type)
        event.appendUInt(Field.trackUUID, Self.uuid(record.track))
        if type != Field.sliceEnd {
            let category = Int(record.category.rawValue)
            if !internedCategories[category] {
                internedCategories[category] = true
                internEntry(PerfettoField.InternedData.eventCategories, iid: UInt64(category + 1), record.category.name)
            }
            event.appendUInt(Field.categoryIIDs, UInt64(category + 1))
            if !record.name.isNone {
                if Self.firstUse(record.name, in: &internedNames) {
                    internEntry(PerfettoField.InternedData.eventNames, iid: UInt64(record.name.rawValue), names[record.name])
                }
                event.appendUInt(Field.nameIID, UInt64(record.name.rawValue))
            }
            for index in 0..<record.args.count {
                appendAnnotation(record.args[index], names: names)
            }
        }
        packet.reset()
        packet.appendUInt(PerfettoField.TracePacket.timestamp, UInt64(max(0, timestamp)))
        packet.appendUInt(PerfettoField.TracePacket.trustedPacketSequenceID, Self.sequenceID)
        if interned.count > 0 { packet.appendMessage(PerfettoField.TracePacket.internedData, interned) }
        packet.appendUInt(PerfettoField.TracePacket.sequenceFlags, PerfettoField.TracePacket.needsIncrementalState)
        packet.appendMessage(PerfettoField.TracePacket.trackEvent, event)
        try writePacket()
    }

    private mutating func appendAnnotation(_ arg: TimelineArg, names: SymbolTable) {
        typealias Field = PerfettoField.DebugAnnotation
        if Self.firstUse(arg.key, in: &internedKeys) {
            internEntry(PerfettoField.InternedData.debugAnnotationNames, iid: UInt64(arg.key.rawValue), names[arg.key])
        }
        nested.reset()
        nested.appendUInt(Field.nameIID, UInt64(arg.key.rawValue))
        switch arg.value {
        case .int(let value): nested.appendInt(Field.intValue, value)
        case .name(let symbol): nested.appendString(Field.stringValue, names[symbol])
        case .text(let text): nested.appendString(Field.stringValue, text)
        }
        event.appendMessage(PerfettoField.TrackEvent.debugAnnotations, nested)
    }

    /// Adds an entry (`iid`, `name`) to the packet's `interned_data`.
    private mutating func internEntry(_ field: UInt32, iid: UInt64, _ name: String) {
        entry.reset()
        entry.appendUInt(PerfettoField.InternedData.iid, iid)
        entry.appendString(PerfettoField.InternedData.name, name)
        interned.appendMessage(field, entry)
    }

    /// Whether `symbol` is used for the first time, marking it as used.
    private static func firstUse(_ symbol: Symbol, in used: inout [Bool]) -> Bool {
        let index = Int(symbol.rawValue)
        if index >= used.count { used.append(contentsOf: repeatElement(false, count: index + 1 - used.count)) }
        if used[index] { return false }
        used[index] = true
        return true
    }

    /// Frames the packet as `Trace.packet` and writes it.
    private mutating func writePacket() throws(ExportError) {
        frame.reset()
        frame.appendTag(PerfettoField.Trace.packet, .lengthDelimited)
        frame.appendVarint(UInt64(packet.count))
        try output.write(frame.bytes)
        try output.write(packet.bytes)
        packetCount += 1
    }

    /// The track's uuid: 0 is Perfetto's implicit global track, so indices start at 1.
    private static func uuid(_ index: Int) -> UInt64 { UInt64(index) + 1 }
}
