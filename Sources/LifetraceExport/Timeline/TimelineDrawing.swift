import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// The tracks of an exported timeline and the records written on them, drawn from the
/// analyzer's edges (``TimelineDrawing+Edges.swift``).
struct TimelineDrawing<Writer: TimelineRecordWriter> {
    /// Per track: the last begin or end written (slices never go back in time on a track) and
    /// how many slices are open on it.
    struct TrackClock {
        var last: Int64 = .min
        var open = 0
    }

    /// A thread's track and its signpost lanes.
    struct ThreadLane {
        var thread: ThreadID
        var track: Int
        var signposts = SliceLanes()
    }

    /// A scene's tracks: its app view, and its system view once it has one.
    struct SceneLane {
        var scene: Symbol
        var appTrack: Int
        var systemTrack: Int?
    }

    /// The file format written to.
    var writer: Writer
    /// The names the records use: the fixed ``TimelineName``s, then the trace's strings.
    var names = TimelineName.table()
    /// How many records were written.
    private(set) var recordCount = 0

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
    var tasks = SliceLanes()
    var scenes: [SceneLane] = []
    /// Each scene's position in `scenes`, by name.
    var sceneLanes: [Symbol: Int] = [:]
    /// The stalls and the violations about them, drawn at the end with their samples' blame.
    var heldStallEvidence = HeldStallEvidence()
    /// The system-view states held until their lifetime shows it has a system view.
    var systemView = SystemViewGate()

    /// How many lifetimes get a slice name of their own (`lifetime 12`); later ones are `lifetime`.
    static var namedLifetimeLimit: Int { CappedCounts.lifetimeLimit }

    init(writer: Writer) {
        self.writer = writer
    }

    // MARK: - Tracks

    /// Declares the process's tracks; `launchPid` is the pid of the trace's first lifetime's
    /// launch (``LaunchFacts/pid``), when it has one a track can take.
    mutating func declareTracks(launchPid: Int64?) throws(ExportError) {
        started = true
        if let launchPid, launchPid > 0, launchPid <= Int64(Int32.max) {
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

    /// The position of `scene` in `scenes`, its app-view track declared on first use.
    mutating func sceneLane(_ scene: Symbol, symbols: SymbolTable) throws(ExportError) -> Int {
        if let found = sceneLanes[scene] { return found }
        let track = try declare(.lane(parent: 0), name: "Scene \(symbols[scene])")
        scenes.append(SceneLane(scene: scene, appTrack: track))
        sceneLanes[scene] = scenes.count - 1
        return scenes.count - 1
    }

    /// The track of a scene's system view, declared on first use.
    mutating func sceneSystemTrack(_ scene: Symbol, symbols: SymbolTable) throws(ExportError) -> Int {
        let index = try sceneLane(scene, symbols: symbols)
        if let track = scenes[index].systemTrack { return track }
        let track = try declare(.lane(parent: 0), name: "Scene \(symbols[scene]) (system view)")
        scenes[index].systemTrack = track
        return track
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
