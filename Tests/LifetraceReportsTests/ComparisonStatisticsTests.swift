@testable import LifetraceReports
import Testing

/// The statistics `lifetrace diff` adds to the Mann-Whitney test: the Hodges–Lehmann shift and
/// its interval, the conditional Poisson test of warning counts, Holm's adjustment. Reference
/// values from SciPy 1.17.1 and from brute force (every pairwise difference listed and sorted;
/// the exact null distribution of U by enumerating all C(16, 8) rankings).
@Suite struct ComparisonStatisticsTests {
    @Test("the shift is the median pairwise difference; the exact interval is the 14th smallest and largest of 64")
    func hodgesLehmannExact() throws {
        let x: [Int64] = [251, 248, 260, 245, 270, 255, 240, 262]
        let y: [Int64] = [216, 210, 220, 205, 230, 212, 225, 218]
        let shift = try #require(HodgesLehmannShift(x, y, alpha: 0.05))
        #expect(shift.estimate == 36.5)
        #expect(HodgesLehmannShift.criticalRank(x, y, alpha: 0.05) == 14)
        #expect(shift.lower == 27)
        #expect(shift.upper == 46)
        #expect(shift.confidence == 0.95)
        // Swapping the samples mirrors the shift.
        let mirrored = try #require(HodgesLehmannShift(y, x, alpha: 0.05))
        #expect(mirrored.estimate == -36.5 && mirrored.lower == -46 && mirrored.upper == -27)
    }

    @Test("with ties the interval comes from the normal approximation with the tie and continuity corrections")
    func hodgesLehmannAsymptotic() throws {
        let x: [Int64] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2, 3]
        let y: [Int64] = [2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, 4, 5, 2, 3, 5, 3]
        let shift = try #require(HodgesLehmannShift(x, y, alpha: 0.05))
        #expect(shift.estimate == 0)
        #expect(HodgesLehmannShift.criticalRank(x, y, alpha: 0.05) == 114)
        #expect(shift.lower == -2 && shift.upper == 2)
    }

    @Test("the k-th difference found by bisection is the k-th of the sorted list, for every k")
    func smallestDifferenceMatchesTheSortedList() {
        let x: [Int64] = [5, 9, 9, 14, 200, 1_000_000_007].sorted()
        let y: [Int64] = [-3, 0, 9, 12, 12, 4_000_000_000].sorted()
        let all = x.flatMap { a in y.map { a - $0 } }.sorted()
        for (index, difference) in all.enumerated() {
            #expect(HodgesLehmannShift.smallestDifference(rank: Int128(index + 1), x, y) == difference)
        }
    }

    @Test("two samples of two have no finite 95% interval (P(U = 0) is 1/6)")
    func tooSmallForTheConfidence() throws {
        let shift = try #require(HodgesLehmannShift([10, 20], [1, 2], alpha: 0.05))
        #expect(shift.lower == nil && shift.upper == nil)
        #expect(shift.estimate == 13.5)
    }

    @Test("the conditional test of two Poisson rates is the binomial tail of the candidate's share (SciPy binom.sf)")
    func conditionalPoisson() throws {
        // Hang warnings per run of synthesized runs, seeds 11-20 against 1-10 (20,000 events each).
        let candidate = [5, 3, 6, 2, 1, 1, 3, 2, 4, 1]
        let baseline = [3, 2, 1, 3, 1, 2, 2, 5, 0, 2]
        let test = try #require(ConditionalPoissonTest(candidate: candidate, baseline: baseline))
        #expect(test.dispersion == 1)
        #expect(abs(test.p - 0.19580145527374526) < 1e-12)
        #expect(test.candidateRate == 2.8 && test.baselineRate == 2.1)
        // Two in eight runs against none: a quarter, as likely as two coin flips both landing heads.
        let two = try #require(ConditionalPoissonTest(candidate: [0, 1, 0, 1, 0, 0, 0, 0], baseline: Array(repeating: 0, count: 8)))
        #expect(abs(two.p - 0.25) < 1e-12)
        // Nothing in the candidate is never more.
        #expect(ConditionalPoissonTest(candidate: [0, 0], baseline: [4, 5])?.p == 1)
        // A clear rise is significant: 40 against 10 in ten runs each.
        let rise = try #require(ConditionalPoissonTest(candidate: Array(repeating: 4, count: 10), baseline: Array(repeating: 1, count: 10)))
        #expect(rise.p < 0.0001)
    }

    @Test("clumped counts are scaled by their dispersion before the test, so one bad run does not read as a rise")
    func overdispersion() throws {
        let test = try #require(ConditionalPoissonTest(candidate: [0, 0, 0, 12], baseline: [0, 1, 0, 1]))
        #expect(abs(test.dispersion - 38.0 / 6) < 1e-12)
        // scipy.special.betainc(12 / phi, 14 / phi - 12 / phi + 1, 0.5); unscaled it would be 0.0065.
        #expect(abs(test.p - 0.35576846603254275) < 1e-10)
    }

    @Test("the regularized incomplete beta matches SciPy, for integer and fractional arguments")
    func incompleteBeta() {
        #expect(abs(ConditionalPoissonTest.regularizedIncompleteBeta(0.3, 3, 5) - 0.3529304999999999) < 1e-12)
        #expect(abs(ConditionalPoissonTest.regularizedIncompleteBeta(0.4, 1.5, 2.25) - 0.5287285062148392) < 1e-12)
        #expect(abs(ConditionalPoissonTest.regularizedIncompleteBeta(0.5, 12, 3) - 0.0064697265625) < 1e-12)
    }

    @Test("Holm's step-down adjustment, in the order given")
    func holm() {
        let adjusted = HolmAdjustment.adjusted([0.01, 0.04, 0.03, 0.005])
        let expected = [0.03, 0.06, 0.06, 0.02]
        for (value, reference) in zip(adjusted, expected) { #expect(abs(value - reference) < 1e-15) }
        #expect(HolmAdjustment.adjusted([0.9, 0.8]) == [1, 1])
        #expect(HolmAdjustment.adjusted([]).isEmpty)
    }

    @Test("the normal quantile inverts the survival function")
    func normalQuantile() {
        #expect(abs(MannWhitneyU.normalQuantile(0.975) - 1.959963984540054) < 1e-12)
        #expect(abs(MannWhitneyU.normalQuantile(0.5)) < 1e-12)
    }
}
