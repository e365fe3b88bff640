import LifecycleModel
import LifetraceFormat

extension LifecycleAnalyzer {
    /// Replays one event and hands the edges it derives to `sink`, in order. Once an analyzer
    /// has been driven this way, keep driving it so (or edges are lost).
    @inlinable
    public mutating func consume<Sink: LifecycleEdgeSink>(
        _ event: TraceEvent, symbols: SymbolTable, into sink: inout Sink
    ) throws(Sink.Failure) {
        replayEmittingEdges(event, symbols: symbols)
        try deliverEdges(into: &sink, symbols: symbols)
    }

    /// Ends the replay like ``finish(symbols:)``, handing the last lifetime's closing edges to
    /// `sink` first.
    @inlinable
    public mutating func finish<Sink: LifecycleEdgeSink>(
        symbols: SymbolTable, into sink: inout Sink
    ) throws(Sink.Failure) -> (violations: [Violation], lifetimes: [LifetimeReport]) {
        let result = finishEmittingEdges(symbols: symbols)
        try deliverEdges(into: &sink, symbols: symbols)
        return result
    }

    /// Analyses every event of `source`, handing the edges to `sink` as they are derived, and
    /// returns the analysis (the same as without a sink).
    public static func analyze<Source: TraceEventSource, Sink: LifecycleEdgeSink>(
        _ source: inout Source, path: String, options: AnalysisOptions = AnalysisOptions(), into sink: inout Sink
    ) throws(TraceError) -> TraceAnalysis where Sink.Failure == Never {
        var analyzer = LifecycleAnalyzer(options: options, metadata: source.metadata)
        analyzer.chunkPositions = source.chunkPositions
        var origin: Int64?
        while let event = try source.next() {
            if origin == nil { origin = event.timestamp }
            analyzer.consume(event, symbols: source.symbols, into: &sink)
        }
        let (violations, lifetimes) = analyzer.finish(symbols: source.symbols, into: &sink)
        return analyzer.result(
            path: path, metadata: source.metadata, violations: violations, lifetimes: lifetimes, issues: source.issues,
            origin: origin)
    }

    /// Hands the pending edges to `sink` and forgets them.
    @inlinable
    mutating func deliverEdges<Sink: LifecycleEdgeSink>(
        into sink: inout Sink, symbols: SymbolTable
    ) throws(Sink.Failure) {
        guard !pendingEdges.isEmpty else { return }
        // Emptied in place once handed over, so that the queue's storage is reused event after
        // event (a copy kept while emptying it would make the array allocate anew).
        defer { forgetPendingEdges() }
        for index in pendingEdges.indices { try sink.receive(pendingEdges[index], symbols: symbols) }
    }

    /// Empties the queue of edges once a sink has taken them (the monitor has already).
    @usableFromInline
    mutating func forgetPendingEdges() {
        pendingEdges.removeAll(keepingCapacity: true)
        monitorFed = 0
    }

    /// Replays `event` with edges on for a sink.
    @usableFromInline
    mutating func replayEmittingEdges(_ event: TraceEvent, symbols: SymbolTable) {
        emitsEdges = true
        sinkListens = true
        replay(event, symbols: symbols)
        if monitorFed < pendingEdges.count { feedMonitor(symbols: symbols) }
        sendNewFindings()
    }

    /// Finishes with edges on for a sink.
    @usableFromInline
    mutating func finishEmittingEdges(symbols: SymbolTable) -> (violations: [Violation], lifetimes: [LifetimeReport]) {
        emitsEdges = true
        sinkListens = true
        return finish(symbols: symbols)
    }

    /// What an event of the full path derives once replayed: the views it moved (only these
    /// events move one; the end of a lifetime closes its views itself), then the launch window it
    /// closed.
    mutating func deriveEdges(after event: TraceEvent) {
        switch event.payload {
        case .launch, .state, .callbackBegin, .callbackEnd: followViews(at: event.timestamp)
        case .runloopWake, .runloopSleep, .signpostBegin, .signpostEnd, .mark, .frame, .bgtaskBegin, .bgtaskEnd,
            .bgtaskExpire, .exit, .dropped:
            break
        }
        guard inLifetime, !current.launchWindowClosedSent, current.launchTime != nil else { return }
        // An abandoned launch's window ends where the user left.
        if let end = current.abandonedAt ?? (current.kind == .background ? current.didFinishEnd : current.firstFrame) {
            current.launchWindowClosedSent = true
            queue(.launchWindowClosed(lifetime: current.index, at: end))
        }
    }

    /// Whether the edges of the `kind` named `name` are made: always for a sink; for the monitor
    /// alone, only when one of its rules looks at that name (asked once per kind, name and trace).
    @inline(__always)
    mutating func namedEdges(_ kind: NamedKind, _ name: Symbol, symbols: SymbolTable) -> Bool {
        if sinkListens { return true }
        let index = Int(name.rawValue) &* NamedKind.allCases.count &+ kind.rawValue
        if index < monitorNames.count, monitorNames[index] != 0 { return monitorNames[index] == 1 }
        return askMonitor(about: kind, name, symbols: symbols)
    }

    /// ``namedEdges(_:_:symbols:)`` for signposts.
    @inline(__always)
    mutating func signpostEdges(_ name: Symbol, symbols: SymbolTable) -> Bool {
        namedEdges(.signpost, name, symbols: symbols)
    }

    @inline(never)
    private mutating func askMonitor(about kind: NamedKind, _ name: Symbol, symbols: SymbolTable) -> Bool {
        guard let monitor else { return false }
        let answer = monitor.looks(at: kind, named: name, symbols: symbols)
        // Symbols are small dense numbers; past a million names the question is asked each time.
        guard name.rawValue < 1 << 20 else { return answer }
        let index = Int(name.rawValue) * NamedKind.allCases.count + kind.rawValue
        if index >= monitorNames.count { monitorNames += [UInt8](repeating: 0, count: index + 1 - monitorNames.count) }
        monitorNames[index] = answer ? 1 : 2
        return answer
    }

    /// Hands the monitor the edges it has not taken yet (those of the event just replayed, or of
    /// the lifetime just ended) and records what its rules found, as violations like the
    /// analyzer's own. Without a sink the queue is emptied here.
    @inline(never)
    mutating func feedMonitor(symbols: SymbolTable) {
        guard let monitor else { return }
        if monitorFed < pendingEdges.count {
            var findings = RuleFindings(onlyCounted: found.isFull)
            monitor.take(pendingEdges[monitorFed...], cause: edgeCause, symbols: symbols, findings: &findings)
            monitorFed = pendingEdges.count
            record(findings, symbols: symbols)
        }
        if !sinkListens { forgetPendingEdges() }
    }

    /// Queues an edge when a sink is listening; nothing otherwise. Inlined as a flag test around
    /// an out-of-line call, so that without a sink a plain edge is not even built and the replay
    /// loop stays as small as before; the boxed edges (stalls, windows, reports) and those read
    /// from the stacks are built only behind an `emitsEdges` test at their call sites.
    @inline(__always)
    mutating func emit(_ edge: LifecycleEdge) {
        if emitsEdges { queue(edge) }
    }

    @inline(never)
    mutating func queue(_ edge: LifecycleEdge) {
        if sinkListens { sendNewFindings() }
        pendingEdges.append(edge)
    }

    /// Queues an instant.
    @inline(__always)
    mutating func emitPoint(_ kind: EdgePoint.Kind, _ event: TraceEvent, name: Symbol = .none) {
        if emitsEdges { queuePoint(kind, event, name: name) }
    }

    @inline(never)
    mutating func queuePoint(_ kind: EdgePoint.Kind, _ event: TraceEvent, name: Symbol) {
        queue(.point(EdgePoint(kind: kind, timestamp: event.timestamp, thread: event.thread, name: name, event: event)))
    }

    /// Queues the violations found since the last call, so that each goes out before the edges
    /// derived after it.
    mutating func sendNewFindings() {
        let count = found.kept.count
        guard count > findingsSent else { return }
        for violation in found.kept[findingsSent...] { pendingEdges.append(.finding(violation)) }
        findingsSent = count
    }

}

/// Whether the replay builds edges, decided when the replay is compiled where it can be: the
/// hot path of `check` is specialised for ``NoEdgeEmission`` and tests no flag at all, that of
/// `check --rules` for ``MonitorEdgeEmission``.
protocol EdgeEmission {
    /// Whether edges are built, given the analyzer's run-time flag.
    static func isOn(_ emitsEdges: Bool) -> Bool
    /// Whether a sink takes every edge, given the analyzer's run-time flag.
    static func forSink(_ sinkListens: Bool) -> Bool
}

/// Nothing takes edges: no edge code is compiled in.
enum NoEdgeEmission: EdgeEmission {
    @inline(__always) static func isOn(_ emitsEdges: Bool) -> Bool { false }
    @inline(__always) static func forSink(_ sinkListens: Bool) -> Bool { false }
}

/// The rule monitor alone takes edges: the edges only a sink takes are not compiled in.
enum MonitorEdgeEmission: EdgeEmission {
    @inline(__always) static func isOn(_ emitsEdges: Bool) -> Bool { true }
    @inline(__always) static func forSink(_ sinkListens: Bool) -> Bool { false }
}

/// The analyzer's run-time flags decide.
enum RuntimeEdgeEmission: EdgeEmission {
    @inline(__always) static func isOn(_ emitsEdges: Bool) -> Bool { emitsEdges }
    @inline(__always) static func forSink(_ sinkListens: Bool) -> Bool { sinkListens }
}
