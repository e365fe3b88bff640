import LifetraceFormat

/// One record read from a region, before its names are turned into a trace's symbols.
public struct DrainedEvent: Hashable, Sendable {
    /// Nanoseconds on the monotonic clock.
    public var timestamp: Int64
    /// The event's type.
    public var type: EventType
    /// The thread that recorded it.
    public var thread: ThreadID
    /// The region's id of the event's name, 0 if none.
    public var name: UInt32
    /// The region's id of the event's scene, 0 if none.
    public var scene: UInt32
    /// The event's id, task id, frame flag or dropped count.
    public var value: Int64
    /// Whether ``value`` is present.
    public var hasValue: Bool

    /// Whether the record's type has a name (its ``name`` id is read).
    var usesName: Bool {
        switch type {
        case .callbackBegin, .callbackEnd, .signpostBegin, .signpostEnd, .mark, .bgtaskBegin, .bgtaskEnd, .bgtaskExpire: true
        case .launch, .state, .runloopWake, .runloopSleep, .frame, .exit, .dropped: false
        }
    }

    /// Whether the record's type has a scene (its ``scene`` id is read).
    var usesScene: Bool {
        switch type {
        case .callbackBegin, .callbackEnd: true
        case .launch, .state, .runloopWake, .runloopSleep, .signpostBegin, .signpostEnd, .mark, .frame, .bgtaskBegin,
            .bgtaskEnd, .bgtaskExpire, .exit, .dropped:
            false
        }
    }

    /// The trace event this record stands for; `symbol` gives the trace's symbol for a region id.
    public func traceEvent(symbol: (UInt32) -> Symbol) -> TraceEvent {
        let payload: EventPayload
        switch type {
        case .callbackBegin: payload = .callbackBegin(name: symbol(name), scene: symbol(scene))
        case .callbackEnd: payload = .callbackEnd(name: symbol(name), scene: symbol(scene))
        case .runloopWake: payload = .runloopWake
        case .runloopSleep: payload = .runloopSleep
        case .signpostBegin: payload = .signpostBegin(name: symbol(name), id: hasValue ? value : nil)
        case .signpostEnd: payload = .signpostEnd(name: symbol(name), id: hasValue ? value : nil)
        case .mark: payload = .mark(name: symbol(name))
        case .frame: payload = .frame(first: hasValue ? value != 0 : nil)
        case .bgtaskBegin: payload = .bgtaskBegin(id: value, name: symbol(name))
        case .bgtaskEnd: payload = .bgtaskEnd(id: value, name: symbol(name))
        case .bgtaskExpire: payload = .bgtaskExpire(id: value, name: symbol(name))
        case .dropped: payload = .dropped(count: value)
        case .launch, .state, .exit:
            // The app never records system events; a corrupt slot is kept visible as a drop of 0.
            payload = .dropped(count: 0)
        }
        return TraceEvent(timestamp: timestamp, payload: payload, stream: .app, thread: thread)
    }
}
