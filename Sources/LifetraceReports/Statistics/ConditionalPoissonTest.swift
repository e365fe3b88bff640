import Foundation

/// Whether a count happens more often per run in the candidate runs than in the baseline runs:
/// the exact conditional test of two Poisson rates (Przyborowski and Wilenski 1940; the "C-test"
/// of Krishnamoorthy and Thomson 2004), one-sided, with a quasi-Poisson allowance for counts
/// that vary more from run to run than a Poisson count does.
///
/// With X counts in the candidate's n_c runs and Y in the baseline's n_b, each run's count
/// Poisson with a rate per run of its side, the candidate's share of the pooled count K = X + Y
/// is, given K and under equal rates, Binomial(K, n_c / (n_c + n_b)). The p-value is
/// P(Binomial(K, n_c / (n_c + n_b)) >= X) = I_p(X, K - X + 1) (the regularized incomplete beta
/// function), 1 when X is 0. It is exact for any number of runs and any counts (no
/// normal approximation, no minimum count), which is why it suits violation counts, mostly 0, 1
/// or 2 per run.
///
/// Overdispersion: counts of warnings from one app are often clumped (a slow device hangs
/// several times in a run), which makes a Poisson test fail too readily. The dispersion is
/// estimated from the runs, phi = max(1, Pearson chi-squared / (N - 2)) with each side's own
/// rate, and the counts are divided by it before the test (the quasi-Poisson scaling of
/// McCullagh and Nelder, Generalized Linear Models, 2nd ed., 1989, section 6.2); with fewer than
/// three runs phi is 1. The incomplete beta takes the scaled, non-integer counts as they are.
public struct ConditionalPoissonTest: Sendable, Hashable {
    /// The candidate's total count.
    public let candidateCount: Int
    /// The baseline's total count.
    public let baselineCount: Int
    /// The candidate's count per run.
    public let candidateRate: Double
    /// The baseline's count per run.
    public let baselineRate: Double
    /// The dispersion factor the counts were divided by (1 when the counts are not overdispersed).
    public let dispersion: Double
    /// The one-sided p-value: how likely, with equal rates, a candidate share this large or larger is.
    public let p: Double

    /// Tests the per-run `candidate` counts against the per-run `baseline` counts; nil when a
    /// side has no run.
    public init?(candidate: [Int], baseline: [Int]) {
        guard !candidate.isEmpty, !baseline.isEmpty else { return nil }
        let x = candidate.reduce(0, +)
        let y = baseline.reduce(0, +)
        candidateCount = x
        baselineCount = y
        candidateRate = Double(x) / Double(candidate.count)
        baselineRate = Double(y) / Double(baseline.count)
        dispersion = Self.dispersion(candidate, baseline)
        guard x > 0 else {
            p = 1
            return
        }
        let share = Double(candidate.count) / Double(candidate.count + baseline.count)
        let scaledX = Double(x) / dispersion
        let scaledK = Double(x + y) / dispersion
        p = min(1, max(0, Self.regularizedIncompleteBeta(share, scaledX, scaledK - scaledX + 1)))
    }

    /// phi = max(1, chi-squared / (N - 2)), chi-squared = sum over runs of (count - rate)^2 / rate
    /// with each side's own mean as its rate (a side with no count adds nothing).
    static func dispersion(_ candidate: [Int], _ baseline: [Int]) -> Double {
        let runs = candidate.count + baseline.count
        guard runs > 2 else { return 1 }
        var chiSquared = 0.0
        for side in [candidate, baseline] {
            let rate = Double(side.reduce(0, +)) / Double(side.count)
            guard rate > 0 else { continue }
            for count in side { chiSquared += (Double(count) - rate) * (Double(count) - rate) / rate }
        }
        return max(1, chiSquared / Double(runs - 2))
    }

    /// I_x(a, b) for a, b > 0 and 0 <= x <= 1, by the continued fraction (modified Lentz), on the
    /// side where it converges fast (x < (a + 1) / (a + b + 2), else 1 - I_(1-x)(b, a)).
    static func regularizedIncompleteBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logBeta: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let logFront = logBeta + logPowers
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * continuedFraction(x, a, b) / a
        }
        return 1 - exp(logFront) * continuedFraction(1 - x, b, a) / b
    }

    private static func continuedFraction(_ x: Double, _ a: Double, _ b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var result = d
        for m in 1...10_000 {
            let m = Double(m)
            let evenDenominator: Double = (a + 2 * m - 1) * (a + 2 * m)
            let even: Double = m * (b - m) * x / evenDenominator
            d = 1 + even * d
            if abs(d) < tiny { d = tiny }
            c = 1 + even / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            result *= d * c
            let oddDenominator: Double = (a + 2 * m) * (a + 2 * m + 1)
            let odd: Double = -(a + m) * (a + b + m) * x / oddDenominator
            d = 1 + odd * d
            if abs(d) < tiny { d = tiny }
            c = 1 + odd / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            result *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return result
    }
}

/// Holm's step-down adjustment of p-values (Holm 1979, "A Simple Sequentially Rejective
/// Multiple Test Procedure"): with the m p-values ascending, the i-th (from 1) becomes
/// max over j <= i of min(1, (m - j + 1) p(j)). Rejecting where the adjusted p is below alpha
/// keeps the chance of any false rejection (the family-wise error rate) at most alpha whatever
/// the dependence between the tests, which is what a gate with one verdict needs.
public enum HolmAdjustment {
    /// The adjusted p-values, in the order of `pValues`.
    public static func adjusted(_ pValues: [Double]) -> [Double] {
        let order = pValues.indices.sorted { (pValues[$0], $0) < (pValues[$1], $1) }
        var adjusted = Array(repeating: 1.0, count: pValues.count)
        var running = 0.0
        for (rank, index) in order.enumerated() {
            running = max(running, min(1, Double(pValues.count - rank) * pValues[index]))
            adjusted[index] = running
        }
        return adjusted
    }
}
