/// The kind of a trace event, as named in the text form (`type`) and coded in the binary form.
///
/// The raw values are the binary type codes of format v1 (see `docs/FORMAT.md`); they never change.
public enum EventType: UInt8, Sendable, CaseIterable, Hashable {
    /// A process lifetime starts.
    case launch = 0x01
    /// The system moved the app, or one of its scenes, to a lifecycle state.
    case state = 0x02
    /// A delegate callback starts.
    case callbackBegin = 0x03
    /// A delegate callback returns.
    case callbackEnd = 0x04
    /// The thread's run loop starts processing.
    case runloopWake = 0x05
    /// The thread's run loop goes back to waiting.
    case runloopSleep = 0x06
    /// An app-defined interval starts.
    case signpostBegin = 0x07
    /// An app-defined interval ends.
    case signpostEnd = 0x08
    /// An app-defined instant.
    case mark = 0x09
    /// A frame was presented.
    case frame = 0x0A
    /// A background task assertion was taken.
    case bgtaskBegin = 0x0B
    /// A background task assertion was released.
    case bgtaskEnd = 0x0C
    /// The system expired a background task.
    case bgtaskExpire = 0x0D
    /// The process ended, as seen from outside.
    case exit = 0x0E
    /// The recorder lost events (its buffer was full); `count` says how many.
    case dropped = 0x0F

    /// The name of the type in the text form.
    public var name: String {
        switch self {
        case .launch: "launch"
        case .state: "state"
        case .callbackBegin: "callback.begin"
        case .callbackEnd: "callback.end"
        case .runloopWake: "runloop.wake"
        case .runloopSleep: "runloop.sleep"
        case .signpostBegin: "signpost.begin"
        case .signpostEnd: "signpost.end"
        case .mark: "mark"
        case .frame: "frame"
        case .bgtaskBegin: "bgtask.begin"
        case .bgtaskEnd: "bgtask.end"
        case .bgtaskExpire: "bgtask.expire"
        case .exit: "exit"
        case .dropped: "dropped"
        }
    }

    /// The type whose text-form name is `name`, or nil.
    public init?(name: String) {
        guard let type = EventType.allCases.first(where: { $0.name == name }) else { return nil }
        self = type
    }

    /// The stream an event of this type is on when the text form does not say.
    public var defaultStream: TraceStream {
        switch self {
        case .launch, .state, .exit: .system
        case .callbackBegin, .callbackEnd, .runloopWake, .runloopSleep, .signpostBegin, .signpostEnd, .mark, .frame,
            .bgtaskBegin, .bgtaskEnd, .bgtaskExpire, .dropped:
            .app
        }
    }
}

/// A stream of events in a trace: who observed them.
public enum TraceStream: UInt8, Sendable, CaseIterable, Hashable {
    /// Events written by the system's side: `launch`, `state`, `exit`.
    case system = 0
    /// Events written from inside the app: callbacks, run loop, signposts, marks, frames, tasks.
    case app = 1

    /// The name of the stream in the text form.
    public var name: String {
        switch self {
        case .system: "system"
        case .app: "app"
        }
    }

    /// The stream named `name` in the text form, or nil.
    public init?(name: String) {
        switch name {
        case "system": self = .system
        case "app": self = .app
        default: return nil
        }
    }
}
