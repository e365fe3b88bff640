import LifetraceFormat

/// The App Launch template's life-cycle-period table as lifetrace events, one row at a time.
///
/// Columns read (by mnemonic): `start` (start-time), `duration`, `process`, `period`
/// (app-period). Process Creation starts the lifetime (`launch`, with the process ID); a phase
/// named like a method (`didFinishLaunchingWithOptions()`) is that callback's begin and end, on
/// the main thread; Initial Frame Rendering is a signpost interval and the first `frame` at its
/// end; a Foreground or Background period is a `state` at its start and a signpost interval named
/// after the whole period (`Foreground - Active`); every other phase is a signpost interval named
/// after it. See docs/INSTRUMENTS.md.
enum LifeCyclePeriodRows {
    /// The scene that scene-delegate callbacks are given: Instruments does not name scenes.
    static let sceneName = "main"

    /// Adds the events of `row` to `log`.
    static func append(_ row: XctraceRow, to log: XctraceEventLog, file: String) throws(TraceError) {
        let start = try row.nanoseconds(row.required("start", file: file), file: file)
        var end: Int64?
        if let duration = row.cell("duration") {
            // Both at most 2^60: the sum cannot overflow.
            let sum = start + (try row.nanoseconds(duration, file: file))
            guard TraceTime.contains(sum) else {
                throw row.error(.invalidValue, "the period ends past the trace clock's range (2^60 ns)", file: file)
            }
            end = sum
        }
        let periodText = XctraceRow.text(of: try row.required("period", file: file))
        let period = AppLifeCyclePeriod(periodText)
        let process = row.cell("process")
        let pid = try row.pid(of: process, file: file)
        log.sawRow(of: "life-cycle-period", process: pid, name: XctraceRow.processName(of: process))

        func add(_ payload: EventPayload, at timestamp: Int64) throws(TraceError) {
            try log.append(TraceEvent(timestamp: timestamp, payload: payload), process: pid, row: row, file: file)
        }
        func interval(_ name: String) throws(TraceError) {
            let symbol = log.symbol(name)
            let id = log.nextIntervalID()
            try add(.signpostBegin(name: symbol, id: id), at: start)
            if let end { try add(.signpostEnd(name: symbol, id: id), at: end) }
        }

        switch period {
        case .processCreation:
            try add(.launch(reason: .none, background: false, prewarm: false, pid: pid), at: start)
            try interval("Process Creation")
        case .callback(let name):
            let symbol = log.symbol(name)
            let scene = CallbackName(rawValue: name)?.isSceneCallback == true ? log.symbol(sceneName) : .none
            try add(.callbackBegin(name: symbol, scene: scene), at: start)
            if let end { try add(.callbackEnd(name: symbol, scene: scene), at: end) }
        case .initialFrameRendering:
            try interval("Initial Frame Rendering")
            try add(.frame(first: true), at: end ?? start)
        case .state(let state):
            // The period's end is kept as an interval's: the trace then reaches as far as the
            // recording knows the app's state, not only to the period's start.
            try add(.state(to: state, scene: .none), at: start)
            try interval(periodText)
        case .phase(let name):
            try interval(name)
        }
    }
}
