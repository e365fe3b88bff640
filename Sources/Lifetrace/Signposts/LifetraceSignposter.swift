import LifetraceFormat
import LifetraceRecorder

#if canImport(os)
import os
#endif

/// Signposts an app already has, kept in Instruments and added to the trace: each interval and
/// event is written as a Lifetrace signpost (`signpost.begin`/`signpost.end`, `mark`) and, on Apple
/// platforms, as an `OSSignposter` interval or event of the same name, so that the Points of
/// Interest and os_signpost instruments show it as before.
///
/// ```swift
/// let signposter = LifetraceSignposter(subsystem: "com.example.notes", category: .pointsOfInterest)
/// let state = signposter.beginInterval("LoadDatabase")
/// loadDatabase()
/// signposter.endInterval(state)
/// ```
///
/// Replace `OSSignposter(subsystem:category:)` with it and keep the calls (`beginInterval`,
/// `endInterval`, `withIntervalSignpost`, `emitEvent`). The `OSSignposter` side is compiled on Apple
/// platforms only and not built here (docs/IOS.md); the Lifetrace side is tested on Linux.
public struct LifetraceSignposter: @unchecked Sendable {
    /// The Instruments category of Points of Interest.
    public static let pointsOfInterest = "PointsOfInterest"

    private let adapter: LifecycleAdapter?
    private let clock: @Sendable () -> Int64
    #if canImport(os)
    /// The signposter that writes the same intervals for Instruments.
    public let osSignposter: OSSignposter
    #endif

    /// A signposter of `subsystem` and `category`; it records into ``Lifetrace/adapter`` (when
    /// recording started) unless given `adapter`, and stamps with `clock` (the trace's clock).
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

    private var target: LifecycleAdapter? { adapter ?? Lifetrace.adapter }

    private static func string(_ name: StaticString) -> String {
        name.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
    }

    /// Starts an interval named `name`; `id` tells overlapping intervals of one name apart.
    public func beginInterval(_ name: StaticString, id: Int64? = nil) -> LifetraceSignpostInterval {
        target?.handle(ObservedInput(.signpostBegan(name: Self.string(name), id: id), at: clock(), thread: .main))
        #if canImport(os)
        let signpostID = id.map { OSSignpostID(UInt64(bitPattern: $0)) } ?? osSignposter.makeSignpostID()
        let state = osSignposter.beginInterval(name, id: signpostID)
        return LifetraceSignpostInterval(name: name, id: id, state: state)
        #else
        return LifetraceSignpostInterval(name: name, id: id)
        #endif
    }

    /// Ends the interval `interval` began.
    public func endInterval(_ interval: LifetraceSignpostInterval) {
        #if canImport(os)
        osSignposter.endInterval(interval.name, interval.state)
        #endif
        target?.handle(ObservedInput(.signpostEnded(name: Self.string(interval.name), id: interval.id), at: clock(), thread: .main))
    }

    /// Runs `body` inside an interval named `name`.
    public func withIntervalSignpost<Result, Failure: Error>(
        _ name: StaticString, id: Int64? = nil, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let interval = beginInterval(name, id: id)
        defer { endInterval(interval) }
        return try body()
    }

    /// An instant named `name` (a `mark` in the trace, a signpost event in Instruments).
    public func emitEvent(_ name: StaticString) {
        target?.handle(ObservedInput(.marked(name: Self.string(name)), at: clock(), thread: .main))
        #if canImport(os)
        osSignposter.emitEvent(name)
        #endif
    }
}

/// An interval begun by ``LifetraceSignposter/beginInterval(_:id:)``; end it with
/// ``LifetraceSignposter/endInterval(_:)``.
public struct LifetraceSignpostInterval: @unchecked Sendable {
    /// The interval's name.
    public let name: StaticString
    /// Its id, if given.
    public let id: Int64?
    #if canImport(os)
    /// The `OSSignposter` interval's state.
    let state: OSSignpostIntervalState
    #endif
}
