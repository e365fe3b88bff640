import LifetraceFormat

/// The one writer of decimal numbers for people: durations (``DurationFormat``), the times of
/// `dump --format text`, and the counts, ratios and percentages of summaries and `info`.
public enum DecimalText {
    /// `scaled` hundredths, thousandths, … (`decimals` gives which) written as a decimal number,
    /// `-` first when `negative`; with `dropsTrailingZeros`, `1.500` is written `1.5` and `2.000`
    /// is written `2`.
    public static func string(scaled: UInt64, decimals: Int, negative: Bool = false, dropsTrailingZeros: Bool = false) -> String {
        let sign = negative ? "-" : ""
        guard decimals > 0 else { return sign + String(scaled) }
        let divisor = power(decimals)
        var fraction = String(scaled % divisor)
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        if dropsTrailingZeros {
            while fraction.hasSuffix("0") { fraction.removeLast() }
        }
        return sign + String(scaled / divisor) + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// `value` rounded to `decimals` decimals (half away from zero); `-` only when the rounded
    /// value is not zero.
    public static func string(_ value: Double, decimals: Int, dropsTrailingZeros: Bool = false) -> String {
        let scaled = (value.magnitude * Double(power(decimals))).rounded()
        // Beyond 2^53 a Double has no decimals to show, and UInt64 may not hold it.
        guard value.isFinite, scaled < 9e15 else { return "\(value)" }
        let units = UInt64(scaled)
        return string(scaled: units, decimals: decimals, negative: value < 0 && units != 0, dropsTrailingZeros: dropsTrailingZeros)
    }

    /// A count, ratio or percentage of a summary: `value` rounded to at most three decimals,
    /// trailing zeros dropped (`1.5`, `2`, `0.05`). (Durations are never written this way:
    /// ``DurationFormat``.)
    public static func compact(_ value: Double) -> String {
        string(value, decimals: 3, dropsTrailingZeros: true)
    }

    /// 10 to the `exponent` (0 to 18).
    static func power(_ exponent: Int) -> UInt64 {
        precondition((0...18).contains(exponent), "decimals out of range")
        var result: UInt64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }
}
