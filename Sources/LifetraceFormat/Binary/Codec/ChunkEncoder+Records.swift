/// The byte layout of event records (see `docs/FORMAT.md`, "Event records").
extension ChunkEncoder {
    /// Writes `event`'s record, without its timestamp delta (which goes to the delta section),
    /// after the structure bytes written so far; returns its size, or 0 when a string it names
    /// has no chunk-local index yet (the bytes written are then to be overwritten).
    ///
    /// One switch over the payload finds the type code, the strings and the fields together;
    /// the buffer has room for ``EventRecord/maxEventLength`` more bytes (see ``append(_:symbols:)``).
    @inline(__always)
    func writeRecord(_ event: TraceEvent, negative: Bool) -> Int {
        let pointer = structureBase + structureCount
        var tag: UInt8 = negative ? EventRecord.negativeDeltaFlag : 0
        var count = 1
        if !event.thread.isMain {
            tag |= EventRecord.threadFlag
            count &+= Varint.write(event.thread.rawValue, to: pointer + count)
        }
        // The local indexes written, OR-ed together: an undefined one sets `undefined`.
        var indexes: UInt32 = 0
        switch event.payload {
        case .launch(let reason, let background, let prewarm, let pid):
            tag |= EventType.launch.rawValue
            var flags: UInt8 = 0
            if background { flags |= EventRecord.launchBackground }
            if prewarm { flags |= EventRecord.launchPrewarm }
            if pid != nil { flags |= EventRecord.launchPID }
            pointer[count] = flags
            count &+= 1
            indexes = localIndex(of: reason)
            count &+= Varint.write(UInt64(indexes), to: pointer + count)
            if let pid { count &+= Varint.write(Varint.zigzag(pid), to: pointer + count) }
        case .state(let to, let scene):
            tag |= EventType.state.rawValue
            pointer[count] = to.rawValue
            count &+= 1
            indexes = localIndex(of: scene)
            count &+= Varint.write(UInt64(indexes), to: pointer + count)
        case .callbackBegin(let name, let scene):
            tag |= EventType.callbackBegin.rawValue
            count &+= writeStrings(name, scene, at: pointer + count, indexes: &indexes)
        case .callbackEnd(let name, let scene):
            tag |= EventType.callbackEnd.rawValue
            count &+= writeStrings(name, scene, at: pointer + count, indexes: &indexes)
        case .runloopWake:
            tag |= EventType.runloopWake.rawValue
        case .runloopSleep:
            tag |= EventType.runloopSleep.rawValue
        case .signpostBegin(let name, let id):
            tag |= EventType.signpostBegin.rawValue
            count &+= writeSignpost(name, id, at: pointer + count, indexes: &indexes)
        case .signpostEnd(let name, let id):
            tag |= EventType.signpostEnd.rawValue
            count &+= writeSignpost(name, id, at: pointer + count, indexes: &indexes)
        case .mark(let name):
            tag |= EventType.mark.rawValue
            indexes = localIndex(of: name)
            count &+= Varint.write(UInt64(indexes), to: pointer + count)
        case .frame(let isFirst):
            tag |= EventType.frame.rawValue
            pointer[count] = isFirst.map { $0 ? 2 : 1 } ?? 0
            count &+= 1
        case .bgtaskBegin(let id, let name):
            tag |= EventType.bgtaskBegin.rawValue
            count &+= writeBackgroundTask(id, name, at: pointer + count, indexes: &indexes)
        case .bgtaskEnd(let id, let name):
            tag |= EventType.bgtaskEnd.rawValue
            count &+= writeBackgroundTask(id, name, at: pointer + count, indexes: &indexes)
        case .bgtaskExpire(let id, let name):
            tag |= EventType.bgtaskExpire.rawValue
            count &+= writeBackgroundTask(id, name, at: pointer + count, indexes: &indexes)
        case .exit(let code, let signal):
            tag |= EventType.exit.rawValue
            var flags: UInt8 = 0
            if code != nil { flags |= EventRecord.exitCode }
            if signal != nil { flags |= EventRecord.exitSignal }
            pointer[count] = flags
            count &+= 1
            if let code { count &+= Varint.write(Varint.zigzag(Int64(code)), to: pointer + count) }
            if let signal { count &+= Varint.write(Varint.zigzag(Int64(signal)), to: pointer + count) }
        case .dropped(let dropped):
            tag |= EventType.dropped.rawValue
            count &+= Varint.write(Varint.zigzag(dropped), to: pointer + count)
        }
        pointer[0] = tag
        return indexes & ChunkEncoder.undefined == 0 ? count : 0
    }

    // A callback's name and scene.
    @inline(__always)
    private func writeStrings(
        _ name: Symbol, _ scene: Symbol, at pointer: UnsafeMutablePointer<UInt8>, indexes: inout UInt32
    ) -> Int {
        let first = localIndex(of: name)
        let second = localIndex(of: scene)
        indexes = first | second
        let count = Varint.write(UInt64(first), to: pointer)
        return count + Varint.write(UInt64(second), to: pointer + count)
    }

    // A signpost's name and optional id.
    @inline(__always)
    private func writeSignpost(
        _ name: Symbol, _ id: Int64?, at pointer: UnsafeMutablePointer<UInt8>, indexes: inout UInt32
    ) -> Int {
        indexes = localIndex(of: name)
        var count = Varint.write(UInt64(indexes), to: pointer)
        if let id {
            pointer[count] = 1
            count &+= 1
            count &+= Varint.write(Varint.zigzag(id), to: pointer + count)
        } else {
            pointer[count] = 0
            count &+= 1
        }
        return count
    }

    // A background task's id and name.
    @inline(__always)
    private func writeBackgroundTask(
        _ id: Int64, _ name: Symbol, at pointer: UnsafeMutablePointer<UInt8>, indexes: inout UInt32
    ) -> Int {
        indexes = localIndex(of: name)
        let count = Varint.write(Varint.zigzag(id), to: pointer)
        return count + Varint.write(UInt64(indexes), to: pointer + count)
    }
}

extension EventPayload {
    /// The payload's strings in record order (the name or reason first, then the scene or none).
    @inline(__always)
    var symbols: (Symbol, Symbol) {
        switch self {
        case .launch(let reason, _, _, _): (reason, .none)
        case .state(_, let scene): (scene, .none)
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene): (name, scene)
        case .signpostBegin(let name, _), .signpostEnd(let name, _), .mark(let name): (name, .none)
        case .bgtaskBegin(_, let name), .bgtaskEnd(_, let name), .bgtaskExpire(_, let name): (name, .none)
        case .runloopWake, .runloopSleep, .frame, .exit, .dropped: (.none, .none)
        }
    }
}
