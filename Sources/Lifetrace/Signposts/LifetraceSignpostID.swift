import Foundation

#if canImport(os)
import os
#endif

#if canImport(os)
/// The id of a signposted interval: `OSSignpostID`.
public typealias LifetraceSignpostID = OSSignpostID
#else
/// The id of a signposted interval, as `OSSignpostID` on Apple platforms (where it is that type).
public struct LifetraceSignpostID: Sendable, Hashable {
    /// The id's value.
    public var rawValue: UInt64
    /// The id `value`.
    public init(_ value: UInt64) { rawValue = value }
    /// Only one interval of a name at a time (`OS_SIGNPOST_ID_EXCLUSIVE`).
    public static let exclusive = LifetraceSignpostID(0xEEEE_B0B5_B2B2_EEEE)
    /// No id (`OS_SIGNPOST_ID_NULL`).
    public static let null = LifetraceSignpostID(0)
    /// An invalid id (`OS_SIGNPOST_ID_INVALID`).
    public static let invalid = LifetraceSignpostID(~0)

    nonisolated(unsafe) private static var last: UInt64 = 0
    private static let lock = NSLock()

    /// A new id, never ``exclusive``, ``null`` or ``invalid``.
    static func make() -> LifetraceSignpostID {
        lock.withLock { last += 1; return LifetraceSignpostID(last) }
    }
}
#endif

extension LifetraceSignpostID {
    /// The id written to the trace: none for an exclusive interval.
    var traceID: Int64? {
        rawValue == LifetraceSignpostID.exclusive.rawValue ? nil : Int64(bitPattern: rawValue)
    }
}
