import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

extension TimelineBuilder {
    // MARK: - Lifecycle views

    /// Shows the analyzer's views after an event: a slice per state of the system view, the
    /// (effective) app view, and of `scene` when the event was about one.
    mutating func updateViews(at time: Int64, scene: Symbol, symbols: SymbolTable) throws(ExportError) {
        let system = analyzer.systemState
        if system != systemShown {
            if systemShown != nil { try end(systemTrack, at: time, category: .state) }
            if let system { try begin(systemTrack, at: time, name: TimelineName.of(system).symbol, category: .state) }
            systemShown = system
        }
        let app = analyzer.effectiveAppState
        if app != appShown {
            if appShown != nil { try end(appTrack, at: time, category: .state) }
            if let app { try begin(appTrack, at: time, name: TimelineName.of(app).symbol, category: .state) }
            appShown = app
        }
        if !scene.isNone { try updateScene(scene, at: time, symbols: symbols) }
    }

    private mutating func updateScene(_ scene: Symbol, at time: Int64, symbols: SymbolTable) throws(ExportError) {
        let index: Int
        if let found = scenes.firstIndex(where: { $0.scene == scene }) {
            index = found
        } else {
            let track = try declare(.lane(parent: 0), name: "Scene \(symbols[scene])")
            scenes.append(SceneLane(scene: scene, appTrack: track))
            index = scenes.count - 1
        }
        let state = analyzer.sceneState(scene)
        let app = state?.app.flatMap { TimelineName.of($0) == nil ? nil : $0 }
        if app != scenes[index].app {
            if scenes[index].app != nil { try end(scenes[index].appTrack, at: time, category: .state) }
            if let app, let name = TimelineName.of(app) {
                try begin(scenes[index].appTrack, at: time, name: name.symbol, category: .state)
            }
            scenes[index].app = app
        }
        let system = state?.system
        if system != scenes[index].system {
            if scenes[index].system != nil, let track = scenes[index].systemTrack {
                try end(track, at: time, category: .state)
            }
            if let system {
                let track: Int
                if let existing = scenes[index].systemTrack {
                    track = existing
                } else {
                    track = try declare(.lane(parent: 0), name: "Scene \(symbols[scene]) (system view)")
                    scenes[index].systemTrack = track
                }
                try begin(track, at: time, name: TimelineName.of(system).symbol, category: .state)
            }
            scenes[index].system = system
        }
    }

    /// Ends every state slice (the lifetime is over).
    mutating func closeViews(at time: Int64) throws(ExportError) {
        if systemShown != nil { try end(systemTrack, at: time, category: .state) }
        if appShown != nil { try end(appTrack, at: time, category: .state) }
        systemShown = nil
        appShown = nil
        for index in scenes.indices {
            if scenes[index].app != nil { try end(scenes[index].appTrack, at: time, category: .state) }
            if scenes[index].system != nil, let track = scenes[index].systemTrack {
                try end(track, at: time, category: .state)
            }
            scenes[index].app = nil
            scenes[index].system = nil
        }
    }

    // MARK: - Findings

    /// Writes the violations and finished lifetimes the analyzer found since the last call.
    mutating func reportFindings(symbols: SymbolTable) throws(ExportError) {
        for violation in findings.newViolations(analyzer) { try report(violation) }
        for lifetime in findings.newLifetimes(analyzer) { try report(lifetime) }
    }

    /// A violation: an instant named by the rule id, with the message and details.
    private mutating func report(_ violation: Violation) throws(ExportError) {
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

    /// A finished lifetime: its launch window with milestones, and its stalls.
    private mutating func report(_ report: LifetimeReport) throws(ExportError) {
        let launch = report.launch
        if let start = launch.timestamp {
            var args = TimelineArgs()
            args.append(TimelineName.lifetime.symbol, int: Int64(report.index))
            args.append(TimelineName.kind.symbol, name: names.intern(launch.kind.rawValue))
            args.append(TimelineName.windowEnd.symbol, name: names.intern(launch.windowEnd.rawValue))
            args.append(TimelineName.busyInWindow.symbol, int: launch.busyInWindow)
            let end = launch.duration.map { start + $0 } ?? report.end.timestamp
            let title = launch.duration == nil ? "launch (\(launch.kind.rawValue), never finished)" : "launch (\(launch.kind.rawValue))"
            try complete(launchTrack, from: start, to: end, name: names.intern(title), category: .launch, args: args)
            let milestones: [(TimelineName, Int64?)] = [
                (.willFinishLaunching, launch.milestones.willFinishLaunching),
                (.didFinishLaunchingEnd, launch.milestones.didFinishLaunchingEnd),
                (.firstActive, launch.milestones.firstActive),
                (.firstFrame, launch.milestones.firstFrame),
            ]
            for (name, offset) in milestones {
                guard let offset else { continue }
                try instant(launchTrack, at: start + offset, name: name.symbol, category: .launch)
            }
        }
        for stall in report.stalls {
            var args = TimelineArgs()
            args.append(TimelineName.duration.symbol, int: stall.duration)
            args.append(TimelineName.lifetime.symbol, int: Int64(report.index))
            if let since = stall.sinceLaunch { args.append(TimelineName.sinceLaunch.symbol, int: since) }
            if stall.unfinished { args.append(TimelineName.unfinished.symbol, int: 1) }
            if let work = stall.work {
                args.append(TimelineName.work.symbol, text: "\(work.chainText) (\(work.kind.rawValue), \(TimeFormat.duration(work.duration)))")
            }
            if !stall.blame.isEmpty {
                let blame = stall.blame.map { "\($0.name) (\($0.kind.rawValue), \(TimeFormat.duration($0.duration)))" }
                args.append(TimelineName.blame.symbol, text: blame.joined(separator: ", "))
            }
            try complete(
                stallsTrack, from: stall.start, to: stall.start + stall.duration, name: TimelineName.stall.symbol,
                category: .stall, args: args)
        }
    }
}
