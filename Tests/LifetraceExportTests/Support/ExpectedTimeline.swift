import LifetraceAnalysis
import LifetraceFormat

extension TraceFacts {
    /// How many busy slices the export should draw: the analyzer's main-thread busy intervals
    /// (from the run loop, or without run-loop events from the outermost main-thread callbacks).
    var expectedBusySlices: Int {
        edges.count { if case .busyEnded = $0 { true } else { false } }
    }

    /// A trace built by hand with special characters in its strings and one of everything:
    /// a cold launch with a scene, a stall, a mark, a signpost with an id on a worker thread,
    /// a background task, suspension and a kill; plus a violation (`didBecomeActive` twice).
    static func handmade(names: (scene: String, mark: String, signpost: String)) -> TraceFacts {
        var symbols = SymbolTable()
        var events: [TraceEvent] = []
        func ms(_ value: Int64) -> Int64 { value * 1_000_000 }
        func add(_ time: Int64, _ payload: EventPayload, thread: ThreadID = .main) {
            events.append(TraceEvent(timestamp: ms(time), payload: payload, thread: thread))
        }
        let scene = symbols.intern(names.scene)
        let callback = { (name: String) in symbols.intern(name) }
        add(1000, .launch(reason: symbols.intern("user"), background: false, prewarm: false, pid: 77))
        add(1010, .runloopWake)
        add(1011, .callbackBegin(name: callback("willFinishLaunching"), scene: .none))
        add(1012, .callbackEnd(name: callback("willFinishLaunching"), scene: .none))
        add(1013, .callbackBegin(name: callback("didFinishLaunching"), scene: .none))
        add(1020, .callbackEnd(name: callback("didFinishLaunching"), scene: .none))
        add(1021, .callbackBegin(name: callback("sceneWillConnect"), scene: scene))
        add(1022, .callbackEnd(name: callback("sceneWillConnect"), scene: scene))
        add(1023, .callbackBegin(name: callback("sceneWillEnterForeground"), scene: scene))
        add(1024, .callbackEnd(name: callback("sceneWillEnterForeground"), scene: scene))
        add(1025, .runloopSleep)
        add(1030, .state(to: .active, scene: .none))
        add(1031, .runloopWake)
        add(1032, .callbackBegin(name: callback("sceneDidBecomeActive"), scene: scene))
        add(1033, .callbackEnd(name: callback("sceneDidBecomeActive"), scene: scene))
        add(1034, .frame(first: true))
        add(1035, .runloopSleep)
        add(1100, .runloopWake)
        add(1101, .mark(name: symbols.intern(names.mark)))
        add(1102, .signpostBegin(name: symbols.intern(names.signpost), id: 9), thread: .numbered(3))
        add(1103, .callbackBegin(name: callback("didBecomeActive"), scene: .none))
        add(1104, .callbackEnd(name: callback("didBecomeActive"), scene: .none))
        add(1105, .callbackBegin(name: callback("didBecomeActive"), scene: .none))
        add(1106, .callbackEnd(name: callback("didBecomeActive"), scene: .none))
        add(1500, .signpostEnd(name: symbols.intern(names.signpost), id: 9), thread: .numbered(3))
        add(1501, .frame(first: nil))
        add(1502, .runloopSleep)
        add(2000, .runloopWake)
        add(2001, .callbackBegin(name: callback("sceneWillResignActive"), scene: scene))
        add(2002, .callbackEnd(name: callback("sceneWillResignActive"), scene: scene))
        add(2003, .callbackBegin(name: callback("sceneDidEnterBackground"), scene: scene))
        add(2004, .bgtaskBegin(id: 5, name: symbols.intern("save")))
        add(2005, .callbackEnd(name: callback("sceneDidEnterBackground"), scene: scene))
        add(2006, .runloopSleep)
        add(2010, .state(to: .inactive, scene: .none))
        add(2011, .state(to: .background, scene: .none))
        add(3000, .bgtaskEnd(id: 5, name: symbols.intern("save")))
        add(3100, .state(to: .suspended, scene: .none))
        add(9000, .exit(code: nil, signal: 9))
        return TraceFacts(
            events: events, symbols: symbols, metadata: TraceMetadata([("app", names.scene), ("os", "iOS 17")]))
    }
}
