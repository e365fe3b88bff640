import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

extension TimelineDrawing: LifecycleEdgeSink {
    /// Writes the records of one edge.
    mutating func receive(_ edge: LifecycleEdge, symbols: SymbolTable) throws(ExportError) {
        if !started {
            // The first edge is the first lifetime's start: the process is named by its launch's pid.
            var launchPid: Int64?
            if case .lifetimeBegan(let begin) = edge { launchPid = begin.launch?.pid }
            try declareTracks(launchPid: launchPid)
        }
        if heldStallEvidence.hold(edge) { return }
        // An in-app recording has no system view: its lifetimes' system-view states are not drawn.
        let gate = systemView.admit(edge)
        for change in gate.released { try draw(change, symbols: symbols) }
        if gate.holds { return }
        try draw(edge, symbols: symbols)
    }

    /// Draws the stalls and the violations about them held until the trace's samples were read
    /// (``HeldStallEvidence``), with the same blame as `check`'s; `names` names `stacks`' frames.
    mutating func drawHeldStallEvidence(stacks: SampledStacks, names: TraceSymbolNames?) throws(ExportError) {
        for (edge, profile) in heldStallEvidence.release(stacks: stacks, names: names) {
            if case .stall(let stall, let lifetime) = edge {
                try draw(stall, lifetime: lifetime, samples: profile)
            } else if case .finding(let violation) = edge {
                try draw(violation)
            }
        }
    }

    private mutating func draw(_ edge: LifecycleEdge, symbols: SymbolTable) throws(ExportError) {
        switch edge {
        case .lifetimeBegan(let begin):
            var args = TimelineArgs()
            args.append(TimelineName.lifetime.symbol, int: Int64(begin.index))
            if let launch = begin.launch {
                args.append(TimelineName.kind.symbol, name: names.intern(launch.kind.rawValue))
                if let launchPid = launch.pid { args.append(TimelineName.pid.symbol, int: launchPid) }
            }
            // A name per lifetime for the first ones; past them one shared name (the index is in
            // the args), so that the name table does not grow with what a trace claims.
            let name = begin.index < Self.namedLifetimeLimit ? "lifetime \(begin.index)" : "lifetime"
            try self.begin(lifetimesTrack, at: begin.timestamp, name: names.intern(name), category: .lifetime, args: args)
        case .launchInferred, .launchTimed:
            break
        case .stateChanged(let change):
            try draw(change, symbols: symbols)
        case .intervalBegan(let interval):
            try began(interval, symbols: symbols)
        case .intervalEnded(let interval, let end, _):
            try ended(interval, at: end)
        case .point(let point):
            try draw(point, symbols: symbols)
        case .busyBegan(let start):
            try self.begin(busyTrack, at: start, name: TimelineName.busy.symbol, category: .busy)
        case .busyEnded(_, let end):
            try self.end(busyTrack, at: end, category: .busy)
        case .stall(let stall, let lifetime):
            try draw(stall, lifetime: lifetime, samples: nil)
        case .launchWindowEnded(let window):
            try draw(window)
        case .launchWindowClosed:
            // Drawn once final, from launchWindowEnded.
            break
        case .finding(let violation):
            try draw(violation)
        case .lifetimeEnded(let report):
            try self.end(lifetimesTrack, at: report.end.timestamp, category: .lifetime)
        }
    }

    // MARK: - States

    /// A state slice per view drawn: the system view, the effective app view, each scene's two
    /// views (an unattached scene has no slice).
    private mutating func draw(_ change: StateChange, symbols: SymbolTable) throws(ExportError) {
        let track: Int
        switch change.view {
        case .system: track = systemTrack
        case .effectiveApp: track = appTrack
        case .sceneApp(let scene): track = scenes[try sceneLane(scene, symbols: symbols)].appTrack
        case .sceneSystem(let scene): track = try sceneSystemTrack(scene, symbols: symbols)
        case .app, .trusted: return
        }
        if let from = change.from, Self.name(of: from) != nil {
            try end(track, at: change.timestamp, category: .state)
        }
        if let to = change.to, let name = Self.name(of: to) {
            try begin(track, at: change.timestamp, name: name.symbol, category: .state)
        }
    }

    /// The slice name of a state; nil for a state without a slice (an unattached scene).
    private static func name(of state: ViewState) -> TimelineName? {
        switch state {
        case .system(let state): TimelineName.of(state)
        case .app(let state): TimelineName.of(state)
        case .scene(let state): TimelineName.of(state)
        }
    }

    // MARK: - Intervals

    /// Callbacks nest on their thread's track; signposts go on their lane (``EdgeInterval/lane``)
    /// among their thread's signpost lanes (shown under the thread), so that signposts that
    /// overlap without nesting still draw, as on the page; background tasks on their task lane.
    private mutating func began(_ interval: EdgeInterval, symbols: SymbolTable) throws(ExportError) {
        var args = TimelineArgs()
        switch interval.kind {
        case .callback:
            args.append(TimelineName.scene.symbol, name: exported(interval.scene, symbols: symbols))
            try begin(
                try threadTrack(interval.thread), at: interval.begin, name: exported(interval.name, symbols: symbols),
                category: .callback, args: args)
        case .signpost:
            let slot = try slot(interval.thread)
            let lane = interval.lane
            while threads[slot].signposts.lanes.count <= lane {
                let title = "\(Self.name(of: interval.thread)) signposts \(threads[slot].signposts.lanes.count + 1)"
                let track = try declare(.lane(parent: threads[slot].track), name: title)
                _ = threads[slot].signposts.add(track: track)
            }
            threads[slot].signposts.take(lane, interval)
            if let id = interval.signpostID { args.append(TimelineName.id.symbol, int: id) }
            try begin(
                threads[slot].signposts.lanes[lane].track, at: interval.begin,
                name: exported(interval.name, symbols: symbols), category: .signpost, args: args)
        case .backgroundTask:
            let lane = interval.lane
            while tasks.lanes.count <= lane {
                _ = tasks.add(track: try declare(.lane(parent: 0), name: "Background tasks \(tasks.lanes.count + 1)"))
            }
            tasks.take(lane, interval)
            args.append(TimelineName.id.symbol, int: interval.key)
            let title = interval.name.isNone ? names.intern("background task") : exported(interval.name, symbols: symbols)
            try begin(tasks.lanes[lane].track, at: interval.begin, name: title, category: .backgroundTask, args: args)
        }
    }

    private mutating func ended(_ interval: EdgeInterval, at time: Int64) throws(ExportError) {
        switch interval.kind {
        case .callback:
            // The analyzer ends a thread's callbacks innermost first: the track's innermost slice.
            try end(try threadTrack(interval.thread), at: time, category: .callback)
        case .signpost:
            let slot = try slot(interval.thread)
            guard let lane = threads[slot].signposts.lane(holding: interval) else { return }
            threads[slot].signposts.release(lane)
            try end(threads[slot].signposts.lanes[lane].track, at: time, category: .signpost)
        case .backgroundTask:
            guard let lane = tasks.lane(holding: interval) else { return }
            tasks.release(lane)
            try end(tasks.lanes[lane].track, at: time, category: .backgroundTask)
        }
    }

    // MARK: - Instants

    private mutating func draw(_ point: EdgePoint, symbols: SymbolTable) throws(ExportError) {
        var args = TimelineArgs()
        let time = point.timestamp
        switch (point.kind, point.fact) {
        case (.launch, .launch(let launch)):
            args.append(TimelineName.reason.symbol, name: exported(launch.reason, symbols: symbols))
            args.append(TimelineName.kind.symbol, name: names.intern(launch.kind.rawValue))
            if let launchPid = launch.pid { args.append(TimelineName.pid.symbol, int: launchPid) }
            try instant(lifetimesTrack, at: time, name: names.intern("launch"), category: .lifetime, args: args)
        case (.exit, .exit(let code, let signal)):
            if let code { args.append(TimelineName.code.symbol, int: Int64(code)) }
            if let signal { args.append(TimelineName.signal.symbol, int: Int64(signal)) }
            try instant(lifetimesTrack, at: time, name: TimelineName.exit.symbol, category: .lifetime, args: args)
        case (.dropped, .dropped(let count)):
            args.append(TimelineName.count.symbol, int: count)
            try instant(lifetimesTrack, at: time, name: TimelineName.dropped.symbol, category: .recorder, args: args)
        case (.mark, _):
            try instant(try threadTrack(point.thread), at: time, name: exported(point.name, symbols: symbols), category: .mark)
        case (.frame, _):
            try instant(framesTrack, at: time, name: TimelineName.frame.symbol, category: .frame)
        case (.firstFrame, _):
            try instant(framesTrack, at: time, name: TimelineName.firstFrame.symbol, category: .frame)
        case (.backgroundTaskExpired, .backgroundTask(let id)):
            let open = tasks.lanes.lastIndex { $0.interval?.key == id }
            let track = open.map { tasks.lanes[$0].track } ?? violationsTrack
            args.append(TimelineName.id.symbol, int: id)
            args.append(TimelineName.task.symbol, name: exported(point.name, symbols: symbols))
            try instant(track, at: time, name: TimelineName.expire.symbol, category: .backgroundTask, args: args)
        case (.unmatchedEnd, _):
            // Drawn as an instant on the thread, so nothing is lost.
            args.append(TimelineName.events.symbol, text: EventSummary(point.event, symbols: symbols, launch: nil).label)
            try instant(
                try threadTrack(point.thread), at: time, name: TimelineName.unmatchedEnd.symbol, category: .recorder,
                args: args)
        case (.launch, _), (.exit, _), (.dropped, _), (.backgroundTaskExpired, _):
            // The analyzer makes these instants only from their own events, whose facts they carry.
            break
        }
    }

    // MARK: - Findings

    /// A violation: an instant named by the rule id, with the message and details.
    private mutating func draw(_ violation: Violation) throws(ExportError) {
        var args = TimelineArgs()
        args.append(TimelineName.rule.symbol, name: names.intern(violation.rule.id))
        args.append(TimelineName.severity.symbol, name: names.intern(violation.severity.rawValue))
        args.append(TimelineName.message.symbol, text: violation.message)
        args.append(TimelineName.lifetime.symbol, int: Int64(violation.lifetime))
        if let since = violation.sinceLaunch { args.append(TimelineName.sinceLaunch.symbol, int: since) }
        if !violation.events.isEmpty {
            args.append(TimelineName.events.symbol, text: violation.events.map(\.label).joined(separator: "; "))
        }
        try instant(
            violationsTrack, at: violation.timestamp, name: names.intern(violation.rule.id), category: .violation,
            args: args)
    }

    /// A launch window with its milestones.
    private mutating func draw(_ window: LaunchWindow) throws(ExportError) {
        let launch = window.launch
        var args = TimelineArgs()
        args.append(TimelineName.lifetime.symbol, int: Int64(window.lifetime))
        args.append(TimelineName.kind.symbol, name: names.intern(launch.kind.rawValue))
        args.append(TimelineName.windowEnd.symbol, name: names.intern(launch.windowEnd.rawValue))
        args.append(TimelineName.busyInWindow.symbol, int: launch.busyInWindow)
        let title = window.finished ? "launch (\(launch.kind.rawValue))" : "launch (\(launch.kind.rawValue), never finished)"
        try complete(launchTrack, from: window.start, to: window.end, name: names.intern(title), category: .launch, args: args)
        for (milestone, time) in window.milestones {
            try instant(launchTrack, at: time, name: TimelineName.of(milestone).symbol, category: .launch)
        }
    }

    /// A stall with what it is blamed on: the work that covered it, the intervals that ran, and
    /// the in-app function its stack samples were in (`samples`, the line `check` appends).
    private mutating func draw(_ stall: Stall, lifetime: Int, samples: StallProfile?) throws(ExportError) {
        var args = TimelineArgs()
        args.append(TimelineName.duration.symbol, int: stall.duration)
        args.append(TimelineName.lifetime.symbol, int: Int64(lifetime))
        if let since = stall.sinceLaunch { args.append(TimelineName.sinceLaunch.symbol, int: since) }
        if stall.unfinished { args.append(TimelineName.unfinished.symbol, int: 1) }
        if let work = stall.work {
            args.append(TimelineName.work.symbol, text: "\(work.chainText) (\(work.kind.rawValue), \(DurationFormat.fixed.string(work.duration)))")
        }
        if !stall.blame.isEmpty {
            let blame = stall.blame.map { "\($0.name) (\($0.kind.rawValue), \(DurationFormat.fixed.string($0.duration)))" }
            args.append(TimelineName.blame.symbol, text: blame.joined(separator: ", "))
        }
        // Interned when first used, not among the fixed names: a file without samples is as it was.
        if let line = samples?.blameLine { args.append(names.intern("stack_samples"), text: line) }
        try complete(
            stallsTrack, from: stall.start, to: stall.start + stall.duration, name: TimelineName.stall.symbol,
            category: .stall, args: args)
    }
}
