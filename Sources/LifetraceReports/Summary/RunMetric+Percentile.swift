import LifetraceFormat

extension RunMetric.Unit {
    /// The `percent`-th percentile of `distribution` as every report writes it: the summary's
    /// tables and JSON, `diff`'s medians and budgets (docs/REPORTS.md, "Percentiles"). The exact
    /// type 7 percentile of the integer samples; a duration in whole nanoseconds, rounded half
    /// up; a count as its hundredths divided by 100. Nil for an empty sample.
    public func percentile(_ distribution: SampleDistribution, _ percent: Int) -> JSONValue? {
        guard let hundredths = distribution.percentileHundredths(percent) else {
            // Not integer samples (never from a metric): the same definition in floating point.
            guard let value = distribution.quantile(Double(percent) / 100) else { return nil }
            return self == .duration ? .int(TraceTime.nanoseconds(value)) : .number(value)
        }
        switch self {
        case .duration:
            // Floor division, so that half rounds up for negative values too.
            let shifted = hundredths + 50
            let quotient = shifted / 100
            return .int(Int64(clamping: shifted % 100 < 0 ? quotient - 1 : quotient))
        case .count:
            return .number(Double(hundredths) / 100)
        }
    }

    /// ``percentile(_:_:)`` as a number, for comparisons and formatting.
    public func percentileValue(_ distribution: SampleDistribution, _ percent: Int) -> Double? {
        switch percentile(distribution, percent) {
        case .int(let value)?: Double(value)
        case .number(let value)?: value
        default: nil
        }
    }
}
