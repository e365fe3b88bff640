import LifetraceAnalysis
import LifetraceFormat

/// The one adapter between the analyzer and the rule engine: each ``RuleNotice`` as the
/// engine's steps. `firstFrameSeen` tells the first frame of a lifetime from the others.
extension RuleNotice {
    func steps(firstFrameSeen: inout Bool, _ take: (RuleStep) -> Void) {
        switch self {
        case .lifetimeBegan(let timestamp):
            firstFrameSeen = false
            take(.lifetimeBegan(at: timestamp))
        case .stateChanged(let state, let event):
            take(.stateChanged(state, by: event))
        case .stall(let start, let duration, let opening):
            take(.occurrence(Occurrence(kind: .stall, timestamp: start, event: opening, duration: duration)))
        case .launchWindowEnded(let timestamp):
            take(.launchWindowEnded(at: timestamp))
        case .lifetimeEnding(let timestamp, let kind):
            take(.lifetimeEnded(at: timestamp, judged: kind != .endOfTrace))
        case .event(let event):
            var occurrence = Occurrence(kind: .mark, timestamp: event.timestamp, event: event, thread: event.thread)
            switch event.payload {
            case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
                occurrence.kind = event.type == .callbackBegin ? .callback : .callbackEnd
                occurrence.name = name
                occurrence.scene = scene
            case .signpostBegin(let name, let id), .signpostEnd(let name, let id):
                occurrence.kind = event.type == .signpostBegin ? .signpost : .signpostEnd
                occurrence.name = name
                occurrence.key = id ?? .min
            case .mark(let name):
                occurrence.name = name
            case .frame:
                occurrence.kind = firstFrameSeen ? .frame : .firstFrame
                firstFrameSeen = true
            case .bgtaskBegin(let id, let name), .bgtaskEnd(let id, let name), .bgtaskExpire(let id, let name):
                occurrence.kind = event.type == .bgtaskBegin ? .bgtaskBegin : event.type == .bgtaskEnd ? .bgtaskEnd : .bgtaskExpire
                occurrence.name = name
                occurrence.key = id
            case .launch:
                occurrence.kind = .launch
            case .exit:
                occurrence.kind = .exit
            case .state, .runloopWake, .runloopSleep, .dropped:
                // The system view's `state` events reach rules as changes of the effective state.
                return
            }
            take(.occurrence(occurrence))
        }
    }
}
