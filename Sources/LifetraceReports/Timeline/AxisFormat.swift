import LifecycleModel
import LifetraceFormat

/// Times on a timeline axis in human units: `+250 ms`, `+1.5 s`, `+2 min 30 s`, `+1 h 5 min`.
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

    /// An offset from the axis origin, signed.
    public static func offset(_ nanoseconds: Int64) -> String {
        if nanoseconds == 0 { return "0" }
        return (nanoseconds < 0 ? "-" : "+") + duration(nanoseconds)
    }

    /// A duration in the largest unit that keeps it readable, with at most three significant
    /// decimals.
    public static func duration(_ nanoseconds: Int64) -> String {
        let value = Double(nanoseconds.magnitude)
        if value < 1e3 { return "\(nanoseconds.magnitude) ns" }
        if value < 1e6 { return decimal(value / 1e3) + " µs" }
        if value < 1e9 { return decimal(value / 1e6) + " ms" }
        if value < 60e9 { return decimal(value / 1e9) + " s" }
        let seconds = Int64(value / 1e9)
        if seconds < 3600 { return "\(seconds / 60) min" + (seconds % 60 == 0 ? "" : " \(seconds % 60) s") }
        return "\(seconds / 3600) h" + (seconds % 3600 / 60 == 0 ? "" : " \(seconds % 3600 / 60) min")
    }

    /// `value` with up to three decimals, trailing zeros dropped.
    static func decimal(_ value: Double) -> String {
        // Beyond 2^53 thousandths a Double has no decimals to show, and Int64 may not hold it.
        guard value.isFinite, value.magnitude < 9e15 else { return "\(value)" }
        let thousandths = Int64((value * 1000).rounded())
        let whole = thousandths / 1000
        var fraction = String(thousandths % 1000)
        guard fraction != "0" else { return String(whole) }
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(whole).\(fraction)"
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
