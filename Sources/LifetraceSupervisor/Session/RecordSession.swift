import Foundation
import LifecycleHost
import LifetraceFormat
import LifetraceRecorder

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One recorded run: spawns the app, plays the system's part of a scenario, and writes one trace
/// holding the system stream (`launch`, `state`, `exit`, written here) and the app stream
/// (drained from the app's shared-memory region, continuously and after the app died).
///
/// Everything happens on the calling thread: every wait polls the control channel and the child
/// with a short timeout and drains the region in between, so no wait can hang.
public final class RecordSession {
    /// What to run and how.
    public struct Configuration: Sendable {
        /// The app's executable (a path, or a name looked up in `PATH`).
        public var executable: String
        /// The app's arguments.
        public var arguments: [String]
        /// The scenario to play.
        public var scenario: Scenario
        /// Faults to inject.
        public var faults: [RecordFault]
        /// Extra environment for the app.
        public var environment: [String: String]
        /// The size of the app's region.
        public var layout: RegionLayout
        /// Where the region's file is created.
        public var regionDirectory: String

        /// A configuration running `executable` under `scenario`.
        public init(
            executable: String, arguments: [String] = [], scenario: Scenario = .standard, faults: [RecordFault] = [],
            environment: [String: String] = [:], layout: RegionLayout = RegionLayout(), regionDirectory: String = "/dev/shm"
        ) {
            self.executable = executable
            self.arguments = arguments
            self.scenario = scenario
            self.faults = faults
            self.environment = environment
            self.layout = layout
            self.regionDirectory = regionDirectory
        }
    }

    /// Why the steps stopped before the end.
    enum Interruption: Error {
        case ended(code: Int32?, signal: Int32?)
        case unresponsive(command: String)
        case refused(String)
        case trace(TraceError)
        case setup(SupervisorError)
    }

    let configuration: Configuration
    let sink: any TraceEventSink
    private let ordered: OrderedTraceSink
    /// The app stream's way into `ordered`, noting when the app's main thread waits.
    let idleWatch: MainThreadIdleWatch
    private var lastFlush = ContinuousClock.now
    var symbols = SymbolTable()
    var child: ChildProcess?
    var control: ControlConnection?
    var region: RecorderRegion?
    var pump: AppStreamPump?
    var systemState: LifecycleState = .notRunning
    var currentStep = ""
    private var traceFailure: TraceError?
    /// Removes the regions' files if the supervisor is stopped by a signal.
    private var regionCleanups: [OutputCleanup.Token] = []
    private static let regionCounter = RegionCounter()
    /// The descriptor number under which the app inherits a sealed region.
    static let regionChildFD: Int32 = 4

    private var retiredDropped: Int64 = 0
    private var retiredRejected: Int64 = 0

    /// Events the app's recorder reported dropped, over every launch of the run, and the records
    /// that were read from its region and not written because they cannot be an app's event
    /// (``AppStreamPump/rejectedCount``); both saturate at Int64.max and are in the trace as
    /// `dropped` events.
    public var lostEvents: (dropped: Int64, rejected: Int64) {
        let current = pump.map { ($0.droppedCount, $0.rejectedCount) } ?? (0, 0)
        return (TraceTime.advanced(retiredDropped, by: current.0), TraceTime.advanced(retiredRejected, by: current.1))
    }

    private func retire(_ pump: AppStreamPump) {
        retiredDropped = TraceTime.advanced(retiredDropped, by: pump.droppedCount)
        retiredRejected = TraceTime.advanced(retiredRejected, by: pump.rejectedCount)
    }

    /// A session writing to `sink`, which the session does not close.
    public init(configuration: Configuration, sink: any TraceEventSink) {
        self.configuration = configuration
        self.sink = sink
        ordered = OrderedTraceSink(target: sink)
        idleWatch = MainThreadIdleWatch(target: ordered)
    }

    /// The metadata a trace of this run should carry.
    public static func metadata(for configuration: Configuration) -> TraceMetadata {
        var metadata = TraceMetadata([
            ("recorder", "lifetrace record"),
            ("app", URL(fileURLWithPath: configuration.executable).lastPathComponent),
            ("arguments", configuration.arguments.joined(separator: " ")),
            ("scenario", configuration.scenario.name),
            ("faults", configuration.faults.map(\.name).joined(separator: ",")),
        ])
        // What the device would tell a recorder in the app: the declared modes and the OS.
        if let modes = configuration.scenario.backgroundModes {
            metadata[LaunchFacts.backgroundModesKey] = BackgroundModes.metadataValue(modes)
        }
        if let os = configuration.scenario.os { metadata["os"] = os }
        return metadata
    }

    /// Plays the scenario; returns how the run ended. Throws only when the app could not be
    /// started or the trace could not be written.
    public func run() throws(SupervisorError) -> RecordOutcome {
        defer { tearDown() }
        do throws(Interruption) {
            for step in configuration.scenario.steps {
                currentStep = step.name
                try play(step)
                try checkTrace()
            }
            if child != nil {
                // The scenario left the app running: the session ends like a device switched off.
                child?.killAndReap()
                try recordExit()
            }
            try pumpApp()
            try flushSink()
            return .completed
        } catch {
            return try conclude(error)
        }
    }

    private func conclude(_ interruption: Interruption) throws(SupervisorError) -> RecordOutcome {
        let outcome: RecordOutcome
        switch interruption {
        case .ended(let code, let signal): outcome = .appEnded(step: currentStep, code: code, signal: signal)
        case .unresponsive(let command): outcome = .appUnresponsive(step: currentStep, command: command)
        case .refused(let message): outcome = .appRefused(step: currentStep, message: message)
        case .trace(let error): throw SupervisorError(.traceFailed, detail: error.description)
        case .setup(let error): throw error
        }
        do throws(Interruption) {
            if child != nil {
                child?.killAndReap()
                try recordExit()
            }
            try pumpApp()
            try flushSink()
        } catch {
            if case .trace(let traceError) = error { throw SupervisorError(.traceFailed, detail: traceError.description) }
        }
        return outcome
    }

    private func tearDown() {
        child?.killAndReap()
        region?.unlink()
        for token in regionCleanups { OutputCleanup.cancel(token) }
        regionCleanups = []
    }

    // MARK: Events

    private func flushSink() throws(Interruption) {
        do {
            try ordered.release(through: .max)
            try sink.flush()
        } catch {
            throw .trace(error)
        }
    }

    /// Writes a system-stream event stamped now.
    func emit(_ payload: EventPayload, at timestamp: Int64 = MonotonicClock.now()) throws(Interruption) {
        do {
            try ordered.append(TraceEvent(timestamp: timestamp, payload: payload, stream: .system), symbols: symbols)
        } catch {
            throw .trace(error)
        }
    }

    /// Writes a `state` event and updates the system view.
    /// A scenario without `state` events (the app's own view) only updates the system view.
    func emitState(_ state: LifecycleState, scene: String? = nil) throws(Interruption) {
        if configuration.scenario.writesStateEvents {
            let sceneSymbol = scene.map { symbols.intern($0) } ?? .none
            try emit(.state(to: state, scene: sceneSymbol))
        }
        if scene == nil { systemState = state }
    }

    /// Drains the app's region into the trace, then writes every event (of both streams) stamped
    /// before the drain started: no earlier app event can still be in the region.
    func pumpApp() throws(Interruption) {
        let watermark = MonotonicClock.now()
        do {
            if let pump { try pump.pump(into: idleWatch, symbols: &symbols) }
            try ordered.release(through: watermark)
            // A supervisor that dies leaves a readable trace missing at most the last 100 ms.
            if ContinuousClock.now - lastFlush >= .milliseconds(100) {
                try sink.flush()
                lastFlush = ContinuousClock.now
            }
        } catch {
            throw .trace(error)
        }
    }

    /// What every wait does between polls: drain the region. A write failure is kept and
    /// reported by the step.
    func tick() {
        guard traceFailure == nil else { return }
        do {
            try pumpApp()
        } catch {
            if case .trace(let failure) = error { traceFailure = failure }
        }
    }

    private func checkTrace() throws(Interruption) {
        if let traceFailure { throw .trace(traceFailure) }
    }

    // MARK: Process

    /// Spawns the app with a new region and control channel, and writes its `launch` event.
    func spawn(background: Bool, reason: String, prewarm: Bool = false) throws(Interruption) {
        do {
            let region: RecorderRegion
            let regionPath: String
            var inherited: [(parent: Int32, child: Int32)] = []
            if let sealed = try RecorderRegion.createSealed(layout: configuration.layout), let descriptor = sealed.sharedDescriptor {
                // The app cannot shrink it (a read of a truncated mapping would kill the supervisor
                // with SIGBUS), and it has no name to leave behind.
                region = sealed
                inherited = [(descriptor, RecordSession.regionChildFD)]
                regionPath = "/proc/self/fd/\(RecordSession.regionChildFD)"
            } else {
                let counter = RecordSession.regionCounter.next()
                regionPath = "\(configuration.regionDirectory)/lifetrace-\(getpid())-\(counter)"
                // Registered for removal before it is created: a signal at any moment removes it.
                regionCleanups.append(OutputCleanup.removeOnSignal(file: regionPath))
                region = try RecorderRegion.create(path: regionPath, layout: configuration.layout)
            }
            // Kept at once so that tearDown() removes the file even if the spawn fails.
            self.region = region
            let control = try ControlConnection()
            var environment = configuration.environment
            environment[RecorderRegion.environmentKey] = regionPath
            environment[HostCommand.controlEnvironmentKey] = "3"
            environment[HostFault.environmentKey] = configuration.faults.compactMap { fault -> String? in
                if case .host(let hostFault) = fault { return hostFault.rawValue }
                return nil
            }.joined(separator: ",")
            if prewarm { environment[LaunchFacts.prewarmEnvironmentKey] = "1" }
            if let modes = configuration.scenario.backgroundModes {
                environment[HostLaunchEnvironment.backgroundModesKey] = BackgroundModes.metadataValue(modes)
            }
            let timestamp = MonotonicClock.now()
            let child = try ChildProcess(
                path: configuration.executable, arguments: configuration.arguments, environment: environment,
                controlFD: control.childFD, childControlFD: 3, inherited: inherited)
            control.releaseChildEnd()
            self.control = control
            self.child = child
            if let pump { retire(pump) }
            pump = AppStreamPump(region: region, rejectsFutureTimestamps: true)
            try emit(
                .launch(reason: symbols.intern(reason), background: background, prewarm: prewarm, pid: Int64(child.pid)),
                at: timestamp)
            systemState = background ? .background : .inactive
        } catch let error as RecorderError {
            throw .setup(SupervisorError(.regionFailed, detail: error.description))
        } catch let error as SupervisorError {
            throw .setup(error)
        } catch let error as Interruption {
            throw error
        } catch {
            throw .setup(SupervisorError(.spawnFailed, detail: "\(error)"))
        }
    }

    /// Reaps the ended child: drains the last records, writes `exit`, forgets the process.
    func recordExit() throws(Interruption) {
        guard let child else { return }
        let status = child.poll()
        try pumpApp()
        switch status {
        case .exited(let code): try emit(.exit(code: code, signal: nil))
        case .killed(let signal): try emit(.exit(code: nil, signal: signal))
        case .running, .stopped: return
        }
        systemState = .notRunning
        self.child = nil
        control = nil
        region?.unlink()
    }

    /// The interruption for a child that ended on its own, after writing its exit.
    func childEnded() throws(Interruption) -> Interruption {
        let status = child?.poll()
        try recordExit()
        switch status {
        case .exited(let code): return .ended(code: code, signal: nil)
        case .killed(let signal): return .ended(code: nil, signal: signal)
        default: return .ended(code: nil, signal: nil)
        }
    }

    /// Sends `command` and waits for its answer; a dead, silent or refusing app interrupts the steps.
    @discardableResult
    func send(_ command: HostCommand, timeout: Duration? = nil) throws(Interruption) -> String? {
        guard let control, let child else { throw .refused("the app is not running") }
        let answer = control.request(command.wireText, timeout: timeout ?? configuration.scenario.commandTimeout) {
            tick()
        }
        switch answer {
        case .ok(let value):
            try pumpApp()
            return value
        case .refused(let message):
            throw .refused(message)
        case .closed:
            _ = child.wait(until: \.hasEnded, timeout: .seconds(2)) { tick() }
            if !child.poll().hasEnded { child.killAndReap() }
            throw try childEnded()
        case .timedOut:
            if child.poll().hasEnded { throw try childEnded() }
            child.killAndReap()
            try recordExit()
            throw .unresponsive(command: command.wireText)
        }
    }

    /// Lets `duration` pass, draining the region; an app that ends meanwhile interrupts the steps.
    func pass(_ duration: Duration) throws(Interruption) {
        guard let child else {
            usleep(UInt32(max(0, duration.milliseconds)) * 1000)
            return
        }
        if child.wait(until: \.hasEnded, timeout: duration, tick: { tick() }) {
            throw try childEnded()
        }
    }
}

/// Numbers the regions of the sessions of one process.
final class RegionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
