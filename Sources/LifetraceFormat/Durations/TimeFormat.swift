/// How times and durations are written in messages and text reports.
public enum TimeFormat {
    /// A time relative to the launch, for example `+1.234 s` (milliseconds precision).
    public static func relative(_ nanoseconds: Int64) -> String {
        let sign = nanoseconds < 0 ? "-" : "+"
        return sign + seconds(nanoseconds.magnitude) + " s"
    }

    /// A duration: `840 µs` under a millisecond, `312 ms` under a second, else `1.500 s`.
    public static func duration(_ nanoseconds: Int64) -> String {
        let magnitude = nanoseconds.magnitude
        if magnitude < 1_000_000 {
            return "\(magnitude / 1000) µs"
        }
        if magnitude < 1_000_000_000 {
            return "\(magnitude / 1_000_000) ms"
        }
        return seconds(magnitude) + " s"
    }

    /// `s.mmm` for a magnitude in nanoseconds, rounded down to the millisecond.
    static func seconds(_ magnitude: UInt64) -> String {
        let ms = magnitude / 1_000_000
        let fraction = String(ms % 1000)
        return "\(ms / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
