import Atomics
import Foundation
import LifetraceFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Records an app's events into a shared-memory region, from any thread, without locks,
/// allocations or system calls on the calling thread.
///
/// Each thread gets its own single-producer ring in the region the first time it records
/// (found again through a pthread-specific slot). A record is written in place and published by a
/// release store of the ring's head; when the ring is full the event is dropped and counted, and
/// the count reaches the trace as a `dropped` event. Whoever drains the region writes the trace:
/// the `lifetrace record` supervisor when the app runs under it (the region's path is in
/// ``RecorderRegion/environmentKey``), or the recorder's own writer thread otherwise.
///
/// ```swift
/// let recorder = try Recorder.start(.init(output: .file("launch.ltrace")))
/// let interval = recorder.begin("LoadDatabase")
/// loadDatabase()
/// interval.end()
/// ```
public final class Recorder: @unchecked Sendable {
    /// The region the recorder writes into.
    public let region: RecorderRegion
    let names: NameTable
    private let key: pthread_key_t
    private let writer: StandaloneWriter?

    /// A recorder writing into `region`, drained by someone else (the supervisor, or a test).
    public init(region: RecorderRegion) {
        self.region = region
        names = NameTable(region: region)
        key = Recorder.makeKey()
        writer = nil
        region.setProducerPID(getpid())
    }

    /// A recorder that drains its own region on a writer thread into `sink`, flushing at least
    /// every `flushInterval`. With `processFacts`, the trace starts with a `launch` event at the
    /// process's start time as the kernel reports it (``ProcessStart``), with the pid and
    /// `launchFacts` (by default what the platform reports, ``LaunchFacts/current(environment:)``).
    ///
    /// With `tracePath` (the file `sink` writes), the region is a file beside it
    /// (``TraceRecovery/regionPath(forTrace:)``) whose ring slots are handed back only once their
    /// events are in the trace file: a kill at any instruction leaves every returned record in
    /// one of the two, and ``TraceRecovery`` seals the trace from them.
    public convenience init(
        layout: RegionLayout = RegionLayout(), sink: any TraceEventSink, flushInterval: Duration = .milliseconds(100),
        processFacts: Bool = false, tracePath: String? = nil, launchFacts: LaunchFacts? = nil
    ) throws(RecorderError) {
        try self.init(
            layout: layout, sink: sink, flushInterval: flushInterval, processFacts: processFacts, tracePath: tracePath,
            launchFacts: launchFacts, region: nil)
    }

    /// A recorder as above whose region beside `tracePath` was made already (`region`): made
    /// before the trace file, a kill between the two leaves a region whose trace does not exist
    /// yet, which recovery removes, rather than a trace that nothing beside it can seal.
    init(
        layout: RegionLayout, sink: any TraceEventSink, flushInterval: Duration, processFacts: Bool,
        tracePath: String?, launchFacts: LaunchFacts?, region given: RecorderRegion?
    ) throws(RecorderError) {
        if let given {
            region = given
        } else if let tracePath {
            region = try RecorderRegion.create(path: TraceRecovery.regionPath(forTrace: tracePath), layout: layout)
        } else {
            region = try RecorderRegion.anonymous(layout: layout)
        }
        names = NameTable(region: region)
        key = Recorder.makeKey()
        region.setProducerPID(getpid())
        var launch: EventPayload?
        if processFacts {
            region.setLaunchTimestamp(ProcessStart.monotonicTimestamp() ?? MonotonicClock.now())
            let facts = launchFacts ?? .current()
            launch = .launch(
                reason: .none, background: facts.launchesInBackground, prewarm: facts.prewarm, pid: Int64(getpid()))
        }
        writer = StandaloneWriter(
            region: region, sink: sink, flushInterval: flushInterval, launch: launch, tracePath: tracePath)
        try writer?.start()
    }

    deinit {
        // Threads that still hold a ring keep their state; deleting the key stops its destructor
        // from touching the region after it is unmapped.
        pthread_key_delete(key)
    }

    /// Stops a standalone recorder: drains what is left, writes it and closes the sink.
    /// Does nothing for a recorder drained by someone else.
    public func stop() throws(RecorderError) {
        // A leftover recovery still running stops between events and leaves its trace as it was.
        if self === Recorder.shared { Recorder.leftoverRecovery.load()?.stop() }
        try writer?.stop()
    }

    /// Whether a supervisor drains this recorder (it attached to a region from the environment).
    public var isSupervised: Bool { writer == nil && region.path != nil }

    private static func makeKey() -> pthread_key_t {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { argument in
            // The argument is optional in Glibc's declaration and not in Darwin's: one binding
            // reads both (a thread's value is never nil here, the destructor runs only for set ones).
            let pointer: UnsafeMutableRawPointer? = argument
            guard let pointer else { return }
            let state = pointer.assumingMemoryBound(to: ThreadRing.self)
            state.pointee.retire()
            state.deinitialize(count: 1)
            state.deallocate()
        }
        precondition(status == 0, "pthread_key_create failed")
        return key
    }

    // MARK: Hot path

    /// Stamps and writes one record for the calling thread.
    @inline(__always)
    func record(_ type: EventType, name: UInt32 = 0, scene: UInt32 = 0, value: Int64 = 0, flags: UInt8 = 0) {
        let timestamp = MonotonicClock.now()
        let state: UnsafeMutablePointer<ThreadRing>
        if let raw = pthread_getspecific(key) {
            state = raw.assumingMemoryBound(to: ThreadRing.self)
        } else {
            state = registerThread()
        }
        state.pointee.write(timestamp: timestamp, type: type, name: name, scene: scene, value: value, flags: flags)
    }

    /// The first record of a thread: claims a ring and remembers it in the thread's slot.
    @inline(never)
    private func registerThread() -> UnsafeMutablePointer<ThreadRing> {
        let state = UnsafeMutablePointer<ThreadRing>.allocate(capacity: 1)
        state.initialize(to: ThreadRing.claim(in: region))
        pthread_setspecific(key, state)
        return state
    }

    // MARK: Names

    /// The name `string` as recorded in events; interning takes a lock, so keep the result.
    public func name(_ string: String) -> RecordedName {
        RecordedName(rawValue: names.intern(string))
    }

    /// The name `string` as recorded in events, found without a lock after its first use.
    @inline(__always)
    public func name(_ string: StaticString) -> RecordedName {
        RecordedName(rawValue: names.id(for: string))
    }
}

extension Recorder {
    /// The recorder of the process, set by ``start(_:)``.
    public static var shared: Recorder? { sharedReference.load() }

    private static let sharedReference = ManagedAtomicLazyReference<Recorder>()
    /// The recovery of earlier runs' leftovers beside the shared recorder's trace.
    static let leftoverRecovery = ManagedAtomicLazyReference<LeftoverRecovery>()

    /// Starts the process's recorder: under `lifetrace record` it records into the supervisor's
    /// region (named by ``RecorderRegion/environmentKey``); otherwise it writes `options.output`
    /// itself, with the launch facts (``RecorderOptions/launchFacts``) and the moment it started
    /// (metadata ``LaunchFacts/recordingStartKey``). `LIFETRACE_OUTPUT`, when set, replaces
    /// `options.output` (``RecorderOutput/fromEnvironment(_:home:pid:now:)``). A second call
    /// returns the recorder of the first.
    @discardableResult
    public static func start(_ options: RecorderOptions = RecorderOptions()) throws(RecorderError) -> Recorder {
        if let existing = shared { return existing }
        let options = options.applyingEnvironment()
        let recordingStart = MonotonicClock.now()
        let recorder: Recorder
        var leftovers: LeftoverRecovery?
        if let path = ProcessInfo.processInfo.environment[RecorderRegion.environmentKey], !path.isEmpty {
            recorder = Recorder(region: try RecorderRegion.attach(path: path))
        } else {
            let codec = options.codec ?? RawBlockCodec()
            var tracePath: String?
            if case .file(let path) = options.output {
                // Before anything opens it: a FIFO would hold the app's start until a reader came.
                try RecorderOutput.refuseNonRegularFile(path)
                tracePath = path
                // A leftover at this very path is sealed before this run writes there; the other
                // leftovers in the directory are recovered once the recorder runs (below).
                do throws(RecoveryError) {
                    _ = try TraceRecovery.recover(tracePath: path, codec: codec)
                } catch where error.kind == .processAlive || error.kind == .beingRecovered {
                    // Left to its process or its recoverer.
                } catch {
                    StandardError.write("lifetrace recorder: \(error.description)\n")
                }
                // A region that could not be recovered (a live process records to the same path)
                // is not taken over: this run then records without one beside its trace.
                if access(TraceRecovery.regionPath(forTrace: path), F_OK) == 0 { tracePath = nil }
                let directory = (path as NSString).deletingLastPathComponent
                leftovers = LeftoverRecovery(directory: directory.isEmpty ? "." : directory, skipping: path, codec: codec)
            }
            let facts = options.launchFacts ?? .current()
            var metadata = options.metadata
            for field in facts.metadataFields(recordingStart: recordingStart) where metadata[field.key] == nil {
                metadata[field.key] = field.value
            }
            // The region first, then the trace: whatever instruction a kill stops at, the trace
            // that exists has its region beside it (docs/RELIABILITY.md).
            let region = try tracePath.map { path throws(RecorderError) in
                do throws(RecorderError) {
                    return try RecorderRegion.create(path: TraceRecovery.regionPath(forTrace: path), layout: options.layout)
                } catch where error.kind == .openFailed && [ENOENT, ENOTDIR, EACCES, EROFS].contains(error.errno) {
                    // The directory cannot take the trace either: said of the trace, as the user named it.
                    throw RecorderError(.writeFailed, path: path, errno: 0, detail: "cannot create: " + String(cString: strerror(error.errno)))
                }
            }
            // One identity in both, so that a recovery proves the file is this region's trace.
            if let region { metadata[RecorderRegion.traceIdentityKey] = region.makeTraceIdentity() }
            do {
                let sink = try options.output.makeSink(metadata: metadata, codec: codec)
                recorder = try Recorder(
                    layout: options.layout, sink: sink, flushInterval: options.flushInterval, processFacts: true,
                    tracePath: tracePath, launchFacts: facts, region: region)
            } catch {
                region?.unlink()
                throw error
            }
        }
        let shared = sharedReference.storeIfNilThenLoad(recorder)
        if shared === recorder && !recorder.isSupervised {
            recorder.installExitHandlers()
            // Off the app's start path: the recorder records while earlier runs' traces are sealed.
            if let leftovers, leftoverRecovery.storeIfNilThenLoad(leftovers) === leftovers { leftovers.start() }
        }
        if shared === recorder,
            let sampling = StallSampling.resolve(options.stallSampling, environment: ProcessInfo.processInfo.environment)
        {
            StallSampler.start(recorder: recorder, sampling: sampling)
        }
        return shared
    }
}
