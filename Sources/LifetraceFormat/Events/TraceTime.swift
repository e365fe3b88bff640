/// The span of time a trace can hold, and the arithmetic on its timestamps.
///
/// Every reader checks that each event's timestamp lies within ``range`` (a JSONL line or a
/// chunk record outside it is an error with its location), so that everything downstream can
/// subtract two timestamps, or add a duration of at most ``limit`` to one, without overflow:
/// the analyzer, the reports, the exports, `info` and `diff` rely on it rather than checking at
/// each site. 2^60 ns is about 36.5 years either side of the clock's zero, far more than any
/// monotonic clock reaches.
public enum TraceTime {
    /// The largest magnitude of a timestamp, and the longest duration the tools accept: 2^60 ns.
    public static let limit: Int64 = 1 << 60

    /// The timestamps a trace can hold.
    public static let range: ClosedRange<Int64> = -limit...limit

    /// Whether `timestamp` lies within ``range``; one addition and one comparison, for hot loops.
    @inlinable
    @inline(__always)
    public static func contains(_ timestamp: Int64) -> Bool {
        UInt64(bitPattern: timestamp &+ limit) <= UInt64(bitPattern: limit) &* 2
    }

    /// `later - earlier`, saturated at Int64's bounds (exact for timestamps within ``range``).
    @inlinable
    public static func elapsed(from earlier: Int64, to later: Int64) -> Int64 {
        let (difference, overflow) = later.subtractingReportingOverflow(earlier)
        guard overflow else { return difference }
        return later > earlier ? .max : .min
    }

    /// `timestamp + duration`, saturated at Int64's bounds (exact within ``range`` and ``limit``).
    @inlinable
    public static func advanced(_ timestamp: Int64, by duration: Int64) -> Int64 {
        let (sum, overflow) = timestamp.addingReportingOverflow(duration)
        guard overflow else { return sum }
        return duration > 0 ? .max : .min
    }

    /// Adds `duration` to the running `total`, saturated at Int64's bounds. Totals of many
    /// durations (busy time, time in a state) can pass any bound when a trace's time goes
    /// backwards and the same span is counted again and again; every such total adds through here.
    @inlinable
    @inline(__always)
    public static func accumulate(_ total: inout Int64, _ duration: Int64) {
        total = advanced(total, by: duration)
    }

    /// A statistic of durations computed in floating point (a mean, a quantile) back in whole
    /// nanoseconds: rounded, saturated at Int64's bounds, 0 for NaN.
    public static func nanoseconds(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        let rounded = value.rounded()
        // 2^63, the first Double past Int64.max (which a Double cannot hold exactly).
        if rounded >= 0x1p63 { return .max }
        if rounded <= -0x1p63 { return .min }
        return Int64(rounded)
    }

    /// The message readers give for a timestamp outside ``range``.
    public static func outOfRangeMessage(_ timestamp: Int64) -> String {
        "timestamp \(timestamp) ns is outside the range a trace can hold (±2^60 ns, about 36 years)"
    }
}
