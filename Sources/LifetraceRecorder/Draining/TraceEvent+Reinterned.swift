import LifetraceFormat

extension TraceEvent {
    /// The same event with its symbols moved from `source` to `target`.
    public func reinterned(from source: SymbolTable, into target: inout SymbolTable) -> TraceEvent {
        func move(_ symbol: Symbol) -> Symbol {
            guard let string = source.string(symbol) else { return .none }
            return target.intern(string)
        }
        var copy = self
        switch payload {
        case .launch(let reason, let background, let prewarm, let pid):
            copy.payload = .launch(reason: move(reason), background: background, prewarm: prewarm, pid: pid)
        case .state(let to, let scene):
            copy.payload = .state(to: to, scene: move(scene))
        case .callbackBegin(let name, let scene):
            copy.payload = .callbackBegin(name: move(name), scene: move(scene))
        case .callbackEnd(let name, let scene):
            copy.payload = .callbackEnd(name: move(name), scene: move(scene))
        case .signpostBegin(let name, let id):
            copy.payload = .signpostBegin(name: move(name), id: id)
        case .signpostEnd(let name, let id):
            copy.payload = .signpostEnd(name: move(name), id: id)
        case .mark(let name):
            copy.payload = .mark(name: move(name))
        case .bgtaskBegin(let id, let name):
            copy.payload = .bgtaskBegin(id: id, name: move(name))
        case .bgtaskEnd(let id, let name):
            copy.payload = .bgtaskEnd(id: id, name: move(name))
        case .bgtaskExpire(let id, let name):
            copy.payload = .bgtaskExpire(id: id, name: move(name))
        case .runloopWake, .runloopSleep, .frame, .exit, .dropped:
            break
        }
        return copy
    }
}
