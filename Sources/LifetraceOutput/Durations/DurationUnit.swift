import LifetraceFormat

/// The ladder of units every duration for people is written in, smallest first. (Durations are
/// read in minutes and hours too: ``DurationParser``; none is written in them, so that a moment
/// and a duration on one page share the second as their largest unit.)
public enum DurationUnit: Int, CaseIterable, Comparable, Sendable {
    case nanosecond, microsecond, millisecond, second

    /// How many nanoseconds one of this unit is.
    public var nanoseconds: UInt64 {
        switch self {
        case .nanosecond: 1
        case .microsecond: 1_000
        case .millisecond: 1_000_000
        case .second: 1_000_000_000
        }
    }

    /// The symbol written after a number: `ns`, `µs`, `ms`, `s`.
    public var symbol: String {
        switch self {
        case .nanosecond: "ns"
        case .microsecond: "µs"
        case .millisecond: "ms"
        case .second: "s"
        }
    }

    /// The next unit up the ladder, if there is one.
    var next: DurationUnit? { DurationUnit(rawValue: rawValue + 1) }

    public static func < (lhs: DurationUnit, rhs: DurationUnit) -> Bool { lhs.rawValue < rhs.rawValue }
}
