import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// Writes a trace as CTF 1.8, the Common Trace Format that babeltrace2 and Trace Compass read:
/// a directory holding the TSDL `metadata` text and one binary data stream, `stream_0`.
///
/// Every trace event becomes one event record of the class named like its type; what the
/// analysis derived from it follows, from the analyzer's edges: `violation`, `stall` and
/// `launch.window` records for its findings, `interval`, `busy` and `state.span` records for the
/// intervals the HTML timeline and the other exports draw, each written when it ends. They are
/// stamped at the event that revealed them, with their own times in fields. See docs/EXPORT.md
/// for the field list.
public struct CTFTraceWriter {
    /// The ends of a launch window in `window_end_t` order.
    static let windowEnds: [LaunchWindowEnd] = [.firstFrame, .firstActive, .didFinishLaunching, .open]
    /// The views of `state` records in `view_t` order.
    static let views = ["system", "app", "effective_app", "trusted", "scene_system", "scene_app"]

    /// The directory written.
    public let directory: String
    private let metadata: TraceMetadata
    private var stream: CTFPacketStream
    private let streamFile: ExportOutputFile
    private var lastTimestamp: Int64 = 0
    private var metadataByteCount: Int64 = 0
    /// The stalls and the violations about them, written at the end with their samples' blame.
    private var heldStallEvidence = HeldStallEvidence()
    /// The system-view states held until their lifetime shows it has a system view.
    private var systemView = SystemViewGate()

    /// How many event records were written.
    public var recordCount: Int { stream.eventCount }

    /// How many bytes were written (stream and metadata).
    public var byteCount: Int64 { streamFile.byteCount + metadataByteCount }

    /// Creates `directory` (and its parents) and the stream file in it.
    public init(directory: String, metadata: TraceMetadata) throws(ExportError) {
        self.directory = directory
        self.metadata = metadata
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw ExportError(output: directory, "cannot create the directory: \(error.localizedDescription)")
        }
        streamFile = try ExportOutputFile(path: directory + "/stream_0")
        stream = CTFPacketStream(output: streamFile)
    }

    /// Writes one trace event.
    public mutating func append(_ event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        lastTimestamp = event.timestamp
        stream.beginEvent(
            classID: event.type.rawValue, timestamp: event.timestamp, stream: event.stream.rawValue,
            thread: event.thread.rawValue)
        switch event.payload {
        case .launch(let reason, let background, let prewarm, let pid):
            stream.appendString(symbols[reason])
            stream.appendUInt8(background ? 1 : 0)
            stream.appendUInt8(prewarm ? 1 : 0)
            stream.appendUInt8(pid == nil ? 0 : 1)
            stream.appendInt64(pid ?? 0)
        case .state(let to, let scene):
            stream.appendUInt8(to.rawValue)
            stream.appendString(symbols[scene])
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
            stream.appendString(symbols[name])
            stream.appendString(symbols[scene])
        case .runloopWake, .runloopSleep:
            break
        case .signpostBegin(let name, let id), .signpostEnd(let name, let id):
            stream.appendString(symbols[name])
            stream.appendUInt8(id == nil ? 0 : 1)
            stream.appendInt64(id ?? 0)
        case .mark(let name):
            stream.appendString(symbols[name])
        case .frame(let first):
            stream.appendUInt8(first.map { $0 ? 2 : 1 } ?? 0)
        case .bgtaskBegin(let id, let name), .bgtaskEnd(let id, let name), .bgtaskExpire(let id, let name):
            stream.appendInt64(id)
            stream.appendString(symbols[name])
        case .exit(let code, let signal):
            stream.appendUInt8(code == nil ? 0 : 1)
            stream.appendInt32(code ?? 0)
            stream.appendUInt8(signal == nil ? 0 : 1)
            stream.appendInt32(signal ?? 0)
        case .dropped(let count):
            stream.appendInt64(count)
        }
        try stream.endEvent()
    }

    /// Writes a violation found by the analysis.
    mutating func append(_ violation: Violation) throws(ExportError) {
        beginFinding(CTFEventClass.violationID, at: violation.timestamp)
        stream.appendString(violation.rule.id)
        stream.appendUInt8(UInt8(Severity.allCases.firstIndex(of: violation.severity)!))
        stream.appendString(violation.message)
        stream.appendInt64(violation.timestamp)
        stream.appendUInt64(UInt64(violation.lifetime))
        try stream.endEvent()
    }

    /// Writes a launch window.
    private mutating func append(_ window: LaunchWindow) throws(ExportError) {
        let launch = window.launch
        beginFinding(CTFEventClass.launchWindowID, at: window.start)
        stream.appendUInt8(UInt8(LaunchKind.allCases.firstIndex(of: launch.kind)!))
        stream.appendInt64(window.start)
        stream.appendUInt8(launch.duration == nil ? 0 : 1)
        stream.appendInt64(launch.duration ?? 0)
        stream.appendUInt8(UInt8(Self.windowEnds.firstIndex(of: launch.windowEnd)!))
        stream.appendInt64(launch.busyInWindow)
        stream.appendUInt64(UInt64(window.lifetime))
        stream.appendInt64(window.end)
        try stream.endEvent()
    }

    /// Writes a stall with what it is blamed on: the work and intervals, and the in-app function
    /// its stack samples were in (`samples`, the line `check` appends; empty without one).
    private mutating func append(_ stall: Stall, lifetime: Int, samples: StallProfile?) throws(ExportError) {
        beginFinding(CTFEventClass.stallID, at: stall.start)
        stream.appendInt64(stall.start)
        stream.appendInt64(stall.duration)
        stream.appendUInt8(stall.unfinished ? 1 : 0)
        // The work the stall is blamed on comes first, with its chain; then every interval.
        let work = stall.work.map { "\($0.chainText) (\($0.kind.rawValue), \(DurationFormat.fixed.string($0.duration))); " } ?? ""
        stream.appendString(work + stall.blame.map { "\($0.name) (\($0.kind.rawValue), \(DurationFormat.fixed.string($0.duration)))" }.joined(separator: ", "))
        stream.appendUInt64(UInt64(lifetime))
        stream.appendString(samples?.blameLine ?? "")
        try stream.endEvent()
    }

    /// Writes the stalls and the violations about them held until the trace's stack samples
    /// were read (`stacks`, named by `names`; ``HeldStallEvidence``), then the last packet and the
    /// metadata file.
    public mutating func finish(stacks: SampledStacks = SampledStacks(), names: TraceSymbolNames? = nil) throws(ExportError) {
        for (edge, profile) in heldStallEvidence.release(stacks: stacks, names: names) {
            if case .stall(let stall, let lifetime) = edge {
                try append(stall, lifetime: lifetime, samples: profile)
            } else if case .finding(let violation) = edge {
                try append(violation)
            }
        }
        try stream.finish()
        let file = try ExportOutputFile(path: directory + "/metadata")
        try file.write(CTFMetadata.text(metadata: metadata))
        try file.commit()
        metadataByteCount = file.byteCount
    }

    private mutating func beginFinding(_ classID: UInt8, at timestamp: Int64, thread: ThreadID = .main) {
        // Stamped no earlier than the event that revealed the finding (the stream clock only
        // moves forward); the finding's own time is in its fields.
        stream.beginEvent(classID: classID, timestamp: max(timestamp, lastTimestamp), stream: 2, thread: thread.rawValue)
    }
}

extension CTFTraceWriter: LifecycleEdgeSink {
    /// Writes the record of an edge that completes something: a finding, an interval, a busy
    /// interval or a state's stretch.
    public mutating func receive(_ edge: LifecycleEdge, symbols: SymbolTable) throws(ExportError) {
        if heldStallEvidence.hold(edge) { return }
        // An in-app recording has no system view: its lifetimes' system-view states are not written.
        let gate = systemView.admit(edge)
        for change in gate.released { try append(change, symbols: symbols) }
        if gate.holds { return }
        switch edge {
        case .finding(let violation):
            try append(violation)
        case .stall(let stall, let lifetime):
            try append(stall, lifetime: lifetime, samples: nil)
        case .launchWindowEnded(let window):
            try append(window)
        case .intervalEnded(let interval, let end, let how):
            beginFinding(CTFEventClass.intervalID, at: end, thread: interval.thread)
            stream.appendUInt8(interval.kind.rawValue)
            stream.appendString(symbols[interval.name])
            stream.appendString(symbols[interval.scene])
            let id: Int64? = interval.kind == .callback ? nil : (interval.kind == .signpost ? interval.signpostID : interval.key)
            stream.appendUInt8(id == nil ? 0 : 1)
            stream.appendInt64(id ?? 0)
            // The lane the page and the other exports draw it on: its depth while its kind nests.
            stream.appendUInt64(UInt64(interval.lane))
            stream.appendInt64(interval.begin)
            stream.appendInt64(end)
            stream.appendUInt8(how.rawValue)
            try stream.endEvent()
        case .busyEnded(let start, let end):
            beginFinding(CTFEventClass.busyID, at: end)
            stream.appendInt64(start)
            stream.appendInt64(end)
            try stream.endEvent()
        case .stateChanged(let change):
            try append(change, symbols: symbols)
        case .lifetimeBegan, .launchInferred, .launchTimed, .intervalBegan, .point, .busyBegan, .launchWindowClosed,
            .lifetimeEnded:
            break
        }
    }

    /// A `state` record for the state `change` ended, if it ended one.
    private mutating func append(_ change: StateChange, symbols: SymbolTable) throws(ExportError) {
        guard let from = change.from, let since = change.since else { return }
        beginFinding(CTFEventClass.stateID, at: change.timestamp)
        let (view, scene) = Self.view(change.view)
        stream.appendUInt8(view)
        stream.appendString(symbols[scene])
        stream.appendString(from.name)
        stream.appendInt64(since)
        stream.appendInt64(change.timestamp)
        try stream.endEvent()
    }

    /// A view's `view_t` code and its scene (``Symbol/none`` for the app's own views).
    private static func view(_ view: LifecycleView) -> (UInt8, Symbol) {
        switch view {
        case .system: (0, .none)
        case .app: (1, .none)
        case .effectiveApp: (2, .none)
        case .trusted: (3, .none)
        case .sceneSystem(let scene): (4, scene)
        case .sceneApp(let scene): (5, scene)
        }
    }
}
