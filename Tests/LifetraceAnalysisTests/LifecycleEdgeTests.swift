import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd
import LifetraceTestSupport
import Testing

/// The edges the analyzer publishes: what each says, the order they come in, and that they are
/// the analysis's own (the same stalls, windows, findings and lifetimes as its result).
struct LifecycleEdgeTests {
    static func edges(_ trace: TraceBuilder, options: AnalysisOptions = AnalysisOptions()) -> ([LifecycleEdge], TraceAnalysis) {
        var analyzer = LifecycleAnalyzer(options: options)
        var log = LifecycleEdgeLog()
        for event in trace.events { analyzer.consume(event, symbols: trace.symbols, into: &log) }
        _ = analyzer.finish(symbols: trace.symbols, into: &log)
        return (log.edges, trace.analyze(options))
    }

    /// The state changes of `view`, as `name@ms` (`-` when the view becomes unknown).
    static func states(_ edges: [LifecycleEdge], _ view: LifecycleView) -> [String] {
        edges.compactMap { edge in
            guard case .stateChanged(let change) = edge, change.view == view else { return nil }
            return "\(change.to?.name ?? "-")@\(change.timestamp / 1_000_000)"
        }
    }

    /// Checks what every edge stream must satisfy, and that it is the analysis's own.
    static func expectWellFormed(_ edges: [LifecycleEdge], _ analysis: TraceAnalysis, _ label: String) {
        var lifetime: Int?
        var openIntervals: [EdgeInterval: Int] = [:]
        var openStates: [LifecycleView: ViewState] = [:]
        var busyOpen: Int64?
        var stalls: [Stall] = []
        var windows: [LaunchWindow] = []
        var closed: [Int: Int64] = [:]
        var findings: [Violation] = []
        var reports: [LifetimeReport] = []
        // Per lifetime, the launch moment last told and whether it was settled.
        var timed: [Int: (from: Int64, settled: Bool)] = [:]
        for edge in edges {
            switch edge {
            case .lifetimeBegan(let begin):
                #expect(lifetime == nil, "\(label): a lifetime begins while another is open")
                #expect(begin.index == reports.count, "\(label): lifetimes are numbered in order")
                lifetime = begin.index
            case .lifetimeEnded(let report):
                #expect(lifetime == report.index, "\(label): the lifetime that ends is the open one")
                #expect(openIntervals.values.allSatisfy { $0 == 0 }, "\(label): intervals left open at a lifetime's end")
                #expect(openStates.isEmpty, "\(label): states left open at a lifetime's end: \(openStates)")
                #expect(busyOpen == nil, "\(label): busy left open at a lifetime's end")
                reports.append(report)
                lifetime = nil
            case .stateChanged(let change):
                #expect(lifetime != nil, "\(label): a state change outside a lifetime")
                #expect(openStates[change.view] == change.from, "\(label): \(change.view) leaves a state it was not in")
                #expect(change.from != change.to, "\(label): a change to the same state")
                openStates[change.view] = change.to
            case .intervalBegan(let interval):
                #expect(lifetime != nil)
                openIntervals[interval, default: 0] += 1
            case .intervalEnded(let interval, let end, _):
                #expect(openIntervals[interval, default: 0] > 0, "\(label): \(interval) ends without its begin")
                openIntervals[interval, default: 0] -= 1
                #expect(end >= interval.begin || analysis.violations.contains { $0.rule == .timeOrder })
            case .busyBegan(let start):
                #expect(busyOpen == nil, "\(label): busy begins twice")
                busyOpen = start
            case .busyEnded(let start, _):
                #expect(busyOpen == start, "\(label): busy ends from another start")
                busyOpen = nil
            case .stall(let stall, _): stalls.append(stall)
            case .launchWindowClosed(let index, let at):
                #expect(lifetime == index, "\(label): a launch window closes outside its lifetime")
                #expect(closed[index] == nil, "\(label): a launch window closes twice")
                closed[index] = at
            case .launchWindowEnded(let window):
                windows.append(window)
                // An event closed it where the final window ends, unless the kind of an inferred
                // launch was learned only at the end (then it closed at the first frame).
                if let at = closed[window.lifetime], !window.launch.inferred {
                    #expect(window.end == at, "\(label): the window closed at \(at) ends at \(window.end)")
                }
            case .finding(let violation):
                findings.append(violation)
                #expect(violation.lifetime >= reports.count, "\(label): a finding of lifetime \(violation.lifetime) after its end")
            case .launchTimed(let index, let from, let settled):
                #expect(lifetime == index, "\(label): a launch moment told outside its lifetime")
                #expect(timed[index]?.settled != true, "\(label): a launch moment moves once settled")
                timed[index] = (from, settled)
            case .launchInferred, .point: break
            }
        }
        // The launch moment last told is the one the lifetime's report has.
        for (index, moment) in timed where index < reports.count {
            #expect(reports[index].launch.timestamp == moment.from, "\(label): lifetime \(index) is timed from \(moment.from)")
        }
        #expect(lifetime == nil, "\(label): the last lifetime never ended")
        #expect(reports == analysis.lifetimes, "\(label): the lifetimes are the analysis's")
        #expect(Set(stalls) == Set(analysis.lifetimes.flatMap(\.stalls)), "\(label): the stalls are the analysis's")
        #expect(windows == analysis.lifetimes.compactMap(\.launchWindow), "\(label): the windows are the analysis's")
        #expect(Set(findings) == Set(analysis.violations), "\(label): the findings are the analysis's")
        #expect(findings.count == analysis.violations.count)
    }

    @Test("Random walks, with and without run-loop events and state events: well-formed, and the analysis's own", arguments: 1...60)
    func walks(seed: UInt64) {
        let trace = LifecycleWalk.make(seed: UInt64(seed)).build()
        let (edges, analysis) = Self.edges(trace)
        Self.expectWellFormed(edges, analysis, "seed \(seed)")
    }

    @Test("Every sample trace: well-formed, and the analysis's own", arguments: SampleTraces.files(suffix: ".jsonl").map(SampleTraces.path))
    func samples(path: String) throws {
        var source = try TraceInputs.open(path: path)
        var log = LifecycleEdgeLog()
        let analysis = try LifecycleAnalyzer.analyze(&source, path: path, into: &log)
        var plain = try TraceInputs.open(path: path)
        let without = try LifecycleAnalyzer.analyze(&plain, path: path)
        #expect(without.lifetimes == analysis.lifetimes && without.violations == analysis.violations, "the sink changes nothing")
        Self.expectWellFormed(log.edges, analysis, path)
    }

    @Test("A launch: its facts, the views' states (an app view moves when its callback begins), the trusted state from state events")
    func launchAndViews() {
        var trace = TraceBuilder()
        trace.foregroundLaunch()
        trace.exit(100, signal: 9)
        let (edges, _) = Self.edges(trace)
        guard case .lifetimeBegan(let begin)? = edges.first else {
            Issue.record("the first edge is the lifetime's begin")
            return
        }
        #expect(begin.launch?.kind == .cold)
        #expect(begin.launch?.pid == 42)
        #expect(Self.states(edges, .system) == ["inactive@0", "active@60", "-@100"])
        #expect(Self.states(edges, .trusted) == ["inactive@0", "active@60", "-@100"])
        #expect(Self.states(edges, .effectiveApp) == ["inactive@0", "active@60", "-@100"])
        #expect(Self.states(edges, .app) == ["inactive@0", "active@60", "-@100"])
        let points = edges.compactMap { edge -> String? in
            guard case .point(let point) = edge else { return nil }
            return "\(point.kind)@\(point.timestamp / 1_000_000)"
        }
        #expect(points == ["launch@0", "firstFrame@80", "exit@100"])
    }

    @Test("Without state events the trusted state is the effective app view")
    func trustedWithoutStateEvents() {
        var trace = TraceBuilder()
        trace.foregroundLaunch(states: false)
        trace.toBackground(200, states: false)
        let (edges, _) = Self.edges(trace)
        #expect(Self.states(edges, .system) == ["inactive@0", "-@208"])
        #expect(Self.states(edges, .trusted) == ["inactive@0", "active@60", "inactive@200", "background@205", "-@208"])
    }

    @Test("Callbacks nest by depth; an enclosing end ends what it encloses; busy time comes from callbacks without a run loop")
    func intervals() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.begin(1, "willFinishLaunching")
        trace.begin(2, "inner")
        trace.end(3, "willFinishLaunching")
        trace.signpostBegin(4, "load", id: 3)
        trace.signpostEnd(5, "load", id: 3)
        trace.taskBegin(6, id: 9)
        trace.taskExpire(7, id: 9)
        let (edges, _) = Self.edges(trace)
        let ended = edges.compactMap { edge -> String? in
            guard case .intervalEnded(let interval, let end, let how) = edge else { return nil }
            return "\(interval.kind) d\(interval.depth) \(trace.symbols[interval.name]) \(interval.begin / 1_000_000)-\(end / 1_000_000) \(how)"
        }
        #expect(ended == [
            "callback d1 inner 2-3 enclosingEnded", "callback d0 willFinishLaunching 1-3 ended",
            "signpost d0 load 4-5 ended", "backgroundTask d0  6-7 expired",
        ])
        let busy = edges.compactMap { edge -> String? in
            guard case .busyEnded(let start, let end) = edge else { return nil }
            return "\(start / 1_000_000)-\(end / 1_000_000)"
        }
        #expect(busy == ["1-3"])
    }

    @Test("A relaunch ends the lifetime at its last event; a trace that stops ends it there too")
    func lifetimeEnds() {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.begin(10, "willFinishLaunching")
        trace.mark(20, "last")
        trace.launch(50)
        trace.mark(60, "end")
        let (edges, _) = Self.edges(trace)
        let ends = edges.compactMap { edge -> String? in
            guard case .lifetimeEnded(let report) = edge else { return nil }
            return "\(report.index) \(report.end.kind) @\(report.end.timestamp / 1_000_000)"
        }
        #expect(ends == ["0 relaunched @20", "1 endOfTrace @60"])
        let open = edges.compactMap { edge -> String? in
            guard case .intervalEnded(let interval, let end, .lifetimeEnded) = edge else { return nil }
            return "\(trace.symbols[interval.name]) @\(end / 1_000_000)"
        }
        #expect(open == ["willFinishLaunching @20"])
    }

    @Test("A prewarmed launch is timed from its launch, then from each resume found, until its first move to the foreground settles it")
    func prewarmedLaunchMoment() {
        var trace = TraceBuilder()
        trace.launch(0, prewarm: true)
        trace.callback(1, "willFinishLaunching")
        trace.callback(2, "didFinishLaunching", duration: 300)
        // Two pauses of the launch: the last one wins.
        trace.mark(5_000, "woken")
        trace.mark(10_000, "opened")
        trace.callback(10_001, "didBecomeActive")
        trace.frame(10_050)
        let (edges, analysis) = Self.edges(trace)
        let moments = edges.compactMap { edge -> String? in
            guard case .launchTimed(0, let from, let settled) = edge else { return nil }
            return "\(from / 1_000_000)\(settled ? " settled" : "")"
        }
        #expect(moments == ["0", "5000", "10000", "10000 settled"])
        #expect(analysis.lifetimes.first?.launch.timestamp == 10_000_000_000)
        // A cold launch, and a prewarmed one read with the textbook model, are timed from the launch: no edge.
        var cold = TraceBuilder()
        cold.foregroundLaunch()
        var textbook = AnalysisOptions()
        textbook.textbook = true
        for (plain, options) in [(cold, AnalysisOptions()), (trace, textbook)] {
            #expect(!Self.edges(plain, options: options).0.contains { if case .launchTimed = $0 { true } else { false } })
        }
    }

    @Test("A lifetime without a launch event that opens with the launch callbacks is inferred a launch")
    func inferredLaunch() {
        var trace = TraceBuilder()
        trace.callback(5, "willFinishLaunching")
        trace.callback(10, "didFinishLaunching", duration: 5)
        trace.callback(20, "didBecomeActive")
        let (edges, analysis) = Self.edges(trace)
        guard case .lifetimeBegan(let begin)? = edges.first else {
            Issue.record("the first edge is the lifetime's begin")
            return
        }
        #expect(begin.launch == nil)
        #expect(edges.contains { if case .launchInferred(0, 5_000_000) = $0 { true } else { false } })
        #expect(analysis.lifetimes.first?.launch.inferred == true)
    }

    @Test("A stall found from callbacks waits for the lifetime's end; one from the run loop goes out when it closes")
    func stallsWhenFinal() {
        var callbacks = TraceBuilder()
        callbacks.launch(0)
        callbacks.callback(1, "didFinishLaunching", duration: 400)
        callbacks.mark(500, "later")
        let (fromCallbacks, _) = Self.edges(callbacks)
        let stallAt = fromCallbacks.firstIndex { if case .stall = $0 { true } else { false } }
        let endAt = fromCallbacks.firstIndex { if case .lifetimeEnded = $0 { true } else { false } }
        let markAt = fromCallbacks.firstIndex { if case .point(let point) = $0 { point.kind == .mark } else { false } }
        #expect(stallAt != nil && markAt != nil && stallAt! > markAt! && stallAt! < endAt!)

        var runLoop = TraceBuilder()
        runLoop.launch(0)
        runLoop.wake(1)
        runLoop.sleep(400)
        runLoop.mark(500, "later")
        let (fromRunLoop, _) = Self.edges(runLoop)
        let stall = fromRunLoop.firstIndex { if case .stall = $0 { true } else { false } }
        let mark = fromRunLoop.firstIndex { if case .point(let point) = $0 { point.kind == .mark } else { false } }
        #expect(stall != nil && mark != nil && stall! < mark!)
    }
}
