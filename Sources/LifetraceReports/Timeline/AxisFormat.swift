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
