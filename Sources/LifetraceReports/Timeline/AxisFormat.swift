import LifecycleModel
import LifetraceFormat

/// A timeline axis's ticks: a round step and the label of each tick (`+250 ms`, `+1.5 s`,
/// `+2 min 30 s`, `+1 h 5 min`).
public enum AxisFormat {
    /// A round tick step (1, 2 or 5 times a power of ten, in ns; at least 1 µs) that cuts `span`
    /// into about `ticks` parts.
    public static func step(for span: Int64, ticks: Int) -> Int64 {
        let raw = max(1000, span / Int64(max(1, ticks)))
        var power: Int64 = 1
        while power <= raw / 10 { power *= 10 }
        for factor: Int64 in [1, 2, 5, 10] where power * factor >= raw { return power * factor }
        return power * 10
    }

    /// A tick's label: its offset from the axis origin in the ``DurationFormat/compact`` style,
    /// signed (`+250 ms`, `-1.5 s`), and `0` at the origin itself.
    public static func offset(_ nanoseconds: Int64) -> String {
        nanoseconds == 0 ? "0" : DurationFormat.compact.signed(nanoseconds)
    }

    /// A time on an axis whose ticks are `step` apart and whose times reach `extent` (ns, the
    /// largest distance from the origin on it), written so that neighbouring ticks never read
    /// the same however far they are from the origin: in the unit `extent` reaches (s, ms, µs or
    /// ns) with the decimals `step` needs, truncated (`+87.805 s`, `+87.810 s` for 5 ms ticks 87 s
    /// after the launch; `+1305.633002 s` for 2 µs ticks). Steps of a minute or more, which the
    /// ``DurationFormat/compact`` style writes exactly, are written in it (`+2 min 30 s`). `0` at
    /// the origin. The page's script writes its ticks with the same rule.
    public static func label(_ nanoseconds: Int64, step: Int64, extent: Int64) -> String {
        if nanoseconds == 0 { return "0" }
        if step >= 60_000_000_000 { return DurationFormat.compact.signed(nanoseconds) }
        let reach = max(extent.magnitude, nanoseconds.magnitude)
        let unit: DurationUnit = reach >= 1_000_000_000 ? .second : reach >= 1_000_000 ? .millisecond
            : reach >= 1000 ? .microsecond : .nanosecond
        var decimals = 0
        var digit = unit.nanoseconds
        while digit > 1 && UInt64(max(1, step)) % digit != 0 {
            digit /= 10
            decimals += 1
        }
        let number = DecimalText.string(scaled: nanoseconds.magnitude / digit, decimals: decimals)
        return (nanoseconds < 0 ? "-" : "+") + number + " " + unit.symbol
    }
}

/// The names of state codes as the rows draw them.
enum StateName {
    /// The name of `code` in `row` (system codes are `LifecycleState`, app codes `AppViewState`,
    /// scene codes `SceneViewState`).
    static func name(_ code: UInt8, row: Int) -> String {
        if row == TimelineRow.system { return LifecycleState(rawValue: code)?.name ?? "state \(code)" }
        if row == TimelineRow.app { return AppViewState(rawValue: code)?.name ?? "state \(code)" }
        return SceneViewState(rawValue: code)?.description ?? "state \(code)"
    }
}
