/// A sorted sample and its order statistics.
///
/// Quantiles interpolate linearly between the closest ranks (the "type 7" definition, numpy's
/// and R's default): the q-quantile of n sorted values x is x[h] + (h - floor h)(x[h+1] - x[h])
/// with h = (n - 1) q, counted from 0.
public struct SampleDistribution: Sendable, Hashable {
    /// The values, ascending.
    public let sorted: [Double]

    /// The distribution of `values`.
    public init(_ values: [Double]) {
        sorted = values.sorted()
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
