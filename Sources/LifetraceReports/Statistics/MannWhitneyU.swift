import Foundation

/// The Mann-Whitney U test of two independent samples, two-sided, as SciPy's
/// `scipy.stats.mannwhitneyu(x, y)` computes it with its defaults.
///
/// - U is the first sample's statistic: the number of pairs (x, y) with x > y, ties counting a half.
/// - With no ties and a sample of at most 8 values, the p-value is exact (the permutation
///   distribution of U, from the Gaussian binomial coefficient), as SciPy's. With ties and at most
///   ``permutationLimit`` values in all, it is exact too: the permutation distribution of U given
///   the tied ranks (every way of splitting the pooled values into two samples of these sizes,
///   counted by their rank sums), p = 2 min(P(U >= u), P(U <= u)), at most 1, as SciPy's
///   `permutation_test` gives it; the normal approximation overstates significance there (8 runs
///   a side with 14 zeros of 16: 0.17 where the permutations give 0.47). Otherwise it is the normal
///   approximation with tie correction and continuity correction:
///   z = (max(U, n1 n2 - U) - n1 n2 / 2 - 0.5) / sqrt(n1 n2 / 12 ((n + 1) - sum(t^3 - t) / (n (n - 1)))),
///   where t are the sizes of the groups of tied values; p = 2 P(Z >= z), at most 1.
/// - The effect size is Cliff's delta, P(x > y) - P(x < y) = 2 U / (n1 n2) - 1 (equal to the
///   rank-biserial correlation): from -1 (every x below every y) to 1 (every x above).
public struct MannWhitneyU: Sendable, Hashable {
    /// Whether the p-value is exact or from the normal approximation.
    public enum Method: String, Sendable, Hashable {
        /// The permutation distribution of U.
        case exact
        /// The normal approximation with tie and continuity corrections.
        case asymptotic
    }

    /// The first sample's U statistic.
    public let u: Double
    /// The two-sided p-value.
    public let p: Double
    /// Cliff's delta of the first sample against the second.
    public let cliffsDelta: Double
    /// How the p-value was computed.
    public let method: Method
    /// The smallest two-sided p-value samples of these sizes, with these ties, can give at all
    /// (both samples as far apart as the ties allow): when it is not below the significance
    /// level, no result of the test could be significant, whatever the change.
    public let smallestP: Double

    /// Tests `x` against `y`; nil when either is empty.
    public init?(_ x: [Double], _ y: [Double]) {
        let n1 = x.count
        let n2 = y.count
        guard n1 > 0, n2 > 0 else { return nil }
        let pooled = (x.map { ($0, 0) } + y.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var rankSumX = 0.0
        var tieTerm = 0.0
        var start = 0
        while start < pooled.count {
            var end = start
            while end + 1 < pooled.count && pooled[end + 1].0 == pooled[start].0 { end += 1 }
            let rank = Double(start + end + 2) / 2
            let tied = Double(end - start + 1)
            tieTerm += tied * tied * tied - tied
            for index in start...end where pooled[index].1 == 0 { rankSumX += rank }
            start = end + 1
        }
        let product = Double(n1 * n2)
        let u1 = rankSumX - Double(n1 * (n1 + 1)) / 2
        u = u1
        cliffsDelta = 2 * u1 / product - 1
        let larger = max(u1, product - u1)
        if tieTerm == 0 && (n1 <= Self.exactLimit || n2 <= Self.exactLimit) {
            method = .exact
            p = min(1, 2 * Self.exactSurvival(Int(larger.rounded()), min(n1, n2), max(n1, n2)))
            smallestP = min(1, 2 * Self.exactSurvival(n1 * n2, min(n1, n2), max(n1, n2)))
        } else if n1 + n2 <= Self.permutationLimit {
            method = .exact
            let tied = Self.tiedPermutations(pooled.map(\.0), n1, observed: u1)
            p = tied.p
            smallestP = tied.smallest
        } else {
            method = .asymptotic
            let n = Double(n1 + n2)
            let sigma = (product / 12 * ((n + 1) - tieTerm / (n * (n - 1)))).squareRoot()
            func twoSided(_ u: Double) -> Double {
                min(1, 2 * Self.normalSurvival(sigma > 0 ? (u - product / 2 - 0.5) / sigma : 0))
            }
            p = twoSided(larger)
            smallestP = twoSided(product)
        }
    }

    /// The most values in both samples together for which, with ties, the p-value is exact.
    public static let permutationLimit = 40

    /// The two-sided p-value of `observed` (the first sample's U) and the smallest one possible,
    /// from the permutation distribution of U given the ties: `sorted` is the pooled sample in
    /// order, and every choice of `m` of its values is as likely. A rank sum in half ranks is an
    /// integer; counts by (values chosen, rank sum) are built one value at a time, in doubles
    /// (C(40, 20) is about 1.4e11, well within their exact integers).
    static func tiedPermutations(_ sorted: [Double], _ m: Int, observed: Double) -> (p: Double, smallest: Double) {
        let count = sorted.count
        // Twice each value's mid-rank.
        var ranks: [Int] = []
        var start = 0
        while start < count {
            var end = start
            while end + 1 < count && sorted[end + 1] == sorted[start] { end += 1 }
            ranks += Array(repeating: start + end + 2, count: end - start + 1)
            start = end + 1
        }
        let total = ranks.reduce(0, +)
        var ways = Array(repeating: Array(repeating: 0.0, count: total + 1), count: m + 1)
        ways[0][0] = 1
        var reached = 0
        for rank in ranks {
            reached += rank
            for chosen in stride(from: m, through: 1, by: -1) {
                for sum in stride(from: reached, through: rank, by: -1) where ways[chosen - 1][sum - rank] > 0 {
                    ways[chosen][sum] += ways[chosen - 1][sum - rank]
                }
            }
        }
        // U = R - m (m + 1) / 2, so with doubled ranks 2U = 2R - m (m + 1).
        let offset = m * (m + 1)
        let twiceObserved = Int((2 * observed).rounded())
        var below = 0.0, above = 0.0, all = 0.0
        var first: Int?, last = 0
        for sum in 0...total where ways[m][sum] > 0 {
            let twiceU = sum - offset
            all += ways[m][sum]
            if twiceU <= twiceObserved { below += ways[m][sum] }
            if twiceU >= twiceObserved { above += ways[m][sum] }
            if first == nil { first = sum }
            last = sum
        }
        let p = min(1, 2 * min(below, above) / all)
        let smallest = min(1, 2 * min(ways[m][first ?? 0], ways[m][last]) / all)
        return (p, smallest)
    }

    /// P(Z >= z) for a standard normal Z.
    static func normalSurvival(_ z: Double) -> Double { 0.5 * erfc(z / 2.0.squareRoot()) }

    /// The largest sample size of the smaller side for which, with no ties, the p-value is exact.
    static let exactLimit = 8

    /// The standard normal quantile z with P(Z <= z) = `probability` (0 < probability < 1), by
    /// bisection on ``normalSurvival(_:)``: to the last bit of a double, so the one normal
    /// distribution of the package serves both ways.
    static func normalQuantile(_ probability: Double) -> Double {
        var low = -40.0
        var high = 40.0
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if 1 - normalSurvival(middle) < probability { low = middle } else { high = middle }
            if high - low <= 1e-15 * max(1, abs(middle)) { break }
        }
        return (low + high) / 2
    }

    /// P(U >= u) under the null hypothesis for samples of `m` <= `n` values.
    static func exactSurvival(_ u: Int, _ m: Int, _ n: Int) -> Double {
        let degree = m * n
        guard u > 0 else { return 1 }
        guard u <= degree else { return 0 }
        let coefficients = exactCounts(m, n)
        let total = coefficients.reduce(0, +)
        var tail = 0.0
        for power in u...degree { tail += coefficients[power] }
        return tail / total
    }

    /// The null distribution of U for samples of `m` <= `n` values, as counts of the C(m + n, m)
    /// arrangements with U = 0, 1, ..., m n: the coefficients of the Gaussian binomial
    /// [m + n choose m]_q, built as the product over i = 1...m of (1 - q^(n + i)) / (1 - q^i).
    static func exactCounts(_ m: Int, _ n: Int) -> [Double] {
        let degree = m * n
        var coefficients = Array(repeating: 0.0, count: degree + 1)
        coefficients[0] = 1
        guard m > 0 else { return coefficients }
        var reached = 0
        for i in 1...m {
            // Multiply by (1 - q^(n + i)), then divide by (1 - q^i): a running sum with stride i.
            let shift = n + i
            reached = min(degree, reached + shift)
            if shift <= reached {
                for power in stride(from: reached, through: shift, by: -1) {
                    coefficients[power] -= coefficients[power - shift]
                }
            }
            if i <= reached {
                for power in i...reached { coefficients[power] += coefficients[power - i] }
            }
        }
        return coefficients
    }
}
