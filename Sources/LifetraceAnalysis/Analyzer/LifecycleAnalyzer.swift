import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// Replays a trace's events through the lifecycle model, one at a time, and collects violations,
/// lifetimes, launch windows and stalls.
///
/// Memory is bounded by what is open (callbacks and signposts per thread, scenes, background
/// tasks) and by what is found (violations, stalls, lifetimes), never by the number of events,
/// and each of those is capped: past ``CappedCounts``' limits they are counted, not kept.
/// ``consume(_:symbols:)`` does no allocation and no string work for an event that breaks no rule.
///
/// ```swift
/// var analyzer = LifecycleAnalyzer(options: .init())
/// while let event = try reader.next() { analyzer.consume(event, symbols: reader.symbols) }
/// let result = analyzer.finish(symbols: reader.symbols)
/// ```
/// What ``LifecycleAnalyzer/lifetimeEnded`` is called with: a lifetime's report, the violations
/// kept while it was replayed, and those counted past the limit, by rule.
public typealias LifetimeSink = (LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void

public struct LifecycleAnalyzer {
    /// The limits and rules in force.
    public let options: AnalysisOptions
    var current: Lifetime
    var inLifetime = false
    var lifetimeCount = 0
    var stacks = ThreadStacks()
    var busy = BusyTracker()
    var reports: [LifetimeReport] = []
    /// How many lifetimes have ended, their reports kept or not.
    public internal(set) var lifetimesEnded = 0
    /// The violations found so far: the first ``AnalysisOptions/violationLimit`` in full, the
    /// rest counted.
    var found: ViolationList

    /// The violations kept so far, in the order they were found.
    public var violations: [Violation] { found.kept }

    /// The violations found past ``AnalysisOptions/violationLimit``, counted by rule.
    public var omittedViolations: [Rule: Int] { found.omitted }
    /// What was counted instead of kept past the caps, but for the thread stacks' own counts.
    var capped = CappedCounts()
    /// How many stalls the lifetime reports of the trace list so far (``CappedCounts/traceStallLimit``).
    var stallsListed = 0

    /// What was counted instead of kept past the caps (docs/RELIABILITY.md).
    public var cappedCounts: CappedCounts {
        var counts = capped
        counts.threadBegins = stacks.threadOverflow
        counts.deepBegins = stacks.overflow
        return counts
    }
    // The last event of each stream; a timestamp of Int64.min until the first. Plain values
    // rather than optionals: storing an optional event costs several times the plain copy.
    var previousSystemEvent = LifecycleAnalyzer.noEvent
    var previousAppEvent = LifecycleAnalyzer.noEvent
    static let noEvent = TraceEvent(timestamp: .min, payload: .runloopWake, stream: .app)
    /// How many events were consumed.
    public internal(set) var eventCount = 0
    /// The time of the trace's first event, from which every message counts its moments
    /// (``TraceClock``); nil before the first event.
    public internal(set) var traceOrigin: Int64?
    /// Called with each lifetime's report as the lifetime ends, with the violations kept since
    /// the previous call and those counted past the limit since then, by rule (each violation
    /// is handed over once). Lets a caller write a row per lifetime while the trace is read,
    /// with ``AnalysisOptions/keepsLifetimes`` off.
    public var lifetimeEnded: LifetimeSink?
    var violationsHandedOver = 0
    var omittedHandedOver: [Rule: Int] = [:]
    /// The monitors of the built-in rules that are on, by the edge kind they look at.
    let builtInMonitors: BuiltInMonitorTable
    /// What those monitors look at: an edge of another kind is never built (``judge(_:symbols:)``).
    var monitoredEdges: RuleEdge.Kinds { builtInMonitors.kinds }
    /// The checker of the rule files' rules (``AnalysisOptions/userRules``), or nil. It takes
    /// the edges of each event as soon as the event is replayed.
    var monitor: (any RuleMonitor)?
    /// Whether the monitor looks at frames after a lifetime's first (``RuleMonitor/looksAtFrames``).
    var monitorLooksAtFrames = false
    /// Per name symbol and ``NamedKind``: 0 not asked yet, 1 the monitor looks at it, 2 it does not.
    var monitorNames: [UInt8] = []
    /// How many of ``pendingEdges`` the monitor has taken.
    var monitorFed = 0
    /// The event whose replay derived the pending edges, for the monitor's witnesses.
    var edgeCause = LifecycleAnalyzer.noEvent
    /// Whether anything takes edges (a sink or the monitor): edges are built and queued only then.
    @usableFromInline var emitsEdges = false
    /// Whether a sink takes every edge. Without one, the monitor alone is served: no busy
    /// intervals, no findings, and frames and signposts only as far as its rules look at them.
    @usableFromInline var sinkListens = false
    /// The edges derived from the current event, waiting for the sink.
    @usableFromInline var pendingEdges: [LifecycleEdge] = []
    /// How many of the kept violations went out as edges.
    var findingsSent = 0
    /// The views' states as last sent.
    var viewsSent = SentViews()
    /// What the trace's metadata says about the device and the recording.
    public let platform: PlatformFacts
    /// The allowances for real iOS that apply to this trace (none with ``AnalysisOptions/textbook``).
    public let allowances: AllowanceSet
    /// The model's background execution sequence: what a silence of the app means, after how
    /// long a silence it has something to say (``appWasSilent(until:symbols:)``), and what excuses
    /// a long stretch in Background.
    @usableFromInline var background: BackgroundExecutionSequence
    /// The metadata's `recordingStart`, as `late-recording` reads it; the earliest app-side event
    /// found before it, when one was, makes a problem of the trace (``metadataProblems(path:)``).
    var recording: RecordingStart
    /// The allowances applied in the lifetimes that ended so far.
    var allowancesUsed = AllowanceSet.none
    /// Where the chunks of the binary trace being read lie, for the witnesses' places
    /// (``EventSummary/chunk``); nil for a text trace or events made in memory.
    public var chunkPositions: ChunkPositions?

    /// An analyzer with `options`, for a trace with `metadata` (its `os`, `backgroundModes` and
    /// `recordingStart` decide which allowances apply).
    public init(options: AnalysisOptions = AnalysisOptions(), metadata: TraceMetadata = TraceMetadata()) {
        self.options = options
        platform = PlatformFacts(metadata: metadata)
        allowances = options.textbook ? .none : Allowance.applicable(to: platform)
        background = BackgroundExecutionSequence(allowances: allowances, platform: platform)
        recording = RecordingStart(platform.recordingStart, allowances: allowances)
        found = ViolationList(limit: options.violationLimit)
        builtInMonitors = BuiltInMonitorTable(options: options)
        current = Lifetime(index: 0, start: 0, allowances: allowances)
        monitor = options.userRules?.makeMonitor()
        monitorLooksAtFrames = monitor?.looksAtFrames ?? false
        emitsEdges = monitor != nil
    }

    /// Replays one event. `symbols` resolves the event's symbols (the reader's table).
    public mutating func consume(_ event: TraceEvent, symbols: SymbolTable) {
        replay(event, symbols: symbols)
        if monitorFed < pendingEdges.count { feedMonitor(symbols: symbols) }
    }

    // The body of `consume`, inlined into the batch loop of `analyze`: the common events take
    // the short path, everything else the full one.
    @inline(__always)
    mutating func replay(_ event: TraceEvent, symbols: SymbolTable) {
        if !replayCommon(event, symbols: symbols) { replayInFull(event, symbols: symbols) }
    }

    // The same for an event in a batch: the short path reads the fields it needs in place.
    @inline(__always)
    mutating func replay<Edges: EdgeEmission>(at event: UnsafePointer<TraceEvent>, symbols: SymbolTable, edges: Edges.Type) {
        if !replayCommon(at: event, symbols: symbols, edges: edges) { replayInFull(event.pointee, symbols: symbols) }
    }

    // Every event can take this path; it is kept out of the batch loop so that the loop stays
    // small enough for its state to live in registers.
    @inline(never)
    mutating func replayInFull(_ event: TraceEvent, symbols: SymbolTable) {
        if emitsEdges { edgeCause = event }
        replayEvent(event, symbols: symbols)
        if emitsEdges { deriveEdges(after: event) }
    }

    @inline(__always)
    private mutating func replayEvent(_ event: TraceEvent, symbols: SymbolTable) {
        eventCount &+= 1
        checkTimeOrder(event, symbols: symbols)
        if case .launch(let reason, let background, let prewarm, let pid) = event.payload {
            beginLifetime(event, reason: reason, background: background, prewarm: prewarm, pid: pid, symbols: symbols)
            return
        }
        if !inLifetime { beginLifetime(at: event) }
        if event.stream == .app && event.timestamp &- current.lastAppActivity >= background.silenceThreshold {
            appWasSilent(until: event, symbols: symbols)
        }
        current.eventCount &+= 1
        if event.timestamp > current.lastTimestamp { current.lastTimestamp = event.timestamp }
        let appSide = event.stream == .app
        switch event.payload {
        case .launch:
            break
        case .state(let to, let scene):
            if scene.isNone {
                moveSystem(to: to, event: event, symbols: symbols)
            } else {
                moveSceneSystem(scene, to: to, event: event, symbols: symbols)
            }
        case .callbackBegin(let name, let scene):
            callbackBegan(event, name: name, scene: scene, symbols: symbols)
        case .callbackEnd(let name, let scene):
            callbackEnded(event, name: name, scene: scene, symbols: symbols)
        case .runloopWake:
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            if event.thread.isMain {
                if !current.runLoopSeen { switchToRunLoop(at: event.timestamp) }
                openBusy(event)
            }
        case .runloopSleep:
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            if event.thread.isMain {
                if !current.runLoopSeen { switchToRunLoop(at: event.timestamp) }
                closeBusy(at: event.timestamp, unfinished: false, symbols: symbols)
            }
        case .signpostBegin(let name, let id):
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            let slot = stacks.slot(for: event.thread)
            if stacks.pushSignpost(OpenInterval(begin: event, name: name, key: id ?? .min), slot: slot), emitsEdges,
                signpostEdges(name, symbols: symbols)
            {
                emit(.intervalBegan(stacks.slots[slot].signposts[stacks.slots[slot].signposts.count - 1].edge(.signpost)))
            }
        case .signpostEnd(let name, let id):
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            signpostEnded(event, name: name, key: id ?? .min, symbols: symbols)
        case .mark(let name):
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            if emitsEdges, namedEdges(.mark, name, symbols: symbols) { emitPoint(.mark, event, name: name) }
        case .frame:
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            if current.firstFrame == nil {
                current.firstFrame = event.timestamp
                current.firstFrameEvent = event
                emitPoint(.firstFrame, event)
            } else if sinkListens || monitorLooksAtFrames {
                emitPoint(.frame, event)
            }
        case .bgtaskBegin(let id, _):
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            taskBegan(id, event: event, symbols: symbols)
        case .bgtaskEnd(let id, _):
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            taskEnded(id, event: event, symbols: symbols)
        case .bgtaskExpire(let id, let name):
            if appSide && current.silent { silenceBroken(event, symbols: symbols) }
            if emitsEdges, namedEdges(.backgroundTask, name, symbols: symbols) { emitPoint(.backgroundTaskExpired, event, name: name) }
            taskExpired(id, name: name, event: event, symbols: symbols)
        case .exit(let code, let signal):
            emitPoint(.exit, event)
            endLifetime(exit: event, code: code, signal: signal, symbols: symbols)
            return
        case .dropped(let count):
            // Saturates: counts that add past 2^63 - 1 read as "at least" that many.
            let (sum, overflow) = current.dropped.addingReportingOverflow(max(0, count))
            current.dropped = overflow ? .max : sum
            emitPoint(.dropped, event)
            return
        }
        if appSide {
            current.lastAppActivity = event.timestamp
            current.firstAppActivity = min(current.firstAppActivity, event.timestamp)
        }
    }

    /// Ends the replay: closes the last lifetime at the last event seen and returns everything
    /// found, violations in time order.
    public mutating func finish(symbols: SymbolTable) -> (violations: [Violation], lifetimes: [LifetimeReport]) {
        if inLifetime { endLifetimeWithoutExit(.endOfTrace, symbols: symbols) }
        // Sent before sorting: the list is kept in the order found until here.
        if sinkListens { sendNewFindings() }
        found.sortByTime()
        return (found.kept, reports)
    }

    /// Analyses every event of `source` and returns the result; `path` names the trace in it.
    /// `lifetimeEnded`, when given, is called as each lifetime ends (``lifetimeEnded``).
    public static func analyze<Source: TraceEventSource>(
        _ source: inout Source, path: String, options: AnalysisOptions = AnalysisOptions(),
        lifetimeEnded: LifetimeSink? = nil
    ) throws(TraceError) -> TraceAnalysis {
        var analyzer = LifecycleAnalyzer(options: options, metadata: source.metadata)
        analyzer.lifetimeEnded = lifetimeEnded
        analyzer.chunkPositions = source.chunkPositions
        var origin: Int64?
        // A batch at a time: the loop over a batch is the whole per-event cost, with `consume`
        // inlined into it and the symbol table fetched once per batch. Without rule files no
        // edge code is compiled into the loop; with them, the monitor takes each event's edges.
        let monitored = analyzer.monitor != nil
        while try source.nextBatch({ events, symbols in
            guard let base = events.baseAddress else { return }
            if origin == nil { origin = events.first?.timestamp }
            if monitored {
                analyzer.replayMonitored(UnsafeBufferPointer(start: base, count: events.count), symbols: symbols)
            } else {
                for index in 0..<events.count { analyzer.replay(at: base + index, symbols: symbols, edges: NoEdgeEmission.self) }
            }
        }) {}
        let (violations, lifetimes) = analyzer.finish(symbols: source.symbols)
        return analyzer.result(
            path: path, metadata: source.metadata, violations: violations, lifetimes: lifetimes, issues: source.issues,
            origin: origin)
    }

    /// The analysis of a trace once ``finish(symbols:)`` has returned `violations` and
    /// `lifetimes`: what every way of driving the analyzer returns.
    func result(
        path: String, metadata: TraceMetadata, violations: [Violation], lifetimes: [LifetimeReport], issues: [TraceError],
        origin: Int64?
    ) -> TraceAnalysis {
        var analysis = TraceAnalysis(
            path: path, metadata: metadata, eventCount: eventCount, violations: violations,
            omittedViolations: omittedViolations, violationLimit: options.violationLimit, lifetimes: lifetimes,
            lifetimeCount: lifetimesEnded, issues: issues + metadataProblems(path: path), origin: origin,
            capped: cappedCounts)
        analysis.allowancesUsed = Allowance.allCases.filter { allowancesUsed.contains($0) }
        return analysis
    }

    /// Replays a batch with the rule monitor, handing it each event's edges. Kept out of the
    /// batch loop without rules, so that loop keeps its state in registers.
    @inline(never)
    mutating func replayMonitored(_ events: UnsafeBufferPointer<TraceEvent>, symbols: SymbolTable) {
        guard let base = events.baseAddress else { return }
        for index in 0..<events.count {
            replay(at: base + index, symbols: symbols, edges: MonitorEdgeEmission.self)
            if !pendingEdges.isEmpty { feedMonitor(symbols: symbols) }
        }
    }

    /// Analyses an in-memory list of events.
    public static func analyze(
        _ events: [TraceEvent], symbols: SymbolTable, path: String = "(events)",
        metadata: TraceMetadata = TraceMetadata(), options: AnalysisOptions = AnalysisOptions()
    ) -> TraceAnalysis {
        var analyzer = LifecycleAnalyzer(options: options, metadata: metadata)
        for event in events { analyzer.consume(event, symbols: symbols) }
        let (violations, lifetimes) = analyzer.finish(symbols: symbols)
        return analyzer.result(
            path: path, metadata: metadata, violations: violations, lifetimes: lifetimes, issues: [],
            origin: events.first?.timestamp)
    }
}

extension LifecycleAnalyzer {
    /// The system view of the current lifetime (nil outside a lifetime or when still unknown).
    public var systemState: LifecycleState? { inLifetime ? current.system : nil }

    /// The app delegate's view of the current lifetime.
    public var appState: AppViewState? { inLifetime ? current.app : nil }

    /// The effective app view: the app delegate's, or the most active scene's in a scene app.
    public var effectiveAppState: AppViewState? { inLifetime ? current.effective : nil }

    /// Each scene of the current lifetime with both its views, in order of appearance.
    public func sceneStates(symbols: SymbolTable) -> [(scene: String, system: LifecycleState?, app: SceneViewState?)] {
        guard inLifetime else { return [] }
        return current.scenes.map { (symbols[$0.name], $0.system, $0.app) }
    }

    /// The lifetimes finished so far, as far as they are kept (``AnalysisOptions/lifetimeLimit``;
    /// ``lifetimesEnded`` counts them all).
    public var finishedLifetimes: [LifetimeReport] { reports }

    /// The time since the current lifetime's launch, when it has one.
    public func sinceLaunch(_ timestamp: Int64) -> Int64? {
        guard inLifetime, let launch = current.windowStart else { return nil }
        return timestamp - launch
    }
}
