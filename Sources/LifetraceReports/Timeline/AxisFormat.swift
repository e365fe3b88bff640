import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// A timeline axis's ticks: a round step, and each tick's label, a moment on the trace's clock
/// written by the one formatter to the precision the step needs (`+87.80 s`, `+1305.633002 s`).
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

    /// A time `nanoseconds` after the axis origin (the trace's first event) on an axis whose ticks
    /// are `step` apart: ``TraceClock/moment(_:resolution:)``, so that neighbouring ticks never
    /// read the same however far they are from the origin (`+87.80 s`, `+87.82 s` for 20 ms ticks
    /// 87 s into the trace; `+1305.633002 s` for 2 µs ticks; `+200 s` for 100 s ticks). `0` at the
    /// origin. The page's script writes its ticks with the same rule.
    public static func label(_ nanoseconds: Int64, step: Int64) -> String {
        nanoseconds == 0 ? "0" : TraceClock.moment(nanoseconds, resolution: step)
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
