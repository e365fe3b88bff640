/// The byte layout of event records (see `docs/FORMAT.md`, "Event records").
extension ChunkEncoder {
    /// Writes `event`'s record, without its timestamp delta (which goes to the delta section), at
    /// `pointer`, which has room for ``EventRecord/maxEventLength`` bytes; returns its size.
    @inline(__always)
    static func encode(
        _ event: TraceEvent, negative: Bool, first: UInt32, second: UInt32, at pointer: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var tag = event.payload.type.rawValue
        if !event.thread.isMain { tag |= EventRecord.threadFlag }
        if negative { tag |= EventRecord.negativeDeltaFlag }
        pointer[0] = tag
        var count = 1
        if !event.thread.isMain { count += Varint.write(event.thread.rawValue, to: pointer + count) }
        switch event.payload {
        case .launch(_, let background, let prewarm, let pid):
            var flags: UInt8 = 0
            if background { flags |= EventRecord.launchBackground }
            if prewarm { flags |= EventRecord.launchPrewarm }
            if pid != nil { flags |= EventRecord.launchPID }
            pointer[count] = flags
            count += 1
            count += Varint.write(UInt64(first), to: pointer + count)
            if let pid { count += Varint.write(Varint.zigzag(pid), to: pointer + count) }
        case .state(let to, _):
            pointer[count] = to.rawValue
            count += 1
            count += Varint.write(UInt64(first), to: pointer + count)
        case .callbackBegin, .callbackEnd:
            count += Varint.write(UInt64(first), to: pointer + count)
            count += Varint.write(UInt64(second), to: pointer + count)
        case .runloopWake, .runloopSleep:
            break
        case .signpostBegin(_, let id), .signpostEnd(_, let id):
            count += Varint.write(UInt64(first), to: pointer + count)
            if let id {
                pointer[count] = 1
                count += 1
                count += Varint.write(Varint.zigzag(id), to: pointer + count)
            } else {
                pointer[count] = 0
                count += 1
            }
        case .mark:
            count += Varint.write(UInt64(first), to: pointer + count)
        case .frame(let isFirst):
            pointer[count] = isFirst.map { $0 ? 2 : 1 } ?? 0
            count += 1
        case .bgtaskBegin(let id, _), .bgtaskEnd(let id, _), .bgtaskExpire(let id, _):
            count += Varint.write(Varint.zigzag(id), to: pointer + count)
            count += Varint.write(UInt64(first), to: pointer + count)
        case .exit(let code, let signal):
            var flags: UInt8 = 0
            if code != nil { flags |= EventRecord.exitCode }
            if signal != nil { flags |= EventRecord.exitSignal }
            pointer[count] = flags
            count += 1
            if let code { count += Varint.write(Varint.zigzag(Int64(code)), to: pointer + count) }
            if let signal { count += Varint.write(Varint.zigzag(Int64(signal)), to: pointer + count) }
        case .dropped(let dropped):
            count += Varint.write(Varint.zigzag(dropped), to: pointer + count)
        }
        return count
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
