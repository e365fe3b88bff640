/// How durations and times are written for people: one unit ladder (``DurationUnit``: ns, µs,
/// ms, s, min, h), one decimal writer (``DecimalText``), and a named style per kind of output.
/// Nothing else in the package writes a duration for people; machine formats (JSON, the
/// exports' timestamps, JSONL) write integers of nanoseconds or microseconds instead.
///
/// | style | example | used by |
/// | --- | --- | --- |
/// | ``fixed`` | `840 ns`, `999 µs`, `312 ms`, `1.500 s`, `1310.110 s` | messages (violations of built-in and rule-file rules, stall blame), the tables and lines of `report` (text, Markdown, HTML), the exports' stall annotations |
/// | ``compact`` | `840 ns`, `1.5 ms`, `2 s`, `2 min 30 s`, `1 h 5 min` | the HTML timeline's axis labels, notes and hover titles, many-run summaries, `diff`, histogram edges |
/// | ``clock`` | `+0.241 s`, `-0.003 s` | a moment: its time since the trace's first event (``TraceClock``), in messages, replays, reports and the page; `info`'s time span (a reading of the trace's clock) |
/// | ``preciseClock`` | `+0.241250 s` | the same to the microsecond: `dump --format text` |
///
/// Why two styles of duration:
/// - ``fixed`` truncates toward zero and writes a fixed number of decimals per unit (whole
///   nanoseconds, microseconds and milliseconds; seconds to the millisecond, however long). A
///   message never rounds up past what happened: a main thread busy for 999.9 ms reads
///   `999 ms`, never `1000 ms` or `1 s`, so it cannot seem to reach a 1 s limit it stayed under;
///   and the same unit keeps the same number of decimals, so a column of them lines up.
/// - ``compact`` rounds to the nearest value with at most three decimals of its unit, drops
///   trailing zeros, and from a minute on writes minutes and seconds, or hours and minutes: short
///   labels for ticks and for statistics that are estimates anyway. Rounding happens before the
///   unit is chosen, so 59.9996 s reads `1 min`, never `60 s`, and 999.9996 ms reads `1 s`.
///
/// ``clock`` is the fixed style held to seconds: times on one page share one unit and one
/// precision, so they compare at a glance.
///
/// Negative values are written with `-`; ``signed(_:)`` also writes `+` for the others.
public struct DurationFormat: Sendable, Hashable {
    /// How a value reaches the last digit written.
    enum Rounding: Sendable, Hashable {
        /// Dropped digits are cut off: never more than happened.
        case towardZero
        /// To the nearest written value, halves away from zero.
        case toNearest
    }

    /// How the value reaches its last digit.
    let rounding: Rounding
    /// The smallest unit written (values below it are written in it).
    let smallestUnit: DurationUnit
    /// The largest unit written (values above it are written in it, however large).
    let largestUnit: DurationUnit
    /// Decimals written in microseconds and milliseconds.
    let subsecondDecimals: Int
    /// Decimals written in seconds.
    let secondDecimals: Int
    /// Whether `1.500` is written `1.5` and `2.000` is written `2`.
    let dropsTrailingZeros: Bool

    /// Messages and tables: truncated toward zero; whole ns, µs and ms; seconds to the
    /// millisecond with three decimals always, however long.
    public static let fixed = DurationFormat(
        rounding: .towardZero, smallestUnit: .nanosecond, largestUnit: .second,
        subsecondDecimals: 0, secondDecimals: 3, dropsTrailingZeros: false)

    /// Axis notes, summaries, `diff`: rounded to at most three decimals of the unit, trailing
    /// zeros dropped; `2 min 30 s` (whole seconds) from a minute on, `1 h 5 min` (whole minutes)
    /// from an hour on.
    public static let compact = DurationFormat(
        rounding: .toNearest, smallestUnit: .nanosecond, largestUnit: .hour,
        subsecondDecimals: 3, secondDecimals: 3, dropsTrailingZeros: true)

    /// A moment, its time since the trace's first event (``TraceClock``): seconds to the
    /// millisecond, truncated toward zero; write it with ``signed(_:)``.
    public static let clock = DurationFormat(
        rounding: .towardZero, smallestUnit: .second, largestUnit: .second,
        subsecondDecimals: 0, secondDecimals: 3, dropsTrailingZeros: false)

    /// ``clock`` to the microsecond, for the event list of `dump --format text`.
    public static let preciseClock = DurationFormat(
        rounding: .towardZero, smallestUnit: .second, largestUnit: .second,
        subsecondDecimals: 0, secondDecimals: 6, dropsTrailingZeros: false)

    /// `nanoseconds` in this style, `-` first when negative.
    public func string(_ nanoseconds: Int64) -> String {
        (nanoseconds < 0 ? "-" : "") + magnitude(nanoseconds.magnitude)
    }

    /// `nanoseconds` in this style, with its sign always: `+1.234 s`, `-0.003 s`, `+0.000 s`.
    public func signed(_ nanoseconds: Int64) -> String {
        (nanoseconds < 0 ? "-" : "+") + magnitude(nanoseconds.magnitude)
    }

    /// A magnitude in nanoseconds, in the largest unit it reaches once rounded.
    private func magnitude(_ nanoseconds: UInt64) -> String {
        var unit = smallestUnit
        while unit < largestUnit, let next = unit.next, nanoseconds >= next.nanoseconds { unit = next }
        while true {
            let step = step(in: unit)
            let count = rounding == .towardZero ? nanoseconds / step : (nanoseconds + step / 2) / step
            // Rounding up can reach the next unit: 999.9996 ms is written 1 s, never 1000 ms.
            if unit < largestUnit, let next = unit.next, count * step >= next.nanoseconds {
                unit = next
                continue
            }
            return text(count, in: unit)
        }
    }

    /// The nanoseconds the last digit written in `unit` stands for.
    private func step(in unit: DurationUnit) -> UInt64 {
        switch unit {
        case .nanosecond: 1
        case .microsecond, .millisecond: unit.nanoseconds / DecimalText.power(subsecondDecimals)
        case .second: unit.nanoseconds / DecimalText.power(secondDecimals)
        case .minute: DurationUnit.second.nanoseconds
        case .hour: DurationUnit.minute.nanoseconds
        }
    }

    /// `count` steps of `unit` as text: minutes with whole seconds, hours with whole minutes, the
    /// smaller part left out when it is zero.
    private func text(_ count: UInt64, in unit: DurationUnit) -> String {
        switch unit {
        case .minute, .hour:
            let lower = unit == .minute ? DurationUnit.second : .minute
            return "\(count / 60) \(unit.symbol)" + (count % 60 == 0 ? "" : " \(count % 60) \(lower.symbol)")
        case .nanosecond, .microsecond, .millisecond, .second:
            let decimals = unit == .nanosecond ? 0 : unit == .second ? secondDecimals : subsecondDecimals
            let number = DecimalText.string(scaled: count, decimals: decimals, dropsTrailingZeros: dropsTrailingZeros)
            return number + " " + unit.symbol
        }
    }
}
