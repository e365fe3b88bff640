/// Change points of a series by E-divisive means (Matteson and James, "A Nonparametric Approach
/// for Multiple Change Point Analysis of Multivariate Data", JASA 109(505), 2014), with the
/// permutation test that decides each one, as Apache Otava (formerly Hunter) and MongoDB's
/// performance CI apply it to one value per build (docs/HISTORY.md, "Change points").
///
/// The divergence between the values before and after a split, with exponent alpha = 1:
///
///     Q(τ) = m·n/(m+n) · (2/(m·n) Σ|x-y| − 2/(m(m-1)) Σ|x-x'| − 2/(n(n-1)) Σ|y-y'|)
///
/// over the m values before τ (x) and the n from τ up to an end κ (y). The split of a segment is
/// where Q is largest over τ and κ; it is a change when Q is larger than the largest Q of all but a fraction `alpha` of
/// random shuffles of the segment. Splits are searched again on each side of a change (binary
/// segmentation, as the method's hierarchical estimate does) until none is significant. The
/// shuffles come from a fixed seed, so the same series always gives the same changes.
public struct EDivisive: Sendable {
    /// The significance level of the permutation test (Otava's default `max_pvalue`). A series
    /// needs about 14 points before any split can reach it: the most extreme of the arrangements
    /// of fewer values is not rare enough.
    public var significance = 0.001
    /// How many shuffles decide a split: p-values resolve to 1/10,000, a tenth of
    /// ``significance``, so that a change named is one that hardly any shuffle came near, not
    /// one at the edge of what 2,000 shuffles can tell (a clear change stops the test no sooner:
    /// noise stops it after a few dozen).
    public var permutations = 9999
    /// The fewest values on each side of a split.
    public var minimumSegment = 3
    /// The seed of the shuffles.
    public var seed: UInt64 = 0x5EED_CAFE
    /// The smallest change worth naming: the relative difference of the two sides' means
    /// (0.05 = 5 %), or, where the side before has mean 0, the absolute one.
    public var minimumMagnitude = 0.05
    /// The longest stretch searched at once: a longer series is searched in windows of this
    /// many values that overlap by half (as Otava bounds its windows), so that the cost grows
    /// linearly with the series.
    public var window = 64

    /// The default test.
    public init() {}

    /// A change: where it starts (the index of the first value after it), its p-value, and the
    /// means before and after it (within the segment it was found in).
    public struct Change: Sendable, Hashable {
        /// The index of the first value after the change.
        public var index: Int
        /// The permutation test's p-value.
        public var pValue: Double
        /// The mean of the values before, back to the previous change.
        public var before: Double
        /// The mean of the values after, up to the next change.
        public var after: Double
        /// The relative change of the mean ((after − before) / |before|), nil when before is 0.
        public var relative: Double? { before == 0 ? nil : (after - before) / abs(before) }
    }

    /// The change points of `values`, in index order.
    public func changes(_ values: [Double]) -> [Change] {
        var found: [Int: Double] = [:]
        var windows = [(0, values.count)]
        if values.count > window {
            windows = stride(from: 0, to: values.count - window / 2, by: window / 2).map { ($0, min(values.count, $0 + window)) }
        }
        for (start, end) in windows {
            // A change seen from two windows is kept once, with its smaller p-value.
            for (index, p) in split(values, start: start, end: end) {
                if let near = found.keys.first(where: { abs($0 - index) < minimumSegment }) {
                    guard p < found[near]! else { continue }
                    found[near] = nil
                }
                found[index] = p
            }
        }
        // The means between neighbouring changes, and only changes large enough to name.
        let indexes = found.keys.sorted()
        let bounds = [0] + indexes + [values.count]
        var changes: [Change] = []
        for (offset, index) in indexes.enumerated() {
            let before = Self.mean(values[bounds[offset]..<index])
            let after = Self.mean(values[index..<bounds[offset + 2]])
            let magnitude = before == 0 ? abs(after) : abs(after - before) / abs(before)
            guard magnitude >= minimumMagnitude else { continue }
            changes.append(Change(index: index, pValue: found[index]!, before: before, after: after))
        }
        return changes
    }

    /// The significant splits of `values[start..<end]` by binary segmentation, with their p-values.
    private func split(_ values: [Double], start: Int, end: Int) -> [Int: Double] {
        var found: [Int: Double] = [:]
        var pending = [(start, end)]
        while let (start, end) = pending.popLast() {
            guard end - start >= 2 * minimumSegment else { continue }
            let segment = Array(values[start..<end])
            guard let best = Self.bestSplit(segment, minimumSegment: minimumSegment) else { continue }
            let p = pValue(segment, observed: best.q, salt: UInt64(start) &* 1_000_003 &+ UInt64(end))
            guard p <= significance else { continue }
            found[start + best.index] = p
            pending.append((start, start + best.index))
            pending.append((start + best.index, end))
        }
        return found
    }

    /// The share of shuffles whose best split is at least as divergent as the observed one, the
    /// observation counted among them. Stops as soon as the answer can no longer be significant.
    private func pValue(_ segment: [Double], observed: Double, salt: UInt64) -> Double {
        var generator = SplitMix64(seed: seed ^ salt)
        var shuffled = segment
        var atLeast = 1
        let limit = Int(significance * Double(permutations + 1))
        for _ in 0..<permutations {
            shuffled.shuffle(using: &generator)
            if let best = Self.bestSplit(shuffled, minimumSegment: minimumSegment), best.q >= observed * (1 - 1e-12) {
                atLeast += 1
                if atLeast > limit { return Double(atLeast) / Double(permutations + 1) }
            }
        }
        return Double(atLeast) / Double(permutations + 1)
    }

    /// The split with the largest Q, in O(n²): the divergence of the values before τ from those
    /// in [τ, κ), over every τ and every end κ (Matteson and James's two-parameter search, which
    /// finds a change followed by another within the segment, such as a rise and a return),
    /// each sum of distances a block of one table of prefix sums.
    static func bestSplit(_ x: [Double], minimumSegment: Int) -> (index: Int, q: Double)? {
        let n = x.count
        guard n >= 2 * minimumSegment else { return nil }
        // prefix[i * (n + 1) + j]: Σ |x_a − x_b| over a < i, b < j.
        let width = n + 1
        var prefix = [Double](repeating: 0, count: width * width)
        for i in 0..<n {
            var row = 0.0
            for j in 0..<n {
                row += abs(x[i] - x[j])
                prefix[(i + 1) * width + j + 1] = prefix[i * width + j + 1] + row
            }
        }
        func block(_ r0: Int, _ r1: Int, _ c0: Int, _ c1: Int) -> Double {
            prefix[r1 * width + c1] - prefix[r0 * width + c1] - prefix[r1 * width + c0] + prefix[r0 * width + c0]
        }
        var best: (index: Int, q: Double)?
        for tau in minimumSegment...(n - minimumSegment) {
            let m = Double(tau)
            let left = block(0, tau, 0, tau) / 2
            for kappa in (tau + minimumSegment)...n {
                let r = Double(kappa - tau)
                let right = block(tau, kappa, tau, kappa) / 2
                let cross = block(0, tau, tau, kappa)
                let divergence = 2 * cross / (m * r) - 2 * left / (m * (m - 1)) - 2 * right / (r * (r - 1))
                let q = m * r / (m + r) * divergence
                if best == nil || q > best!.q { best = (tau, q) }
            }
        }
        return best
    }

    private static func mean(_ values: ArraySlice<Double>) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }
}

/// A small seeded generator (SplitMix64, Steele, Lea and Flood 2014) for the shuffles, so that a
/// series always gets the same test.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
