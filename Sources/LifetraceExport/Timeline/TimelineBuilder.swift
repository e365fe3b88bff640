import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// Replays a trace through the ``LifecycleAnalyzer`` and turns its events and the analysis's
/// findings into timeline records, handed to a ``TimelineRecordWriter`` as they come.
///
/// Memory is bounded by what is open at once (callbacks per thread, signposts, tasks, scenes)
/// and by the analyzer's own findings, never by the number of events: a record is written as
/// soon as the event that makes it is read.
///
/// ```swift
/// var builder = TimelineBuilder(writer: writer, options: options)
/// try builder.start(metadata: reader.metadata)
/// while let event = try reader.next() { try builder.consume(event, symbols: reader.symbols) }
/// try builder.finish(symbols: reader.symbols)
/// ```
public struct TimelineBuilder<Writer: TimelineRecordWriter> {
    /// Per track: the last begin or end written (slices never go back in time on a track) and
    /// how many slices are open on it.
    struct TrackClock {
        var last: Int64 = .min
        var open = 0
    }

    /// A thread's track, the callbacks open on it (innermost last) and its signpost lanes.
    struct ThreadLane {
        var thread: ThreadID
        var track: Int
        var callbacks: [Symbol] = []
        var signposts = SliceLanes()
        /// Whether something opened on the thread in the current lifetime (it is in `touched`).
        var touched = false
    }

    /// A scene's tracks and the state shown on each.
    struct SceneLane {
        var scene: Symbol
        var appTrack: Int
        var systemTrack: Int?
        var app: SceneViewState?
        var system: LifecycleState?
    }

    /// The file format written to.
    public internal(set) var writer: Writer
    /// The analysis that runs alongside.
    public internal(set) var analyzer: LifecycleAnalyzer
    /// The names the records use: the fixed ``TimelineName``s, then the trace's strings.
    public internal(set) var names = TimelineName.table()
    /// How many records were written.
    public private(set) var recordCount = 0

    var exportedSymbols: [Symbol] = []
    var clocks: [TrackClock] = []
    var started = false
    var pid: Int64 = 1
    var lifetimesTrack = 0
    var systemTrack = 0
    var appTrack = 0
    var launchTrack = 0
    var busyTrack = 0
    var stallsTrack = 0
    var violationsTrack = 0
    var framesTrack = 0
    /// Every thread seen, the main thread first; `slots` finds the others.
    var threads: [ThreadLane] = []
    var slots: [ThreadID: Int] = [:]
    /// The threads where something opened in the current lifetime, the only ones to close at
    /// its end (a long trace has thousands of short-lived worker threads).
    var touched: [Int] = []
    var tasks = SliceLanes()
    var scenes: [SceneLane] = []
    var lifetime: Int?
    var systemShown: LifecycleState?
    var appShown: AppViewState?
    var busyOpen = false
    var findings = FindingsCursor()
    var lastTimestamp: Int64 = 0
    /// Callbacks deeper than this on one thread are not drawn (the analyzer's limit too).
    static var callbackDepthLimit: Int { 64 }

    /// A builder writing to `writer`, analysing with `options`.
    public init(writer: Writer, options: AnalysisOptions = AnalysisOptions()) {
        self.writer = writer
        analyzer = LifecycleAnalyzer(options: options)
    }

    /// Writes the file's header; call once, before the first event.
    public mutating func start(metadata: TraceMetadata) throws(ExportError) {
        try writer.start(metadata: metadata)
    }

    /// Replays one event and writes the records it makes. `symbols` is the reader's table.
    public mutating func consume(_ event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        if !started { try declareTracks(firstEvent: event) }
        analyzer.consume(event, symbols: symbols)
        lastTimestamp = event.timestamp
        if analyzer.lifetimeIndex != lifetime { try changeLifetime(at: event, symbols: symbols) }
        try draw(event, symbols: symbols)
        try updateViews(at: event.timestamp, scene: event.payload.scene, symbols: symbols)
        try reportFindings(symbols: symbols)
    }

    /// Ends the replay: closes what is open at the last event, writes the analysis's remaining
    /// findings and the file's end.
    public mutating func finish(symbols: SymbolTable) throws(ExportError) {
        if !started { try declareTracks(firstEvent: nil) }
        _ = analyzer.finish(symbols: symbols)
        try closeLifetime(at: lastTimestamp)
        try reportFindings(symbols: symbols)
        try writer.finish()
    }

    // MARK: - Tracks

    private mutating func declareTracks(firstEvent: TraceEvent?) throws(ExportError) {
        started = true
        if case .launch(_, _, _, let launchPid?)? = firstEvent?.payload, launchPid > 0, launchPid <= Int64(Int32.max) {
            pid = launchPid
        }
        _ = try declare(.process(pid: pid), name: "app")
        lifetimesTrack = try declare(.lane(parent: 0), name: "Lifetimes")
        systemTrack = try declare(.lane(parent: 0), name: "System view")
        appTrack = try declare(.lane(parent: 0), name: "App view")
        launchTrack = try declare(.lane(parent: 0), name: "Launch")
        busyTrack = try declare(.lane(parent: 0), name: "Main-thread busy")
        stallsTrack = try declare(.lane(parent: 0), name: "Stalls")
        violationsTrack = try declare(.lane(parent: 0), name: "Violations")
        framesTrack = try declare(.lane(parent: 0), name: "Frames")
        threads = [ThreadLane(thread: .main, track: try declare(.thread(.main, tid: pid), name: "main thread"))]
    }

    /// Declares a track and returns its index.
    mutating func declare(_ kind: TimelineTrack.Kind, name: String) throws(ExportError) -> Int {
        let index = clocks.count
        clocks.append(TrackClock())
        try writer.declare(TimelineTrack(index: index, kind: kind, name: name))
        return index
    }

    /// The slot of `thread` in `threads`, its track declared on first use.
    mutating func slot(_ thread: ThreadID) throws(ExportError) -> Int {
        if thread.isMain { return 0 }
        if let slot = slots[thread] { return slot }
        let tid = pid &+ Int64(truncatingIfNeeded: thread.rawValue)
        let track = try declare(.thread(thread, tid: tid), name: Self.name(of: thread))
        threads.append(ThreadLane(thread: thread, track: track))
        slots[thread] = threads.count - 1
        return threads.count - 1
    }

    /// The track of `thread`, declared on first use.
    mutating func threadTrack(_ thread: ThreadID) throws(ExportError) -> Int {
        threads[try slot(thread)].track
    }

    /// Notes that something opened on the thread in `slot` in this lifetime.
    mutating func touch(_ slot: Int) {
        if threads[slot].touched { return }
        threads[slot].touched = true
        touched.append(slot)
    }

    /// The name of a thread's track.
    static func name(of thread: ThreadID) -> String { thread.isMain ? "main thread" : "thread \(thread)" }

    // MARK: - Names

    /// The name-table symbol for a trace symbol (``Symbol/none`` stays none).
    mutating func exported(_ symbol: Symbol, symbols: SymbolTable) -> Symbol {
        if symbol.isNone { return .none }
        let index = Int(symbol.rawValue)
        if index < exportedSymbols.count, !exportedSymbols[index].isNone { return exportedSymbols[index] }
        if index >= exportedSymbols.count {
            exportedSymbols.append(contentsOf: repeatElement(.none, count: index + 1 - exportedSymbols.count))
        }
        let mapped = names.intern(symbols[symbol])
        exportedSymbols[index] = mapped
        return mapped
    }

    // MARK: - Records

    /// Opens a slice; it never starts before the track's last record.
    mutating func begin(
        _ track: Int, at timestamp: Int64, name: Symbol, category: TimelineCategory, args: TimelineArgs = TimelineArgs()
    ) throws(ExportError) {
        let time = max(timestamp, clocks[track].last)
        clocks[track].last = time
        clocks[track].open += 1
        try write(TimelineRecord(.begin, track: track, at: time, name: name, category: category, args: args))
    }

    /// Closes the track's innermost slice; nothing when none is open.
    mutating func end(_ track: Int, at timestamp: Int64, category: TimelineCategory) throws(ExportError) {
        guard clocks[track].open > 0 else { return }
        let time = max(timestamp, clocks[track].last)
        clocks[track].last = time
        clocks[track].open -= 1
        try write(TimelineRecord(.end, track: track, at: time, category: category))
    }

    /// Writes an instant.
    mutating func instant(
        _ track: Int, at timestamp: Int64, name: Symbol, category: TimelineCategory, args: TimelineArgs = TimelineArgs()
    ) throws(ExportError) {
        try write(TimelineRecord(.instant, track: track, at: timestamp, name: name, category: category, args: args))
    }

    /// Writes a slice whose end is known.
    mutating func complete(
        _ track: Int, from start: Int64, to end: Int64, name: Symbol, category: TimelineCategory,
        args: TimelineArgs = TimelineArgs()
    ) throws(ExportError) {
        let record = TimelineRecord(
            .complete(duration: max(0, end - start)), track: track, at: start, name: name, category: category,
            args: args)
        try write(record)
    }

    private mutating func write(_ record: TimelineRecord) throws(ExportError) {
        recordCount += 1
        try writer.write(record, names: names)
    }
}

extension EventPayload {
    /// The scene an event is about, or ``Symbol/none``.
    var scene: Symbol {
        switch self {
        case .state(_, let scene), .callbackBegin(_, let scene), .callbackEnd(_, let scene): scene
        default: .none
        }
    }
}
