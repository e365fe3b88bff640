import Foundation
import LifetraceFormat
import LifetraceRecorder

#if canImport(os)
import os
#endif

/// Signposts an app already has, kept in Instruments and added to the trace: each interval and
/// event is written as a Lifetrace signpost (`signpost.begin`/`signpost.end`, `mark`), on the
/// thread that made the call, and, on Apple platforms, as an `OSSignposter` interval or event of
/// the same name, so that the Points of Interest and os_signpost instruments show it as before.
///
/// ```swift
/// let signposter = LifetraceSignposter(subsystem: "com.example.notes", category: .pointsOfInterest)
/// let state = signposter.beginInterval("LoadDatabase")
/// loadDatabase()
/// signposter.endInterval("LoadDatabase", state)
/// ```
///
/// Its calls have `OSSignposter`'s shapes: `beginInterval(_:id:)`, `beginInterval(_:id:_:)`,
/// `endInterval(_:_:)`, `endInterval(_:_:_:)`, `emitEvent(_:id:)`, `emitEvent(_:id:_:)`,
/// `withIntervalSignpost(_:id:around:)`, `withIntervalSignpost(_:id:_:around:)`,
/// `makeSignpostID()`, with `category:` a string or `.pointsOfInterest`. Replacing the type of an
/// `OSSignposter` with it leaves those calls as they are; what changes is the name of the types an
/// app spells out: ``LifetraceSignpostIntervalState`` in place of `OSSignpostIntervalState`, and
/// ``LifetraceSignpostID`` (which is `OSSignpostID` on Apple platforms) in place of
/// `OSSignpostID`. A message (`"\(value)"`) goes to Instruments only: the trace's signposts have
/// no message. The `OSSignposter` side is compiled on Apple platforms only and not built here
/// (docs/IOS.md); the Lifetrace side is tested on Linux.
public struct LifetraceSignposter: @unchecked Sendable {
    /// The Instruments category of Points of Interest, as a string.
    public static let pointsOfInterest = "PointsOfInterest"

    #if canImport(os)
    /// A system-defined category: `OSLog.Category` (`.pointsOfInterest`).
    public typealias Category = OSLog.Category
    #else
    /// A system-defined category, as `OSLog.Category` on Apple platforms (`.pointsOfInterest`).
    public struct Category: Sendable, Hashable {
        /// The category's name.
        public var rawValue: String
        /// The category `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The category of Points of Interest.
        public static let pointsOfInterest = Category(rawValue: LifetraceSignposter.pointsOfInterest)
    }
    #endif

    private let adapter: LifecycleAdapter?
    private let clock: @Sendable () -> Int64
    /// The calling thread, as the trace names it (tests stand in for the main thread with it).
    var callingThread: @Sendable () -> ThreadID = { CallingThread.id }
    #if canImport(os)
    /// The signposter that writes the same intervals for Instruments.
    public let osSignposter: OSSignposter
    #endif

    /// A signposter of `subsystem` and `category`; it records into the running recording (when
    /// ``Lifetrace/start(_:)`` started one) unless given `adapter`, and stamps with `clock` (the
    /// trace's clock).
    public init(
        subsystem: String, category: String, adapter: LifecycleAdapter? = nil,
        clock: @escaping @Sendable () -> Int64 = { MonotonicClock.now() }
    ) {
        self.adapter = adapter
        self.clock = clock
        #if canImport(os)
        osSignposter = OSSignposter(subsystem: subsystem, category: category)
        #endif
    }

    /// A signposter of `subsystem` and a system-defined `category` (`.pointsOfInterest`).
    public init(
        subsystem: String, category: Category, adapter: LifecycleAdapter? = nil,
        clock: @escaping @Sendable () -> Int64 = { MonotonicClock.now() }
    ) {
        self.adapter = adapter
        self.clock = clock
        #if canImport(os)
        osSignposter = OSSignposter(logHandle: OSLog(subsystem: subsystem, category: category))
        #endif
    }

    private var target: LifecycleAdapter? { adapter ?? Lifetrace.adapter }

    private static func string(_ name: StaticString) -> String {
        name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }

    private func record(_ observation: LifecycleObservation) {
        target?.handle(ObservedInput(observation, at: clock(), thread: callingThread()))
    }

    /// A new id, to tell overlapping intervals of one name apart.
    public func makeSignpostID() -> LifetraceSignpostID {
        #if canImport(os)
        return osSignposter.makeSignpostID()
        #else
        return LifetraceSignpostID.make()
        #endif
    }

    /// Starts an interval named `name`; `id` tells overlapping intervals of one name apart
    /// (`.exclusive`: only one at a time).
    public func beginInterval(_ name: StaticString, id: LifetraceSignpostID = .exclusive) -> LifetraceSignpostIntervalState {
        record(.signpostBegan(name: Self.string(name), id: id.traceID))
        #if canImport(os)
        return LifetraceSignpostIntervalState(id: id, state: osSignposter.beginInterval(name, id: id))
        #else
        return LifetraceSignpostIntervalState(id: id)
        #endif
    }

    /// Starts an interval named `name` with a message for Instruments.
    public func beginInterval(
        _ name: StaticString, id: LifetraceSignpostID = .exclusive, _ message: LifetraceSignpostMessage
    ) -> LifetraceSignpostIntervalState {
        record(.signpostBegan(name: Self.string(name), id: id.traceID))
        #if canImport(os)
        let state = message.isPublic
            ? osSignposter.beginInterval(name, id: id, "\(message.text, privacy: .public)")
            : osSignposter.beginInterval(name, id: id, "\(message.text, privacy: .private)")
        return LifetraceSignpostIntervalState(id: id, state: state)
        #else
        return LifetraceSignpostIntervalState(id: id)
        #endif
    }

    /// Ends the interval named `name` that `state` began.
    public func endInterval(_ name: StaticString, _ state: LifetraceSignpostIntervalState) {
        #if canImport(os)
        osSignposter.endInterval(name, state.state)
        #endif
        record(.signpostEnded(name: Self.string(name), id: state.id.traceID))
    }

    /// Ends the interval named `name` that `state` began, with a message for Instruments.
    public func endInterval(_ name: StaticString, _ state: LifetraceSignpostIntervalState, _ message: LifetraceSignpostMessage) {
        #if canImport(os)
        if message.isPublic {
            osSignposter.endInterval(name, state.state, "\(message.text, privacy: .public)")
        } else {
            osSignposter.endInterval(name, state.state, "\(message.text, privacy: .private)")
        }
        #endif
        record(.signpostEnded(name: Self.string(name), id: state.id.traceID))
    }

    /// Runs `task` inside an interval named `name`.
    public func withIntervalSignpost<T, Failure: Error>(
        _ name: StaticString, id: LifetraceSignpostID = .exclusive, around task: () throws(Failure) -> T
    ) throws(Failure) -> T {
        let state = beginInterval(name, id: id)
        defer { endInterval(name, state) }
        return try task()
    }

    /// Runs `task` inside an interval named `name`, with a message for Instruments.
    public func withIntervalSignpost<T, Failure: Error>(
        _ name: StaticString, id: LifetraceSignpostID = .exclusive, _ message: LifetraceSignpostMessage,
        around task: () throws(Failure) -> T
    ) throws(Failure) -> T {
        let state = beginInterval(name, id: id, message)
        defer { endInterval(name, state) }
        return try task()
    }

    /// An instant named `name` (a `mark` in the trace, a signpost event in Instruments).
    public func emitEvent(_ name: StaticString, id: LifetraceSignpostID = .exclusive) {
        record(.marked(name: Self.string(name)))
        #if canImport(os)
        osSignposter.emitEvent(name, id: id)
        #endif
    }

    /// An instant named `name`, with a message for Instruments.
    public func emitEvent(_ name: StaticString, id: LifetraceSignpostID = .exclusive, _ message: LifetraceSignpostMessage) {
        record(.marked(name: Self.string(name)))
        #if canImport(os)
        if message.isPublic {
            osSignposter.emitEvent(name, id: id, "\(message.text, privacy: .public)")
        } else {
            osSignposter.emitEvent(name, id: id, "\(message.text, privacy: .private)")
        }
        #endif
    }
}
