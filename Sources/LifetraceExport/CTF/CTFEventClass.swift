import LifetraceFormat

/// The CTF event classes of the export: one per Lifetrace event type (same id as the binary
/// format's type code, same name as the text form's `type`), and six for what the analysis
/// derived: its findings and its intervals. Their fields are declared in the TSDL metadata from this table, and
/// ``CTFTraceWriter`` encodes them in the same order.
struct CTFEventClass {
    /// A field: its TSDL type name and its name.
    struct Field {
        var type: String
        var name: String
    }

    /// The event class id, written in each event header.
    var id: UInt8
    /// The name babeltrace2 prints.
    var name: String
    /// The payload fields, in encoding order.
    var fields: [Field]

    /// The id of the `violation` class.
    static let violationID: UInt8 = 0x10
    /// The id of the `stall` class.
    static let stallID: UInt8 = 0x11
    /// The id of the `launch.window` class.
    static let launchWindowID: UInt8 = 0x12
    /// The id of the `interval` class: a callback, signpost or background task the analyzer
    /// followed, written when it ends.
    static let intervalID: UInt8 = 0x13
    /// The id of the `busy` class: a main-thread busy interval, written when it ends.
    static let busyID: UInt8 = 0x14
    /// The id of the `state.span` class: a stretch of one view in one state, written when it ends.
    static let stateID: UInt8 = 0x15

    /// Every class, trace event types first.
    static let all: [CTFEventClass] = EventType.allCases.map { type in
        CTFEventClass(id: type.rawValue, name: type.name, fields: fields(of: type))
    } + [
        CTFEventClass(id: violationID, name: "violation", fields: [
            Field(type: "string", name: "rule"), Field(type: "severity_t", name: "severity"),
            Field(type: "string", name: "message"), Field(type: "int64_t", name: "ts"),
            Field(type: "uint64_t", name: "lifetime"),
        ]),
        CTFEventClass(id: stallID, name: "stall", fields: [
            Field(type: "int64_t", name: "start"), Field(type: "int64_t", name: "duration"),
            Field(type: "uint8_t", name: "unfinished"), Field(type: "string", name: "blame"),
            Field(type: "uint64_t", name: "lifetime"), Field(type: "string", name: "stack_samples"),
        ]),
        CTFEventClass(id: launchWindowID, name: "launch.window", fields: [
            Field(type: "launch_kind_t", name: "kind"), Field(type: "int64_t", name: "start"),
            Field(type: "uint8_t", name: "finished"), Field(type: "int64_t", name: "duration"),
            Field(type: "window_end_t", name: "window_end"), Field(type: "int64_t", name: "busy_in_window"),
            Field(type: "uint64_t", name: "lifetime"), Field(type: "int64_t", name: "end"),
        ]),
        CTFEventClass(id: intervalID, name: "interval", fields: [
            Field(type: "interval_kind_t", name: "kind"), Field(type: "string", name: "name"),
            Field(type: "string", name: "scene"), Field(type: "uint8_t", name: "has_id"),
            Field(type: "int64_t", name: "id"), Field(type: "uint64_t", name: "depth"),
            Field(type: "int64_t", name: "start"), Field(type: "int64_t", name: "end"),
            Field(type: "interval_ending_t", name: "ending"),
        ]),
        CTFEventClass(id: busyID, name: "busy", fields: [
            Field(type: "int64_t", name: "start"), Field(type: "int64_t", name: "end"),
        ]),
        CTFEventClass(id: stateID, name: "state.span", fields: [
            Field(type: "view_t", name: "view"), Field(type: "string", name: "scene"),
            Field(type: "string", name: "state"), Field(type: "int64_t", name: "start"),
            Field(type: "int64_t", name: "end"),
        ]),
    ]

    /// The fields of a trace event type; optional values come with a `has_` flag before them.
    private static func fields(of type: EventType) -> [Field] {
        switch type {
        case .launch:
            [
                Field(type: "string", name: "reason"), Field(type: "uint8_t", name: "background"),
                Field(type: "uint8_t", name: "prewarm"), Field(type: "uint8_t", name: "has_pid"),
                Field(type: "int64_t", name: "pid"),
            ]
        case .state:
            [Field(type: "lifecycle_state_t", name: "to"), Field(type: "string", name: "scene")]
        case .callbackBegin, .callbackEnd:
            [Field(type: "string", name: "name"), Field(type: "string", name: "scene")]
        case .runloopWake, .runloopSleep:
            []
        case .signpostBegin, .signpostEnd:
            [
                Field(type: "string", name: "name"), Field(type: "uint8_t", name: "has_id"),
                Field(type: "int64_t", name: "id"),
            ]
        case .mark:
            [Field(type: "string", name: "name")]
        case .frame:
            [Field(type: "frame_first_t", name: "first")]
        case .bgtaskBegin, .bgtaskEnd, .bgtaskExpire:
            [Field(type: "int64_t", name: "id"), Field(type: "string", name: "name")]
        case .exit:
            [
                Field(type: "uint8_t", name: "has_code"), Field(type: "int32_t", name: "code"),
                Field(type: "uint8_t", name: "has_signal"), Field(type: "int32_t", name: "signal"),
            ]
        case .dropped:
            [Field(type: "int64_t", name: "count")]
        }
    }
}
