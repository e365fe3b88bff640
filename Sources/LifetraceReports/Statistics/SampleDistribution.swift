/// A sorted sample and its order statistics.
///
/// Quantiles interpolate linearly between the closest ranks (the "type 7" definition, numpy's
/// and R's default): the q-quantile of n sorted values x is x[h] + (h - floor h)(x[h+1] - x[h])
/// with h = (n - 1) q, counted from 0.
public struct SampleDistribution: Sendable, Hashable {
    /// The values, ascending.
    public let sorted: [Double]
    /// The values as integers, ascending, when the distribution was made of integers.
    public let sortedIntegers: [Int64]?

    /// The distribution of `values`.
    public init(_ values: [Double]) {
        sorted = values.sorted()
        sortedIntegers = nil
    }

    /// The distribution of integer `values` (nanoseconds, counts), whose percentiles
    /// ``percentileHundredths(_:)`` gives exactly.
    public init(integers values: [Int64]) {
        let ordered = values.sorted()
        sortedIntegers = ordered
        sorted = ordered.map(Double.init)
    }

    /// How many values there are.
    public var count: Int { sorted.count }

    /// The smallest value, or nil for an empty sample.
    public var min: Double? { sorted.first }

    /// The largest value, or nil for an empty sample.
    public var max: Double? { sorted.last }

    /// The median, or nil for an empty sample.
    public var median: Double? { quantile(0.5) }

    /// The arithmetic mean, or nil for an empty sample.
    public var mean: Double? { sorted.isEmpty ? nil : sorted.reduce(0, +) / Double(sorted.count) }

    /// The `q`-quantile (0 to 1), or nil for an empty sample.
    public func quantile(_ q: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let h = Double(sorted.count - 1) * Swift.min(1, Swift.max(0, q))
        let low = Int(h.rounded(.down))
        let high = Swift.min(low + 1, sorted.count - 1)
        return sorted[low] + (h - Double(low)) * (sorted[high] - sorted[low])
    }

    /// The `percent`-th percentile (0 to 100) of an integer distribution, exactly, in hundredths
    /// of the values' unit; nil for an empty sample or one not made of integers.
    ///
    /// The same type 7 definition as ``quantile(_:)`` in integer arithmetic: with n values
    /// x[0] <= ... <= x[n-1] and (n - 1) * percent = 100 * i + r (0 <= r < 100), the result is
    /// 100 * x[i] + r * (x[i+1] - x[i]) hundredths (x[i] alone when r is 0). docs/REPORTS.md.
    public func percentileHundredths(_ percent: Int) -> Int128? {
        guard let values = sortedIntegers, !values.isEmpty else { return nil }
        let position = (values.count - 1) * Swift.min(100, Swift.max(0, percent))
        let index = position / 100
        let remainder = position % 100
        let low = Int128(values[index])
        guard remainder > 0 else { return 100 * low }
        return 100 * low + Int128(remainder) * (Int128(values[index + 1]) - low)
    }

    /// Counts per bin for a histogram of `bins` equal-width bins from the minimum to the maximum
    /// (the maximum falls into the last bin); empty for an empty sample.
    public func histogram(bins: Int) -> (lower: Double, width: Double, counts: [Int]) {
        guard let low = min, let high = max, bins > 0 else { return (0, 0, []) }
        let width = high > low ? (high - low) / Double(bins) : 1
        var counts = Array(repeating: 0, count: bins)
        for value in sorted {
            counts[Swift.min(bins - 1, Int((value - low) / width))] += 1
        }
        return (low, width, counts)
    }
}
