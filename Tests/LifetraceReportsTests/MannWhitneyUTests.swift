import LifetraceReports
import Testing

/// Reference values from SciPy 1.17.1, `scipy.stats.mannwhitneyu(x, y)` with its defaults
/// (two-sided, continuity correction, method "auto"), and numpy 2 `np.quantile` (linear).
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
            name: "ties, uneven sizes", x: [12, 15, 11], y: (1...20).map(Double.init), u: 36.5, p: 0.5836033771872075,
            method: .asymptotic),
        Reference(
            name: "asymptotic with ties", x: [1, 2, 2, 3, 3, 3, 4, 5, 5, 6], y: [2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 9],
            u: 23.5, p: 0.027640884214298913, method: .asymptotic),
        Reference(
            name: "asymptotic, larger", x: (0..<30).map { Double($0 * 7 % 23) }, y: (0..<25).map { Double($0 * 5 % 19) + 2.5 },
            u: 383, p: 0.8990964198592419, method: .asymptotic),
        Reference(name: "all equal", x: [1, 1, 1], y: [1, 1, 1], u: 4.5, p: 1, method: .asymptotic),
    ]

    @Test(arguments: references)
    func matchesSciPy(_ reference: Reference) throws {
        let test = try #require(MannWhitneyU(reference.x, reference.y))
        #expect(test.u == reference.u)
        #expect(abs(test.p - reference.p) < 1e-12)
        #expect(test.method == reference.method)
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
