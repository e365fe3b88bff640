import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
import LifetraceReports
import LifetraceRunner
import LifetraceSynthesis
import LifetraceZstd
import LifetraceTestSupport
import Testing

/// The HTML page's timeline and every export draw the same intervals: busy time, stalls, launch
/// windows, callbacks, signposts, background tasks and states, each read back from what was
/// written (chrome-json parsed as JSON, Perfetto through the official protos, CTF through
/// babeltrace2), for every sample, synthesized reference traces and the random walks of the
/// property tests, with and without run-loop events. Signposts are compared with their lane (the
/// analyzer's ``EdgeInterval/lane``), background tasks with theirs among the exports.
@Suite("One timeline: the page and every export draw the same intervals")
struct TimelineAgreementTests {
    /// One interval as a view draws it: its lane in the test's own words, its name, its extent.
    struct Drawn: Hashable, Comparable, CustomStringConvertible {
        var lane: String
        var name: String
        var start: Int64
        var end: Int64

        static func < (lhs: Drawn, rhs: Drawn) -> Bool {
            (lhs.start, lhs.end, lhs.lane, lhs.name) < (rhs.start, rhs.end, rhs.lane, rhs.name)
        }

        var description: String { "\(lane) \"\(name)\" [\(start), \(end)]" }

        /// Whether the HTML page draws this lane: it shows the main thread's callbacks and
        /// signposts, not other threads', and scenes' app views, not their system views.
        var isOnThePage: Bool { !lane.hasPrefix("callback thread") && !lane.hasPrefix("signpost thread") && !lane.hasPrefix("state scene-system") }

        /// As the page draws it: background tasks on one row, whatever their lane.
        var onThePage: Drawn {
            guard lane.hasPrefix("task ") else { return self }
            return Drawn(lane: "task", name: name, start: start, end: end)
        }
    }

    /// A trace to compare, in memory.
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var events: [TraceEvent]
        var symbols: SymbolTable
        var testDescription: String { label }

        /// The same trace without its run-loop events (busy time then comes from callbacks).
        var withoutRunLoop: Case {
            Case(
                label: label + " without run loop",
                events: events.filter { $0.type != .runloopWake && $0.type != .runloopSleep }, symbols: symbols)
        }
    }

    // MARK: - Cases

    static var samplePaths: [String] {
        let root = ExportSamples.root
        var paths: [String] = []
        for folder in ["traces", "runs", "reports", "golden"] {
            let directory = root.appendingPathComponent(folder)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            paths += files.filter { $0.hasSuffix(".jsonl") || $0.hasSuffix(".ltrace") }.sorted().map {
                directory.appendingPathComponent($0).path
            }
        }
        return paths
    }

    static func read(_ path: String) throws -> Case {
        var source = try TraceInputs.open(path: path)
        var events: [TraceEvent] = []
        while let event = try source.next() { events.append(event) }
        return Case(label: (path as NSString).lastPathComponent, events: events, symbols: source.symbols)
    }

    static var cases: [Case] {
        var cases: [Case] = []
        for path in samplePaths {
            guard let sample = try? read(path) else { continue }
            cases.append(sample)
            if sample.events.contains(where: { $0.type == .runloopWake }) { cases.append(sample.withoutRunLoop) }
        }
        cases.append(overlappingSignposts)
        for seed: UInt64 in [1, 7] {
            var synthesizer = TraceSynthesizer(eventCount: 5_000, seed: seed)
            var events: [TraceEvent] = []
            while let event = synthesizer.next() { events.append(event) }
            let reference = Case(label: "synthesized reference, seed \(seed)", events: events, symbols: synthesizer.symbols)
            cases += [reference, reference.withoutRunLoop]
        }
        for seed: UInt64 in 1...24 {
            let walk = LifecycleWalk.make(seed: seed)
            let trace = walk.build()
            let random = Case(label: "random walk \(seed)", events: trace.events, symbols: trace.symbols)
            cases.append(walk.runLoop ? random.withoutRunLoop : random)
            if walk.runLoop { cases.append(random) }
        }
        return cases
    }

    /// Signposts A [20, 100], B [50, 200] and C [120, 250] ms overlap without nesting, and two
    /// background tasks end out of order before a third begins.
    static var overlappingSignposts: Case {
        var trace = TraceBuilder()
        trace.launch(0)
        trace.signpostBegin(20, "A")
        trace.signpostBegin(50, "B")
        trace.signpostEnd(100, "A")
        trace.signpostBegin(120, "C")
        trace.signpostEnd(200, "B")
        trace.signpostEnd(250, "C")
        trace.taskBegin(300, id: 1)
        trace.taskBegin(310, id: 2)
        trace.taskEnd(320, id: 1)
        trace.taskBegin(330, id: 3)
        trace.taskEnd(340, id: 2)
        trace.taskEnd(350, id: 3)
        trace.exit(400, code: 0)
        return Case(label: "overlapping signposts", events: trace.events, symbols: trace.symbols)
    }

    @Test("Overlapping signposts take the same lanes on the page and in every export")
    func overlappingSignpostLanes() throws {
        let trace = Self.overlappingSignposts
        let ms: Int64 = 1_000_000
        let signposts = [
            Drawn(lane: "signpost main 0", name: "A", start: 20 * ms, end: 100 * ms),
            Drawn(lane: "signpost main 1", name: "B", start: 50 * ms, end: 200 * ms),
            Drawn(lane: "signpost main 0", name: "C", start: 120 * ms, end: 250 * ms),
        ]
        let tasks = [
            Drawn(lane: "task 1", name: "background task", start: 300 * ms, end: 320 * ms),
            Drawn(lane: "task 2", name: "background task", start: 310 * ms, end: 340 * ms),
            Drawn(lane: "task 1", name: "background task", start: 330 * ms, end: 350 * ms),
        ]
        let directory = temporaryDirectory("overlapping")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Self.page(trace).filter { $0.lane.hasPrefix("signpost") }.sorted() == signposts)
        let chrome = try Self.chromeJSON(trace, output: directory + "/trace.json")
        #expect(chrome.filter { $0.lane.hasPrefix("signpost") }.sorted() == signposts)
        #expect(chrome.filter { $0.lane.hasPrefix("task") }.sorted() == tasks)
        let ctf = try #require(try Self.ctf(trace, output: directory + "/ctf"))
        #expect(ctf.filter { $0.lane.hasPrefix("signpost") }.sorted() == signposts)
        #expect(ctf.filter { $0.lane.hasPrefix("task") }.sorted() == tasks)
        if let perfetto = try Self.perfetto(trace, output: directory + "/trace.perfetto-trace") {
            #expect(perfetto.filter { $0.lane.hasPrefix("signpost") }.sorted() == signposts)
        }
    }

    @Test("The page, chrome-json, Perfetto and CTF agree", arguments: cases)
    func agree(_ trace: Case) throws {
        let page = try Self.page(trace)
        let directory = temporaryDirectory("agreement")
        defer { try? FileManager.default.removeItem(atPath: directory) }

        let chrome = try Self.chromeJSON(trace, output: directory + "/trace.json")
        let pageLanes = chrome.filter(\.isOnThePage).map(\.onThePage)
        Self.expectSame(page, pageLanes, "the page", "chrome-json", trace)

        if let perfetto = try Self.perfetto(trace, output: directory + "/trace.perfetto-trace") {
            Self.expectSame(chrome, perfetto, "chrome-json", "perfetto", trace)
        }
        if let ctf = try Self.ctf(trace, output: directory + "/ctf") {
            Self.expectSame(chrome, ctf, "chrome-json", "ctf", trace)
        }
    }

    @Test("Callbacks alone make busy time, in the page and in the exports alike")
    func busyFromCallbacks() throws {
        let path = ExportSamples.root.appendingPathComponent("traces/launch-sequence.pass.jsonl").path
        let trace = try Self.read(path)
        #expect(!trace.events.contains { $0.type == .runloopWake })
        let page = try Self.page(trace)
        let chrome = try Self.chromeJSON(trace, output: temporaryDirectory("busy") + "/trace.json")
        #expect(page.filter { $0.lane == "busy" }.count == 3)
        #expect(chrome.filter { $0.lane == "busy" } == page.filter { $0.lane == "busy" })
    }

    static func expectSame(_ left: [Drawn], _ right: [Drawn], _ leftName: String, _ rightName: String, _ trace: Case) {
        let onlyLeft = difference(left, right)
        let onlyRight = difference(right, left)
        #expect(
            onlyLeft.isEmpty && onlyRight.isEmpty,
            """
            \(trace.label): \(left.count) intervals in \(leftName), \(right.count) in \(rightName)
            only in \(leftName): \(onlyLeft.prefix(8))
            only in \(rightName): \(onlyRight.prefix(8))
            """)
    }

    /// What `left` has more of than `right` (a multiset difference).
    static func difference(_ left: [Drawn], _ right: [Drawn]) -> [Drawn] {
        var counts: [Drawn: Int] = [:]
        for interval in right { counts[interval, default: 0] += 1 }
        var extra: [Drawn] = []
        for interval in left.sorted() {
            if counts[interval, default: 0] > 0 { counts[interval]! -= 1 } else { extra.append(interval) }
        }
        return extra
    }

    // MARK: - The page

    struct Spans: TimelineSink {
        var spans: [TimelineSpan] = []
        mutating func record(_ span: TimelineSpan) { spans.append(span) }
    }

    /// The page's intervals: the timeline's spans, and the stalls and launch windows it pins. Like
    /// the page, a first pass finds the lifetimes without a system view, whose system-view states
    /// are not drawn (``LifetimeReport/hasSystemView``).
    static func page(_ trace: Case) throws -> [Drawn] {
        var first = EventListSource(events: trace.events, symbols: trace.symbols)
        let whole = try LifecycleAnalyzer.analyze(&first, path: trace.label, options: AnalysisOptions())
        let withoutSystemView = Set(whole.lifetimes.filter { !$0.hasSystemView }.map(\.index))
        var source = EventListSource(events: trace.events, symbols: trace.symbols)
        var sink = Spans()
        let analysis = try LifecycleTimeline.analyze(
            &source, path: trace.label, options: AnalysisOptions(), into: &sink, withoutSystemView: withoutSystemView)
        let symbols = trace.symbols
        var drawn: [Drawn] = []
        for span in sink.spans {
            let lane: String
            var name = symbols[span.name]
            switch span.lane {
            case .systemState:
                lane = "state system"
                name = LifecycleState(rawValue: span.value)!.name
            case .appState:
                lane = "state app"
                name = AppViewState(rawValue: span.value)!.name
            case .sceneState(let scene):
                lane = "state scene \(symbols[scene])"
                name = SceneViewState(rawValue: span.value)!.name
            case .busy:
                lane = "busy"
                name = "busy"
            case .callback: lane = "callback main"
            case .signpost(let row): lane = "signpost main \(row)"
            case .backgroundTask:
                lane = "task"
                if span.name.isNone { name = "background task" }
            case .mark, .frame: continue
            }
            drawn.append(Drawn(lane: lane, name: name, start: span.start, end: span.end))
        }
        for lifetime in analysis.lifetimes {
            for stall in lifetime.stalls {
                drawn.append(Drawn(lane: "stall", name: "stall", start: stall.start, end: stall.start + stall.duration))
            }
            if let window = lifetime.launchWindow {
                drawn.append(Drawn(lane: "launch", name: "launch", start: window.start, end: window.end))
            }
        }
        return drawn
    }

    // MARK: - The exports, read back

    /// The lane of a slice on the export's track `track`; nil for what the test does not compare
    /// (lifetimes, violations, frames).
    static func lane(track: String) -> String? {
        switch track {
        case "Main-thread busy": return "busy"
        case "Stalls": return "stall"
        case "Launch": return "launch"
        case "System view": return "state system"
        case "App view": return "state app"
        case "main thread": return "callback main"
        case "Lifetimes", "Violations", "Frames": return nil
        default: break
        }
        if track.hasPrefix("Background tasks "), let number = Int(track.dropFirst("Background tasks ".count)) {
            return "task \(number)"
        }
        if track.hasPrefix("Scene ") {
            let scene = track.dropFirst("Scene ".count)
            if scene.hasSuffix(" (system view)") { return "state scene-system \(scene.dropLast(" (system view)".count))" }
            return "state scene \(scene)"
        }
        if let range = track.range(of: " signposts "), let number = Int(track[range.upperBound...]) {
            let thread = track[..<range.lowerBound] == "main thread" ? "main" : String(track[..<range.lowerBound])
            return "signpost \(thread) \(number - 1)"
        }
        if track.hasPrefix("thread ") { return "callback \(track)" }
        return nil
    }

    /// A slice's name as the page has it (launch windows are named by their kind in exports).
    static func name(_ name: String, lane: String) -> String { lane == "launch" ? "launch" : name }

    static func export(_ trace: Case, to format: ExportFormat, output: String) throws {
        var source = EventListSource(events: trace.events, symbols: trace.symbols)
        _ = try TraceExporter.export(&source, to: format, output: output)
    }

    /// chrome-json parsed as JSON: `B`/`E` pairs per thread (track), `X` with `dur`.
    static func chromeJSON(_ trace: Case, output: String) throws -> [Drawn] {
        try export(trace, to: .chromeJSON, output: output)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as! [String: Any]
        let events = document["traceEvents"] as! [[String: Any]]
        func ns(_ value: Any?) -> Int64 { Int64(((value as? Double) ?? 0) * 1000) }
        var tracks: [Int: String] = [:]
        var open: [Int: [(name: String, start: Int64)]] = [:]
        var drawn: [Drawn] = []
        for event in events {
            let tid = event["tid"] as? Int ?? 0
            switch event["ph"] as? String {
            case "M":
                if event["name"] as? String == "thread_name" {
                    tracks[tid] = (event["args"] as? [String: Any])?["name"] as? String
                }
            case "B":
                open[tid, default: []].append((event["name"] as? String ?? "", ns(event["ts"])))
            case "E":
                guard let begun = open[tid]?.popLast(), let lane = lane(track: tracks[tid] ?? "") else { continue }
                drawn.append(Drawn(lane: lane, name: name(begun.name, lane: lane), start: begun.start, end: ns(event["ts"])))
            case "X":
                guard let lane = lane(track: tracks[tid] ?? "") else { continue }
                let start = ns(event["ts"])
                drawn.append(Drawn(lane: lane, name: name(event["name"] as? String ?? "", lane: lane), start: start, end: start + ns(event["dur"])))
            default:
                break
            }
        }
        #expect(open.values.allSatisfy { $0.isEmpty }, "every slice ends")
        return drawn
    }

    struct PerfettoIntervals: Decodable {
        var intervals: [[Interval]]
        var problems: [String]

        enum Interval: Decodable {
            case text(String)
            case time(Int64)

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let time = try? container.decode(Int64.self) { self = .time(time) } else { self = .text(try container.decode(String.self)) }
            }

            var text: String { if case .text(let text) = self { text } else { "" } }
            var time: Int64 { if case .time(let time) = self { time } else { 0 } }
        }
    }

    /// The Perfetto export read by the official protos (scripts/readers/perfetto_summary.py
    /// `--intervals`); nil when the reader is missing outside CI.
    static func perfetto(_ trace: Case, output: String) throws -> [Drawn]? {
        guard ExternalReader.perfettoTestsEnabled else { return nil }
        guard ExternalReader.hasPerfettoProtos, let python = ExternalReader.python else {
            ExternalReader.requireMissing("the perfetto Python package (pip install perfetto)")
            return nil
        }
        try export(trace, to: .perfetto, output: output)
        let script = ExternalReader.repositoryRoot.appendingPathComponent("scripts/readers/perfetto_summary.py").path
        let result = ExternalReader.run(python, [script, output, "--intervals"])
        #expect(result.status == 0, "reader failed: \(result.error) \(result.output.prefix(1000))")
        let read = try JSONDecoder().decode(PerfettoIntervals.self, from: Data(result.output.utf8))
        #expect(read.problems == [])
        return read.intervals.compactMap { row in
            guard row.count == 5, let lane = lane(track: row[0].text) else { return nil }
            return Drawn(lane: lane, name: name(row[2].text, lane: lane), start: row[3].time, end: row[4].time)
        }
    }

    /// The CTF export decoded with the layout its own TSDL metadata declares (``CTFStreamReader``):
    /// the `interval`, `busy`, `state.span`, `stall` and `launch.window` records. (babeltrace2
    /// reads the same directory in the CTF export tests; its 2.0 releases print an empty string
    /// field with an earlier record's value, so names are compared from this decoding.)
    static func ctf(_ trace: Case, output: String) throws -> [Drawn]? {
        try export(trace, to: .ctf, output: output)
        let reader = try CTFStreamReader(directory: output)
        var drawn: [Drawn] = []
        for record in try reader.records() {
            func int(_ key: String) -> Int64 { record.fields[key]?.integer ?? 0 }
            func text(_ key: String) -> String { record.fields[key]?.text ?? "" }
            switch record.name {
            case "interval":
                let thread = ThreadID(rawValue: record.thread)
                let where_ = thread.isMain ? "main" : "thread \(thread)"
                var name = text("name")
                let lane: String
                switch reader.label(of: "kind", in: record) {
                case "callback": lane = "callback \(where_)"
                case "signpost": lane = "signpost \(where_) \(int("depth"))"
                default:
                    lane = "task \(int("depth") + 1)"
                    if name.isEmpty { name = "background task" }
                }
                drawn.append(Drawn(lane: lane, name: name, start: int("start"), end: int("end")))
            case "busy":
                drawn.append(Drawn(lane: "busy", name: "busy", start: int("start"), end: int("end")))
            case "state.span":
                let lane: String
                switch reader.label(of: "view", in: record) {
                case "system": lane = "state system"
                case "effective_app": lane = "state app"
                case "scene_app": lane = "state scene \(text("scene"))"
                case "scene_system": lane = "state scene-system \(text("scene"))"
                default: continue
                }
                drawn.append(Drawn(lane: lane, name: text("state"), start: int("start"), end: int("end")))
            case "stall":
                drawn.append(Drawn(lane: "stall", name: "stall", start: int("start"), end: int("start") + int("duration")))
            case "launch.window":
                drawn.append(Drawn(lane: "launch", name: "launch", start: int("start"), end: int("end")))
            default:
                break
            }
        }
        return drawn
    }
}
