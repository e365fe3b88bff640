import LifetraceFormat

/// How durations and times are written for people: one unit ladder (``DurationUnit``: ns, µs,
/// ms, s), one decimal writer (``DecimalText``), and one precision rule. Nothing else in the
/// package writes a duration or a moment for people; machine formats (JSON, the exports'
/// timestamps, JSONL) write integers of nanoseconds or microseconds instead.
///
/// **The precision rule.** A value is written in the largest unit it reaches (ns, µs, ms, s,
/// never minutes or hours), truncated toward zero to its last digit: a whole unit below a second
/// (`840 ns`, `999 µs`, `312 ms`), a millisecond in seconds (`1.500 s`, `1310.110 s`). A value
/// never reads as more than happened (a main thread busy for 999.9 ms reads `999 ms`, never
/// `1000 ms` or `1 s`, so it cannot seem to reach a 1 s limit it stayed under), and a unit always
/// has the same decimals, so a column of values lines up and two outputs that write one value
/// write it the same way (a summary's `2.600 s` is the trace report's `2.600 s`).
///
/// The one exception is asked for, not chosen: a scale whose marks are `resolution` apart (an
/// axis's ticks, a tooltip's pixel, a histogram's bins) writes each mark to the digit of the
/// largest power of ten not above the resolution, in the unit the style picks
/// (``string(_:resolution:)``): `+87.80 s` and `+87.82 s` for 20 ms ticks, `+1305.633002 s` for
/// 2 µs ticks, `+88 s` for 1 s ticks. Neighbouring marks never read the same, and marks of one
/// scale share their decimals.
///
/// | style | example | used by |
/// | --- | --- | --- |
/// | ``fixed`` | `840 ns`, `999 µs`, `312 ms`, `1.500 s`, `1310.110 s` | every duration: messages (violations of built-in and rule-file rules, stall blame), `report` (one trace and many), `diff`, the page's tables, notes and titles, the exports' stall annotations |
/// | ``clock`` | `+0.241 s`, `-0.003 s` | a moment: its time since the trace's first event (``TraceClock``), in messages, replays, reports and the page, its axes' ticks to their step; `info`'s time span (a reading of the trace's clock) |
/// | ``preciseClock`` | `+0.241250 s` | the same to the microsecond: `dump --format text` |
///
/// ``clock`` is ``fixed`` held to seconds: times on one page share one unit and one precision,
/// so they compare at a glance.
///
/// Negative values are written with `-`; ``signed(_:)`` also writes `+` for the others.
public struct DurationFormat: Sendable, Hashable {
    /// The smallest unit written (values below it are written in it).
    let smallestUnit: DurationUnit
    /// The nanoseconds the last digit stands for in seconds (a millisecond: three decimals).
    let secondDigit: UInt64

    /// Every duration: truncated toward zero; whole ns, µs and ms; seconds to the millisecond
    /// with three decimals always, however long.
    public static let fixed = DurationFormat(smallestUnit: .nanosecond, secondDigit: 1_000_000)

    /// A moment, its time since the trace's first event (``TraceClock``): seconds to the
    /// millisecond, truncated toward zero; write it with ``signed(_:)``.
    public static let clock = DurationFormat(smallestUnit: .second, secondDigit: 1_000_000)

    /// ``clock`` to the microsecond, for the event list of `dump --format text`.
    public static let preciseClock = DurationFormat(smallestUnit: .second, secondDigit: 1_000)

    /// `nanoseconds` in this style, `-` first when negative.
    public func string(_ nanoseconds: Int64) -> String {
        (nanoseconds < 0 ? "-" : "") + magnitude(nanoseconds.magnitude, resolution: nil)
    }

    /// `nanoseconds` in this style, with its sign always: `+1.234 s`, `-0.003 s`, `+0.000 s`.
    public func signed(_ nanoseconds: Int64) -> String {
        (nanoseconds < 0 ? "-" : "+") + magnitude(nanoseconds.magnitude, resolution: nil)
    }

    /// `nanoseconds` as a mark on a scale whose marks are `resolution` ns apart: in the unit this
    /// style picks, to the digit of the largest power of ten not above `resolution` (at least a
    /// nanosecond, at most the unit), truncated: `87.80 s` for 20 ms, `250 ms` for 50 ms.
    public func string(_ nanoseconds: Int64, resolution: Int64) -> String {
        (nanoseconds < 0 ? "-" : "") + magnitude(nanoseconds.magnitude, resolution: resolution.magnitude)
    }

    /// ``string(_:resolution:)`` with its sign always: `+87.80 s`, `-0.5 s`.
    public func signed(_ nanoseconds: Int64, resolution: Int64) -> String {
        (nanoseconds < 0 ? "-" : "+") + magnitude(nanoseconds.magnitude, resolution: resolution.magnitude)
    }

    /// `nanoseconds` to the digit it is exact to, as a value someone gave is written back to them
    /// (a default in the help, a limit): `20 s`, `1.5 ms`, `250 ms`, never `20.000 s`.
    public func exact(_ nanoseconds: Int64) -> String {
        string(nanoseconds, resolution: Int64(exactDigit(nanoseconds.magnitude)))
    }

    /// A limit and a value compared with it (a budget and the figure checked against it), each in
    /// this style, except that the limit is written to the digit it was given to (`1.5 ms`, never
    /// `1 ms`) and a value in its unit to that digit too (`251.5 ms` beside `251.4 ms`), and both
    /// to a finer digit when the value is not the limit but would read as it (`300.4 ms` over a
    /// `300.0 ms` budget, where `300 ms` beside `300 ms` would read as met).
    public func strings(limit: Int64, value: Int64) -> (limit: String, value: String) {
        var limitDigit = min(digit(limit.magnitude), exactDigit(limit.magnitude))
        // In the limit's unit, the value is written at least to the limit's digit: `251 ms` would
        // read as under a `251.4 ms` limit it is over.
        var valueDigit = digit(value.magnitude)
        if unit(value.magnitude) == unit(limit.magnitude) { valueDigit = min(valueDigit, limitDigit) }
        func texts() -> (limit: String, value: String) {
            (string(limit, resolution: Int64(limitDigit)), string(value, resolution: Int64(valueDigit)))
        }
        var written = texts()
        while value != limit, written.limit == written.value, min(limitDigit, valueDigit) > 1 {
            limitDigit = min(limitDigit, valueDigit) / 10
            valueDigit = limitDigit
            written = texts()
        }
        return written
    }

    /// The unit a magnitude is written in: the largest it reaches, from ``smallestUnit`` to seconds.
    private func unit(_ nanoseconds: UInt64) -> DurationUnit {
        var unit = smallestUnit
        while let next = unit.next, nanoseconds >= next.nanoseconds { unit = next }
        return unit
    }

    /// The nanoseconds the last digit of a magnitude stands for, without a resolution: a whole
    /// unit below a second, ``secondDigit`` in seconds.
    private func digit(_ nanoseconds: UInt64) -> UInt64 {
        let unit = unit(nanoseconds)
        return unit == .second ? secondDigit : unit.nanoseconds
    }

    /// The largest power of ten, up to a second, that divides a magnitude: the digit it is exact to.
    private func exactDigit(_ nanoseconds: UInt64) -> UInt64 {
        var digit = DurationUnit.second.nanoseconds
        while digit > 1 && nanoseconds % digit != 0 { digit /= 10 }
        return digit
    }

    /// A magnitude in nanoseconds, in the largest unit it reaches (from ``smallestUnit`` to
    /// seconds), truncated to the last digit the precision rule gives.
    private func magnitude(_ nanoseconds: UInt64, resolution: UInt64?) -> String {
        let unit = unit(nanoseconds)
        var digit = unit == .second ? secondDigit : unit.nanoseconds
        if let resolution {
            digit = unit.nanoseconds
            while digit > 1 && digit > resolution { digit /= 10 }
        }
        var decimals = 0
        var scale = unit.nanoseconds
        while scale > digit {
            scale /= 10
            decimals += 1
        }
        return DecimalText.string(scaled: nanoseconds / digit, decimals: decimals) + " " + unit.symbol
    }
}
