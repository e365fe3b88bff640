import LifetraceReports
import Testing

/// Reference values from SciPy 1.17.1, `scipy.stats.mannwhitneyu(x, y)` with its defaults
/// (two-sided, continuity correction, method "auto"); with ties and at most 40 values, its
/// `permutation_test` of U (`permutation_type="independent"`, two-sided, every permutation:
/// `n_resamples=np.inf`); and numpy 2 `np.quantile` (linear).
@Suite struct MannWhitneyUTests {
    struct Reference: Sendable, CustomTestStringConvertible {
        var name: String
        var x: [Double]
        var y: [Double]
        var u: Double
        var p: Double
        var method: MannWhitneyU.Method
        var testDescription: String { name }
    }

    static let references: [Reference] = [
        Reference(name: "exact, separated", x: [1, 2, 3, 4, 5], y: [6, 7, 8, 9, 10], u: 0, p: 0.007936507936507936, method: .exact),
        Reference(
            name: "exact, interleaved", x: [3.1, 1.2, 5.5, 4.4, 9.9, 2.2], y: [4.0, 6.1, 7.3, 8.8, 5.0, 10.5, 11.0],
            u: 8, p: 0.07342657342657342, method: .exact),
        Reference(
            name: "ties, uneven sizes", x: [12, 15, 11], y: (1...20).map(Double.init), u: 36.5, p: 0.5951439864483343,
            method: .exact),
        Reference(
            name: "ties, 21 values: every permutation", x: [1, 2, 2, 3, 3, 3, 4, 5, 5, 6], y: [2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 9],
            u: 23.5, p: 0.025187402896381224, method: .exact),
        Reference(
            name: "8 runs a side, 14 zeros of 16 (stalls.count of Samples/launches)", x: [0, 0, 0, 0, 0, 0, 1, 1], y: [0, 0, 0, 0, 0, 0, 0, 0],
            u: 40, p: 0.4666666666666667, method: .exact),
        Reference(
            name: "ties past 40 values", x: (0..<21).map { Double($0 % 5) }, y: (0..<21).map { Double($0 % 4) },
            u: 261, p: 0.3024560017123791, method: .asymptotic),
        Reference(
            name: "asymptotic, larger", x: (0..<30).map { Double($0 * 7 % 23) }, y: (0..<25).map { Double($0 * 5 % 19) + 2.5 },
            u: 383, p: 0.8990964198592419, method: .asymptotic),
        Reference(name: "all equal", x: [1, 1, 1], y: [1, 1, 1], u: 4.5, p: 1, method: .exact),
    ]

    @Test(arguments: references)
    func matchesSciPy(_ reference: Reference) throws {
        let test = try #require(MannWhitneyU(reference.x, reference.y))
        #expect(test.u == reference.u)
        #expect(abs(test.p - reference.p) < 1e-12)
        #expect(test.method == reference.method)
    }

    @Test("the smallest p-value the sizes and ties allow: when it is not below alpha, no change could be significant")
    func smallestPossiblePValue() throws {
        // Two runs a side: at best 2/6.
        #expect(abs(try #require(MannWhitneyU([5, 6], [1, 2])).smallestP - 1.0 / 3) < 1e-12)
        // 14 zeros of 16: the two ones both in the candidate is the farthest apart, 2 * 28/120.
        let stalls = try #require(MannWhitneyU([0, 0, 0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0]))
        #expect(abs(stalls.smallestP - 0.4666666666666667) < 1e-12)
        // Eight runs a side without ties: 2/12870.
        let separated = try #require(MannWhitneyU((1...8).map(Double.init), (11...18).map(Double.init)))
        #expect(abs(separated.smallestP - 2.0 / 12870) < 1e-15)
    }

    @Test func cliffsDeltaRunsFromMinusOneToOne() throws {
        #expect(try #require(MannWhitneyU([1, 2, 3], [4, 5, 6])).cliffsDelta == -1)
        #expect(try #require(MannWhitneyU([4, 5, 6], [1, 2, 3])).cliffsDelta == 1)
        #expect(try #require(MannWhitneyU([1, 2, 3], [1, 2, 3])).cliffsDelta == 0)
    }

    @Test func swappingTheSamplesKeepsThePValue() throws {
        let forward = try #require(MannWhitneyU([3.1, 1.2, 5.5, 4.4], [4.0, 6.1, 7.3, 8.8, 5.0]))
        let backward = try #require(MannWhitneyU([4.0, 6.1, 7.3, 8.8, 5.0], [3.1, 1.2, 5.5, 4.4]))
        #expect(abs(forward.p - backward.p) < 1e-15)
        #expect(forward.cliffsDelta == -backward.cliffsDelta)
    }

    @Test func emptySampleHasNoTest() {
        #expect(MannWhitneyU([], [1, 2]) == nil)
    }

    @Test func quantilesInterpolateLikeNumpy() {
        let distribution = SampleDistribution([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
        #expect(distribution.min == 1)
        #expect(distribution.median == 4)
        #expect(distribution.quantile(0.9) == 6)
        #expect(abs(distribution.quantile(0.99)! - 8.700000000000001) < 1e-12)
        #expect(distribution.max == 9)
        #expect(SampleDistribution([]).median == nil)
    }

    @Test func histogramCountsEveryValueOnce() {
        let distribution = SampleDistribution([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        let histogram = distribution.histogram(bins: 4)
        #expect(histogram.counts.reduce(0, +) == 11)
        #expect(histogram.counts == [3, 2, 3, 3])
    }
}
