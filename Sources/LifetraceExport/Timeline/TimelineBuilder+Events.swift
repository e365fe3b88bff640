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
            args.append(TimelineName.reason.symbol, name: exported(name, symbols: symbols))
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
        let track = try threadTrack(event.thread)
        let depth = event.thread.isMain ? main.callbacks.count : threads[event.thread]!.callbacks.count
        guard depth < Self.callbackDepthLimit else { return }
        if event.thread.isMain { main.callbacks.append(name) } else { threads[event.thread]!.callbacks.append(name) }
        var args = TimelineArgs()
        args.append(TimelineName.scene.symbol, name: exported(scene, symbols: symbols))
        try begin(track, at: event.timestamp, name: exported(name, symbols: symbols), category: .callback, args: args)
    }

    /// Ends the innermost open callback of that name on the thread, and any left open inside it
    /// (their ends are missing: they close with it so the slices still nest).
    private mutating func callbackEnded(_ name: Symbol, event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let track = try threadTrack(event.thread)
        let stack = event.thread.isMain ? main.callbacks : threads[event.thread]!.callbacks
        guard let depth = stack.lastIndex(of: name) else {
            try unmatchedEnd(event, symbols: symbols)
            return
        }
        for _ in depth..<stack.count { try end(track, at: event.timestamp, category: .callback) }
        if event.thread.isMain {
            main.callbacks.removeSubrange(depth...)
        } else {
            threads[event.thread]!.callbacks.removeSubrange(depth...)
        }
    }

    /// A signpost opens on the lowest free signpost lane of its thread (lanes shown under the
    /// thread), so that signposts that overlap without nesting still draw.
    private mutating func signpostBegan(_ name: Symbol, id: Int64?, event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let thread = try threadTrack(event.thread)
        var lanes = signposts.removeValue(forKey: event.thread) ?? SliceLanes()
        let lane: Int
        if let free = lanes.free {
            lane = free
        } else {
            let title = "\(Self.name(of: event.thread)) signposts \(lanes.lanes.count + 1)"
            do {
                lane = lanes.add(track: try declare(.lane(parent: thread), name: title))
            } catch {
                signposts[event.thread] = lanes
                throw error
            }
        }
        lanes.take(lane, thread: event.thread, name: name, key: id ?? .min)
        let track = lanes.lanes[lane].track
        signposts[event.thread] = lanes
        var args = TimelineArgs()
        if let id { args.append(TimelineName.id.symbol, int: id) }
        try begin(track, at: event.timestamp, name: exported(name, symbols: symbols), category: .signpost, args: args)
    }

    /// A signpost closes on its thread's lane, or, for one with an id that ends on another
    /// thread, on the lane of the thread it began on.
    private mutating func signpostEnded(_ name: Symbol, id: Int64?, event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        let key = id ?? .min
        var owner: ThreadID?
        if signposts[event.thread]?.open(name: name, key: key, thread: event.thread) != nil {
            owner = event.thread
        } else if id != nil {
            owner = signposts.keys.sorted().first { signposts[$0]?.open(name: name, key: key, thread: $0) != nil }
        }
        guard let owner, let lane = signposts[owner]?.open(name: name, key: key, thread: owner) else {
            try unmatchedEnd(event, symbols: symbols)
            return
        }
        signposts[owner]!.release(lane)
        try end(signposts[owner]!.lanes[lane].track, at: event.timestamp, category: .signpost)
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
        for _ in main.callbacks { try end(main.track, at: time, category: .callback) }
        main.callbacks.removeAll()
        for thread in threads.keys.sorted() {
            let lane = threads[thread]!
            for _ in lane.callbacks { try end(lane.track, at: time, category: .callback) }
            threads[thread]!.callbacks.removeAll()
        }
        if busyOpen {
            busyOpen = false
            try end(busyTrack, at: time, category: .busy)
        }
        for thread in signposts.keys.sorted() {
            for lane in signposts[thread]!.openLanes {
                signposts[thread]!.release(lane)
                try end(signposts[thread]!.lanes[lane].track, at: time, category: .signpost)
            }
        }
        for lane in tasks.openLanes {
            tasks.release(lane)
            try end(tasks.lanes[lane].track, at: time, category: .backgroundTask)
        }
        try closeViews(at: time)
        try end(lifetimesTrack, at: time, category: .lifetime)
    }
}
