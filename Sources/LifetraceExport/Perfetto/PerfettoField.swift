/// The field numbers of the Perfetto trace protos that the export writes, as declared in
/// google/perfetto's `protos/perfetto/trace/` (the numbers are part of Perfetto's stable wire
/// format and never change).
enum PerfettoField {
    /// `trace.proto`: `message Trace`.
    enum Trace {
        /// `repeated TracePacket packet = 1`.
        static let packet: UInt32 = 1
    }

    /// `trace_packet.proto`: `message TracePacket`.
    enum TracePacket {
        /// `optional uint64 timestamp = 8` (ns, BOOTTIME by default).
        static let timestamp: UInt32 = 8
        /// `uint32 trusted_packet_sequence_id = 10`.
        static let trustedPacketSequenceID: UInt32 = 10
        /// `TrackEvent track_event = 11`.
        static let trackEvent: UInt32 = 11
        /// `optional InternedData interned_data = 12`.
        static let internedData: UInt32 = 12
        /// `optional uint32 sequence_flags = 13`.
        static let sequenceFlags: UInt32 = 13
        /// `TrackDescriptor track_descriptor = 60`.
        static let trackDescriptor: UInt32 = 60
        /// `SequenceFlags.SEQ_INCREMENTAL_STATE_CLEARED`.
        static let incrementalStateCleared: UInt64 = 1
        /// `SequenceFlags.SEQ_NEEDS_INCREMENTAL_STATE`.
        static let needsIncrementalState: UInt64 = 2
    }

    /// `track_event/track_descriptor.proto`: `message TrackDescriptor`.
    enum TrackDescriptor {
        /// `optional uint64 uuid = 1`.
        static let uuid: UInt32 = 1
        /// `optional string name = 2`.
        static let name: UInt32 = 2
        /// `optional ProcessDescriptor process = 3`.
        static let process: UInt32 = 3
        /// `optional ThreadDescriptor thread = 4`.
        static let thread: UInt32 = 4
        /// `optional uint64 parent_uuid = 5`.
        static let parentUUID: UInt32 = 5
        /// `optional ChildTracksOrdering child_ordering = 11`.
        static let childOrdering: UInt32 = 11
        /// `optional int32 sibling_order_rank = 12`.
        static let siblingOrderRank: UInt32 = 12
        /// `optional string description = 14`.
        static let description: UInt32 = 14
        /// `ChildTracksOrdering.EXPLICIT`: children sorted by `sibling_order_rank`.
        static let explicitOrdering: UInt64 = 3
    }

    /// `track_event/process_descriptor.proto`: `message ProcessDescriptor`.
    enum ProcessDescriptor {
        /// `optional int32 pid = 1`.
        static let pid: UInt32 = 1
        /// `optional string process_name = 6`.
        static let processName: UInt32 = 6
    }

    /// `track_event/thread_descriptor.proto`: `message ThreadDescriptor`.
    enum ThreadDescriptor {
        /// `optional int32 pid = 1`.
        static let pid: UInt32 = 1
        /// `optional int32 tid = 2`.
        static let tid: UInt32 = 2
        /// `optional string thread_name = 5`.
        static let threadName: UInt32 = 5
    }

    /// `track_event/track_event.proto`: `message TrackEvent`.
    enum TrackEvent {
        /// `repeated uint64 category_iids = 3`.
        static let categoryIIDs: UInt32 = 3
        /// `repeated DebugAnnotation debug_annotations = 4`.
        static let debugAnnotations: UInt32 = 4
        /// `optional Type type = 9`.
        static let type: UInt32 = 9
        /// `uint64 name_iid = 10`.
        static let nameIID: UInt32 = 10
        /// `optional uint64 track_uuid = 11`.
        static let trackUUID: UInt32 = 11
        /// `Type.TYPE_SLICE_BEGIN`.
        static let sliceBegin: UInt64 = 1
        /// `Type.TYPE_SLICE_END`.
        static let sliceEnd: UInt64 = 2
        /// `Type.TYPE_INSTANT`.
        static let instant: UInt64 = 3
    }

    /// `track_event/debug_annotation.proto`: `message DebugAnnotation`.
    enum DebugAnnotation {
        /// `uint64 name_iid = 1` (interned `DebugAnnotationName`).
        static let nameIID: UInt32 = 1
        /// `int64 int_value = 4`.
        static let intValue: UInt32 = 4
        /// `string string_value = 6`.
        static let stringValue: UInt32 = 6
    }

    /// `interned_data/interned_data.proto`: `message InternedData`; each entry is an
    /// `EventCategory`, `EventName` or `DebugAnnotationName` with `iid = 1` and `name = 2`.
    enum InternedData {
        /// `repeated EventCategory event_categories = 1`.
        static let eventCategories: UInt32 = 1
        /// `repeated EventName event_names = 2`.
        static let eventNames: UInt32 = 2
        /// `repeated DebugAnnotationName debug_annotation_names = 3`.
        static let debugAnnotationNames: UInt32 = 3
        /// `optional uint64 iid = 1` of an entry.
        static let iid: UInt32 = 1
        /// `optional string name = 2` of an entry.
        static let name: UInt32 = 2
    }
}
