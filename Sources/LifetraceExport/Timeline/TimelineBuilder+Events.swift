import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

extension TimelineBuilder {
    /// Writes the records of one trace event (the analysis's come after, in `reportFindings`).
    mutating func draw(_ event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let time = event.timestamp
        switch event.payload {
        case .launch(let reason, let background, let prewarm, let launchPid):
            var args = TimelineArgs()
            args.append(TimelineName.reason.symbol, name: exported(reason, symbols: symbols))
            args.append(TimelineName.kind.symbol, name: names.intern(LaunchKind(background: background, prewarm: prewarm).rawValue))
            if let launchPid { args.append(TimelineName.pid.symbol, int: launchPid) }
            try instant(lifetimesTrack, at: time, name: names.intern("launch"), category: .lifetime, args: args)
        case .state:
            break
        case .callbackBegin(let name, let scene):
            try callbackBegan(name, scene: scene, event: event, symbols: symbols)
        case .callbackEnd(let name, _):
            try callbackEnded(name, event: event, symbols: symbols)
        case .runloopWake:
            guard event.thread.isMain, !busyOpen else { return }
            busyOpen = true
            try begin(busyTrack, at: time, name: TimelineName.busy.symbol, category: .busy)
        case .runloopSleep:
            guard event.thread.isMain, busyOpen else { return }
            busyOpen = false
            try end(busyTrack, at: time, category: .busy)
        case .signpostBegin(let name, let id):
            try signpostBegan(name, id: id, event: event, symbols: symbols)
        case .signpostEnd(let name, let id):
            try signpostEnded(name, id: id, event: event, symbols: symbols)
        case .mark(let name):
            try instant(try threadTrack(event.thread), at: time, name: exported(name, symbols: symbols), category: .mark)
        case .frame(let first):
            try instant(framesTrack, at: time, name: (first == true ? TimelineName.firstFrame : .frame).symbol, category: .frame)
        case .bgtaskBegin(let id, let name):
            try taskBegan(id, name: name, event: event, symbols: symbols)
        case .bgtaskEnd(let id, _):
            if let lane = tasks.open(key: id) {
                tasks.release(lane)
                try end(tasks.lanes[lane].track, at: time, category: .backgroundTask)
            } else {
                try unmatchedEnd(event, symbols: symbols)
            }
        case .bgtaskExpire(let id, let name):
            let track = tasks.open(key: id).map { tasks.lanes[$0].track } ?? violationsTrack
            var args = TimelineArgs()
            args.append(TimelineName.id.symbol, int: id)
            args.append(TimelineName.task.symbol, name: exported(name, symbols: symbols))
            try instant(track, at: time, name: TimelineName.expire.symbol, category: .backgroundTask, args: args)
        case .exit(let code, let signal):
            var args = TimelineArgs()
            if let code { args.append(TimelineName.code.symbol, int: Int64(code)) }
            if let signal { args.append(TimelineName.signal.symbol, int: Int64(signal)) }
            try instant(lifetimesTrack, at: time, name: TimelineName.exit.symbol, category: .lifetime, args: args)
        case .dropped(let count):
            var args = TimelineArgs()
            args.append(TimelineName.count.symbol, int: count)
            try instant(lifetimesTrack, at: time, name: TimelineName.dropped.symbol, category: .recorder, args: args)
        }
    }

    private mutating func callbackBegan(
        _ name: Symbol, scene: Symbol, event: TraceEvent, symbols: SymbolTable
    ) throws(ExportError) {
        let slot = try slot(event.thread)
        guard threads[slot].callbacks.count < Self.callbackDepthLimit else { return }
        touch(slot)
        threads[slot].callbacks.append(name)
        var args = TimelineArgs()
        args.append(TimelineName.scene.symbol, name: exported(scene, symbols: symbols))
        try begin(threads[slot].track, at: event.timestamp, name: exported(name, symbols: symbols), category: .callback, args: args)
    }

    /// Ends the innermost open callback of that name on the thread, and any left open inside it
    /// (their ends are missing: they close with it so the slices still nest).
    private mutating func callbackEnded(_ name: Symbol, event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let slot = try slot(event.thread)
        guard let depth = threads[slot].callbacks.lastIndex(of: name) else {
            try unmatchedEnd(event, symbols: symbols)
            return
        }
        for _ in depth..<threads[slot].callbacks.count {
            try end(threads[slot].track, at: event.timestamp, category: .callback)
        }
        threads[slot].callbacks.removeSubrange(depth...)
    }

    /// A signpost opens on the lowest free signpost lane of its thread (lanes shown under the
    /// thread), so that signposts that overlap without nesting still draw.
    private mutating func signpostBegan(_ name: Symbol, id: Int64?, event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let slot = try slot(event.thread)
        touch(slot)
        let lane: Int
        if let free = threads[slot].signposts.free {
            lane = free
        } else {
            let title = "\(Self.name(of: event.thread)) signposts \(threads[slot].signposts.lanes.count + 1)"
            let track = try declare(.lane(parent: threads[slot].track), name: title)
            lane = threads[slot].signposts.add(track: track)
        }
        threads[slot].signposts.take(lane, thread: event.thread, name: name, key: id ?? .min)
        var args = TimelineArgs()
        if let id { args.append(TimelineName.id.symbol, int: id) }
        try begin(
            threads[slot].signposts.lanes[lane].track, at: event.timestamp, name: exported(name, symbols: symbols),
            category: .signpost, args: args)
    }

    /// A signpost closes on its thread's lane, or, for one with an id that ends on another
    /// thread, on the lane of the thread it began on.
    private mutating func signpostEnded(_ name: Symbol, id: Int64?, event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let key = id ?? .min
        let own = try slot(event.thread)
        var found: (slot: Int, lane: Int)?
        if let lane = threads[own].signposts.open(name: name, key: key, thread: event.thread) {
            found = (own, lane)
        } else if id != nil {
            for slot in touched {
                if let lane = threads[slot].signposts.open(name: name, key: key, thread: threads[slot].thread) {
                    found = (slot, lane)
                    break
                }
            }
        }
        guard let (slot, lane) = found else {
            try unmatchedEnd(event, symbols: symbols)
            return
        }
        threads[slot].signposts.release(lane)
        try end(threads[slot].signposts.lanes[lane].track, at: event.timestamp, category: .signpost)
    }

    private mutating func taskBegan(_ id: Int64, name: Symbol, event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let lane: Int
        if let free = tasks.free {
            lane = free
        } else {
            lane = tasks.add(track: try declare(.lane(parent: 0), name: "Background tasks \(tasks.lanes.count + 1)"))
        }
        tasks.take(lane, thread: event.thread, name: name, key: id)
        var args = TimelineArgs()
        args.append(TimelineName.id.symbol, int: id)
        let title = name.isNone ? names.intern("background task") : exported(name, symbols: symbols)
        try begin(tasks.lanes[lane].track, at: event.timestamp, name: title, category: .backgroundTask, args: args)
    }

    /// An end whose begin is not open: drawn as an instant on the thread, so nothing is lost.
    private mutating func unmatchedEnd(_ event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        var args = TimelineArgs()
        args.append(TimelineName.events.symbol, text: EventSummary(event, symbols: symbols, launch: nil).label)
        try instant(
            try threadTrack(event.thread), at: event.timestamp, name: TimelineName.unmatchedEnd.symbol,
            category: .recorder, args: args)
    }

    // MARK: - Lifetimes

    /// The analyzer moved to another lifetime (or out of one): closes everything of the old one
    /// and opens the new one's slice.
    mutating func changeLifetime(at event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        try closeLifetime(at: event.timestamp)
        guard let index = analyzer.lifetimeIndex else { return }
        lifetime = index
        var args = TimelineArgs()
        args.append(TimelineName.lifetime.symbol, int: Int64(index))
        if case .launch(_, let background, let prewarm, let launchPid) = event.payload {
            args.append(TimelineName.kind.symbol, name: names.intern(LaunchKind(background: background, prewarm: prewarm).rawValue))
            if let launchPid { args.append(TimelineName.pid.symbol, int: launchPid) }
        }
        try begin(lifetimesTrack, at: event.timestamp, name: names.intern("lifetime \(index)"), category: .lifetime, args: args)
    }

    /// Closes every slice of the current lifetime at `time`.
    mutating func closeLifetime(at time: Int64) throws(ExportError) {
        guard lifetime != nil else { return }
        lifetime = nil
        for slot in touched {
            for _ in threads[slot].callbacks { try end(threads[slot].track, at: time, category: .callback) }
            threads[slot].callbacks.removeAll()
            for lane in threads[slot].signposts.openLanes {
                threads[slot].signposts.release(lane)
                try end(threads[slot].signposts.lanes[lane].track, at: time, category: .signpost)
            }
            threads[slot].touched = false
        }
        touched.removeAll(keepingCapacity: true)
        if busyOpen {
            busyOpen = false
            try end(busyTrack, at: time, category: .busy)
        }
        for lane in tasks.openLanes {
            tasks.release(lane)
            try end(tasks.lanes[lane].track, at: time, category: .backgroundTask)
        }
        try closeViews(at: time)
        try end(lifetimesTrack, at: time, category: .lifetime)
    }
}
