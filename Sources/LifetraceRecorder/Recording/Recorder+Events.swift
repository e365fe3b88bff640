import LifetraceFormat

extension Recorder {
    /// A delegate callback starts (`scene` for a scene-delegate callback).
    @inline(__always)
    public func callbackBegin(_ name: RecordedName, scene: RecordedName = .none) {
        record(.callbackBegin, name: name.rawValue, scene: scene.rawValue)
    }

    /// A delegate callback returns.
    @inline(__always)
    public func callbackEnd(_ name: RecordedName, scene: RecordedName = .none) {
        record(.callbackEnd, name: name.rawValue, scene: scene.rawValue)
    }

    /// The calling thread's run loop starts processing.
    @inline(__always)
    public func runloopWake() { record(.runloopWake) }

    /// The calling thread's run loop goes back to waiting.
    @inline(__always)
    public func runloopSleep() { record(.runloopSleep) }

    /// An app-defined interval starts; `id` tells overlapping intervals of one name apart.
    @inline(__always)
    public func signpostBegin(_ name: RecordedName, id: Int64? = nil) {
        record(.signpostBegin, name: name.rawValue, value: id ?? 0, flags: id == nil ? 0 : SlotFlags.hasValue)
    }

    /// An app-defined interval ends.
    @inline(__always)
    public func signpostEnd(_ name: RecordedName, id: Int64? = nil) {
        record(.signpostEnd, name: name.rawValue, value: id ?? 0, flags: id == nil ? 0 : SlotFlags.hasValue)
    }

    /// Starts an interval named `name`; call ``SignpostInterval/end()`` on the same thread.
    @inline(__always)
    public func begin(_ name: StaticString, id: Int64? = nil) -> SignpostInterval {
        let recorded = self.name(name)
        signpostBegin(recorded, id: id)
        return SignpostInterval(recorder: self, name: recorded, id: id)
    }

    /// Starts an interval with an interned name; call ``SignpostInterval/end()`` on the same thread.
    @inline(__always)
    public func begin(_ name: RecordedName, id: Int64? = nil) -> SignpostInterval {
        signpostBegin(name, id: id)
        return SignpostInterval(recorder: self, name: name, id: id)
    }

    /// Runs `work` inside an interval named `name`.
    @inline(__always)
    public func interval<Result, Failure: Error>(
        _ name: StaticString, _ work: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let interval = begin(name)
        defer { interval.end() }
        return try work()
    }

    /// An app-defined instant.
    @inline(__always)
    public func mark(_ name: RecordedName) { record(.mark, name: name.rawValue) }

    /// An app-defined instant.
    @inline(__always)
    public func mark(_ name: StaticString) { record(.mark, name: self.name(name).rawValue) }

    /// A frame was presented; `first` when the app knows it is (or is not) the first frame.
    @inline(__always)
    public func frame(first: Bool? = nil) {
        record(.frame, value: first == true ? 1 : 0, flags: first == nil ? 0 : SlotFlags.hasValue)
    }

    /// A background task assertion was taken.
    @inline(__always)
    public func backgroundTaskBegin(id: Int64, name: RecordedName) {
        record(.bgtaskBegin, name: name.rawValue, value: id, flags: SlotFlags.hasValue)
    }

    /// A background task assertion was released.
    @inline(__always)
    public func backgroundTaskEnd(id: Int64, name: RecordedName) {
        record(.bgtaskEnd, name: name.rawValue, value: id, flags: SlotFlags.hasValue)
    }

    /// The system expired a background task (its expiration handler is about to run).
    @inline(__always)
    public func backgroundTaskExpire(id: Int64, name: RecordedName) {
        record(.bgtaskExpire, name: name.rawValue, value: id, flags: SlotFlags.hasValue)
    }
}
