import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
import Testing

/// The replay into tracks and records, seen through a writer that keeps everything in memory.
@Suite("Timeline builder")
struct TimelineBuilderTests {
    /// Keeps tracks and records as text: `track begin name`, `track end`, `track instant name`.
    struct RecordingWriter: TimelineRecordWriter {
        var tracks: [TimelineTrack] = []
        var lines: [String] = []
        var finished = false

        mutating func start(metadata: TraceMetadata) throws(ExportError) {}
        mutating func declare(_ track: TimelineTrack) throws(ExportError) { tracks.append(track) }
        mutating func write(_ record: TimelineRecord, names: SymbolTable) throws(ExportError) {
            let track = tracks[record.track].name
            switch record.phase {
            case .begin: lines.append("\(track) begin \(names[record.name]) @\(record.timestamp)")
            case .end: lines.append("\(track) end @\(record.timestamp)")
            case .instant: lines.append("\(track) instant \(names[record.name]) @\(record.timestamp)")
            case .complete(let duration): lines.append("\(track) complete \(names[record.name]) @\(record.timestamp)+\(duration)")
            }
        }
        mutating func finish() throws(ExportError) { finished = true }

        func on(_ track: String) -> [String] {
            lines.filter { $0.hasPrefix(track + " ") }.map { String($0.dropFirst(track.count + 1)) }
        }
    }

    static func build(_ make: (inout SymbolTable) -> [TraceEvent]) throws -> RecordingWriter {
        var symbols = SymbolTable()
        let events = make(&symbols)
        var builder = TimelineBuilder(writer: RecordingWriter())
        try builder.start(metadata: TraceMetadata())
        for event in events { try builder.consume(event, symbols: symbols) }
        try builder.finish(symbols: symbols)
        return builder.writer
    }

    @Test("Fixed tracks come first, in order; the process is track 0")
    func trackOrder() throws {
        let writer = try Self.build { symbols in
            [TraceEvent(timestamp: 1, payload: .launch(reason: symbols.intern("user"), background: false, prewarm: false, pid: 9))]
        }
        #expect(writer.tracks.map(\.name) == [
            "app", "Lifetimes", "System view", "App view", "Launch", "Main-thread busy", "Stalls", "Violations",
            "Frames", "main thread",
        ])
        #expect(writer.tracks[0].kind == .process(pid: 9))
        #expect(writer.tracks[9].kind == .thread(.main, tid: 9))
        #expect(writer.finished)
    }

    @Test("An end whose begin is missing becomes an instant; an inner callback left open closes with its parent")
    func repairsNesting() throws {
        let writer = try Self.build { symbols in
            let outer = symbols.intern("didFinishLaunching")
            let inner = symbols.intern("custom")
            let stray = symbols.intern("willResignActive")
            return [
                TraceEvent(timestamp: 10, payload: .callbackBegin(name: outer, scene: .none)),
                TraceEvent(timestamp: 11, payload: .callbackBegin(name: inner, scene: .none)),
                TraceEvent(timestamp: 12, payload: .callbackEnd(name: outer, scene: .none)),
                TraceEvent(timestamp: 13, payload: .callbackEnd(name: stray, scene: .none)),
            ]
        }
        #expect(writer.on("main thread") == [
            "begin didFinishLaunching @10", "begin custom @11", "end @12", "end @12", "instant end without begin @13",
        ])
    }

    @Test("Overlapping signposts take separate lanes of their thread; a lane is reused once free; an end on another thread matches nothing")
    func signpostLanes() throws {
        let writer = try Self.build { symbols in
            let a = symbols.intern("a")
            let b = symbols.intern("b")
            let worker = ThreadID.numbered(2)
            return [
                TraceEvent(timestamp: 10, payload: .signpostBegin(name: a, id: 1), thread: worker),
                TraceEvent(timestamp: 11, payload: .signpostBegin(name: b, id: 2), thread: worker),
                TraceEvent(timestamp: 12, payload: .signpostEnd(name: a, id: 1), thread: worker),
                TraceEvent(timestamp: 13, payload: .signpostBegin(name: a, id: 3), thread: worker),
                TraceEvent(timestamp: 14, payload: .signpostEnd(name: b, id: 2), thread: .main),
                TraceEvent(timestamp: 15, payload: .signpostEnd(name: a, id: 3), thread: worker),
            ]
        }
        #expect(writer.on("thread 2 signposts 1") == ["begin a @10", "end @12", "begin a @13", "end @15"])
        // The analyzer matches a signpost's end on its own thread only: the end on the main thread
        // matches nothing, and the signpost lasts to the end of the lifetime.
        #expect(writer.on("thread 2 signposts 2") == ["begin b @11", "end @15"])
        #expect(writer.on("main thread") == ["instant end without begin @14"])
        let lane = try #require(writer.tracks.first { $0.name == "thread 2 signposts 1" })
        let thread = try #require(writer.tracks.first { $0.name == "thread 2" })
        #expect(lane.kind == .lane(parent: thread.index))
    }

    @Test("A timestamp going back does not make a slice end before it began")
    func monotonicTracks() throws {
        let writer = try Self.build { symbols in
            [
                TraceEvent(timestamp: 100, payload: .runloopWake),
                TraceEvent(timestamp: 90, payload: .runloopSleep),
            ]
        }
        #expect(writer.on("Main-thread busy") == ["begin busy @100", "end @100"])
    }

    @Test("Everything open closes at the exit; the next lifetime starts afresh")
    func lifetimeBoundaries() throws {
        let writer = try Self.build { symbols in
            let user = symbols.intern("user")
            let work = symbols.intern("work")
            return [
                TraceEvent(timestamp: 0, payload: .launch(reason: user, background: false, prewarm: false, pid: nil)),
                TraceEvent(timestamp: 5, payload: .runloopWake),
                TraceEvent(timestamp: 6, payload: .signpostBegin(name: work, id: nil)),
                TraceEvent(timestamp: 7, payload: .bgtaskBegin(id: 4, name: .none)),
                TraceEvent(timestamp: 50, payload: .exit(code: nil, signal: 9)),
                TraceEvent(timestamp: 60, payload: .launch(reason: user, background: true, prewarm: false, pid: nil)),
            ]
        }
        #expect(writer.on("Lifetimes") == [
            "begin lifetime 0 @0", "instant launch @0", "instant exit @50", "end @50", "begin lifetime 1 @60",
            "instant launch @60", "end @60",
        ])
        #expect(writer.on("Main-thread busy") == ["begin busy @5", "end @50"])
        #expect(writer.on("main thread signposts 1") == ["begin work @6", "end @50"])
        #expect(writer.on("Background tasks 1") == ["begin background task @7", "end @50"])
        // Neither lifetime has `state` events: an in-app recording has no system view to draw.
        #expect(writer.on("System view").isEmpty)
        #expect(writer.on("Launch").first == "complete launch (cold, never finished) @0+50")
    }

    @Test("The system view is drawn for the lifetimes with state events only, as on the page")
    func systemViewOnlyWithStateEvents() throws {
        let writer = try Self.build { symbols in
            let user = symbols.intern("user")
            return [
                // A lifetime recorded with `state` events: its system view is drawn from the launch.
                TraceEvent(timestamp: 0, payload: .launch(reason: user, background: false, prewarm: false, pid: nil)),
                TraceEvent(timestamp: 20, payload: .state(to: .active, scene: .none)),
                TraceEvent(timestamp: 50, payload: .exit(code: nil, signal: 9)),
                // One recorded in the app: none.
                TraceEvent(timestamp: 60, payload: .launch(reason: user, background: false, prewarm: false, pid: nil)),
                TraceEvent(timestamp: 70, payload: .exit(code: nil, signal: 9)),
                // `state` events that never move the state still make a system view, known at the end.
                TraceEvent(timestamp: 80, payload: .launch(reason: user, background: true, prewarm: false, pid: nil)),
                TraceEvent(timestamp: 81, payload: .state(to: .background, scene: .none)),
                TraceEvent(timestamp: 90, payload: .exit(code: nil, signal: 9)),
            ]
        }
        #expect(writer.on("System view") == [
            "begin inactive @0", "end @20", "begin active @20", "end @50", "begin background @80", "end @90",
        ])
        #expect(writer.on("App view").count == 6)
    }
}
