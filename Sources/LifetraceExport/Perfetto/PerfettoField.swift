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
        /// `PerfSample perf_sample = 66`.
        static let perfSample: UInt32 = 66
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
        /// `repeated InternedString function_names = 5`.
        static let functionNames: UInt32 = 5
        /// `repeated Frame frames = 6`.
        static let frames: UInt32 = 6
        /// `repeated Callstack callstacks = 7`.
        static let callstacks: UInt32 = 7
        /// `repeated InternedString build_ids = 16`.
        static let buildIDs: UInt32 = 16
        /// `repeated InternedString mapping_paths = 17`.
        static let mappingPaths: UInt32 = 17
        /// `repeated Mapping mappings = 19`.
        static let mappings: UInt32 = 19
    }

    /// `profiling/profile_common.proto`: `message InternedString`.
    enum InternedString {
        /// `optional uint64 iid = 1`.
        static let iid: UInt32 = 1
        /// `optional bytes str = 2`.
        static let str: UInt32 = 2
    }

    /// `profiling/profile_common.proto`: `message Mapping`.
    enum Mapping {
        /// `optional uint64 iid = 1`.
        static let iid: UInt32 = 1
        /// `optional uint64 build_id = 2` (an `InternedString` of `build_ids`).
        static let buildID: UInt32 = 2
        /// `optional uint64 start = 4`.
        static let start: UInt32 = 4
        /// `optional uint64 end = 5`.
        static let end: UInt32 = 5
        /// `repeated uint64 path_string_ids = 7` (`InternedString`s of `mapping_paths`).
        static let pathStringIDs: UInt32 = 7
    }

    /// `profiling/profile_common.proto`: `message Frame`.
    enum Frame {
        /// `optional uint64 iid = 1`.
        static let iid: UInt32 = 1
        /// `optional uint64 function_name_id = 2` (an `InternedString` of `function_names`).
        static let functionNameID: UInt32 = 2
        /// `optional uint64 mapping_id = 3`.
        static let mappingID: UInt32 = 3
        /// `optional uint64 rel_pc = 4`: the address's offset in its mapping.
        static let relPC: UInt32 = 4
    }

    /// `profiling/profile_common.proto`: `message Callstack`.
    enum Callstack {
        /// `optional uint64 iid = 1`.
        static let iid: UInt32 = 1
        /// `repeated uint64 frame_ids = 2`, the outermost frame first.
        static let frameIDs: UInt32 = 2
    }

    /// `profiling/profile_packet.proto`: `message PerfSample`.
    enum PerfSample {
        /// `optional uint32 pid = 2`.
        static let pid: UInt32 = 2
        /// `optional uint32 tid = 3`.
        static let tid: UInt32 = 3
        /// `optional uint64 callstack_iid = 4`.
        static let callstackIID: UInt32 = 4
    }
}
