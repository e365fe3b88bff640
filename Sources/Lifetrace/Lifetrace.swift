import Foundation
import LifetraceFormat
import LifetraceRecorder

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one call an app makes to record its life cycle: ``start(_:)``, at the earliest point the
/// app controls (SwiftUI `App.init`, `main.swift`, or the application delegate's `init`).
///
/// ```swift
/// import Lifetrace
///
/// @main struct NotesApp: App {
///     init() { Lifetrace.start() }
///     var body: some Scene { WindowGroup { ContentView() } }
/// }
/// ```
///
/// It starts the recorder (a trace per run in `Library/Caches/Lifetrace`, or where
/// `LIFETRACE_OUTPUT` says), removes old traces beyond the retention, and on iOS observes the life
/// cycle (`UIKitAdoption`): the notifications, the main run loop, the first frame after each
/// activation, and the delegates' callbacks with their real begin and end. Every decision is made
/// by ``LifecycleAdapter``. ``stop()`` seals the trace before the process ends. See docs/IOS.md.
public enum Lifetrace {
    /// How ``start(_:)`` records.
    public struct Configuration: Sendable, Equatable {
        /// The directory of the per-run traces; nil: `Library/Caches/Lifetrace` in the home
        /// directory (``TraceDirectory``). `LIFETRACE_OUTPUT` wins over it.
        public var directory: String?
        /// How many traces the directory keeps.
        public var retention: TraceRetention
        /// The longest an event waits in memory before it is in the file.
        public var flushInterval: Duration
        /// Whether the UIKit adapter instruments the delegates (real begin and end of each
        /// callback); false records the callbacks from the notifications only.
        public var instrumentsDelegates: Bool

        /// A configuration; the defaults suit an app.
        public init(
            directory: String? = nil, retention: TraceRetention = TraceRetention(),
            flushInterval: Duration = .milliseconds(100), instrumentsDelegates: Bool = true
        ) {
            self.directory = directory
            self.retention = retention
            self.flushInterval = flushInterval
            self.instrumentsDelegates = instrumentsDelegates
        }
    }

    private static let lock = NSLock()
    /// The running recording: its adapter, its recorder and the configuration it started with.
    nonisolated(unsafe) private static var running: (adapter: LifecycleAdapter, recorder: Recorder, configuration: Configuration)?
    nonisolated(unsafe) private static var stopped = false

    /// The adapter of the running recording, nil before ``start(_:)`` and after ``stop()``.
    static var adapter: LifecycleAdapter? {
        lock.lock()
        defer { lock.unlock() }
        return running?.adapter
    }

    /// The recorder of the running recording, nil before ``start(_:)`` and after ``stop()``.
    static var recorder: Recorder? {
        lock.lock()
        defer { lock.unlock() }
        return running?.recorder
    }

    /// Starts recording, once per process. A second call with the same configuration returns true
    /// and changes nothing; one with a different configuration, or a call after ``stop()``, changes
    /// nothing either, and returns false with one line on standard error. Returns false, with one
    /// line on standard error, when the recorder could not start: the app runs on unrecorded.
    @discardableResult
    public static func start(_ configuration: Configuration = Configuration()) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if let running {
            if running.configuration == configuration { return true }
            StandardError.write("lifetrace: already recording; a second start with another configuration changes nothing\n")
            return false
        }
        if stopped {
            StandardError.write("lifetrace: recording was stopped; it does not start again in this process\n")
            return false
        }
        let recordingStart = MonotonicClock.now()
        let environment = ProcessInfo.processInfo.environment
        let output = TraceDirectory.output(
            environmentOutput: RecorderOutput.processEnvironmentOutput,
            perRun: environment[RecorderOutput.environmentKey]?.hasSuffix("/") == true,
            home: RecorderOutput.homeDirectory(environment), directory: configuration.directory, pid: ProcessIdentity.current, now: Date())
        let directory = (output.path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
        let options = RecorderOptions(
            output: .file(output.path), flushInterval: configuration.flushInterval, metadata: TraceMetadata(platformMetadata()))
        let recorder: Recorder
        do {
            recorder = try Recorder.start(options)
        } catch {
            StandardError.write("lifetrace: cannot start recording: \(failureReason(error, path: output.path))\n")
            return false
        }
        // After the recorder's start, which recovered what killed runs left in the directory.
        if let rotated = output.rotated {
            configuration.retention.apply(directory: rotated, current: (output.path as NSString).lastPathComponent)
        }
        let adapter = LifecycleAdapter(destination: RecorderDestination(recorder: recorder))
        adapter.start(at: recordingStart, onMainThread: Thread.isMainThread)
        running = (adapter, recorder, configuration)
        #if canImport(UIKit)
        let instrumentsDelegates = configuration.instrumentsDelegates
        if Thread.isMainThread {
            MainActor.assumeIsolated { UIKitAdoption.install(adapter: adapter, instrumentsDelegates: instrumentsDelegates) }
        } else {
            DispatchQueue.main.async { UIKitAdoption.install(adapter: adapter, instrumentsDelegates: instrumentsDelegates) }
        }
        #endif
        return true
    }

    /// The reason of a start that failed, naming the file once: `cannot write trace PATH: cannot
    /// create: No such file or directory`.
    static func failureReason(_ error: RecorderError, path: String) -> String {
        var reason = error
        let file = error.path ?? path
        // The writer's own message starts with the file, which the error names already.
        if let detail = error.detail, detail.hasPrefix(file + ": ") {
            reason.detail = String(detail.dropFirst(file.count + 2))
            reason.path = file
        }
        return reason.path == nil ? "\(path): \(reason)" : reason.description
    }

    /// Stops recording: what was recorded is written and the trace is sealed (as at the process's
    /// exit, without the `exit` event: the process goes on). Nothing is recorded afterwards, and
    /// recording does not start again in this process. Returns false, with one line on standard
    /// error, when the trace could not be written; true otherwise, also when nothing was recording.
    @discardableResult
    public static func stop() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard let current = running else { return true }
        running = nil
        stopped = true
        // The UIKit adapter's observers stay installed; what they forward is no longer written.
        (current.adapter.destination as? RecorderDestination)?.stop()
        do {
            try current.recorder.stop()
            return true
        } catch {
            StandardError.write("lifetrace: cannot stop recording: \(error)\n")
            return false
        }
    }

    /// Records an app-defined instant, on the calling thread.
    public static func mark(_ name: String) {
        adapter?.handle(ObservedInput(.marked(name: name), at: MonotonicClock.now(), thread: CallingThread.id))
    }

    /// Runs `body` as a callback named `name` that the system calls and UIKit does not announce (a
    /// scheduler task's launch handler, a completion handler): recorded from its begin to its end,
    /// on the calling thread.
    public static func callback<Result, Failure: Error>(
        _ name: String, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let adapter = adapter, thread = CallingThread.id
        adapter?.handle(ObservedInput(.appCallbackBegan(name: name), at: MonotonicClock.now(), thread: thread))
        defer { adapter?.handle(ObservedInput(.appCallbackEnded(name: name), at: MonotonicClock.now(), thread: thread)) }
        return try body()
    }

    /// The metadata naming the app, the OS and the device, from the platform.
    static func platformMetadata() -> [(key: String, value: String)] {
        let info = (Bundle.main.infoDictionary ?? [:]).compactMapValues { $0 as? String }
        let version = ProcessInfo.processInfo.operatingSystemVersion
        #if os(iOS)
        let osName = "iOS"
        #elseif os(macOS)
        let osName = "macOS"
        #else
        let osName = "Linux"
        #endif
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return AppMetadata.fields(
            info: info, osName: osName, osVersion: (version.majorVersion, version.minorVersion, version.patchVersion),
            machine: machine)
    }
}
