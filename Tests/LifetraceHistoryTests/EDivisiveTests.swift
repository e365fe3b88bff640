@testable import LifetraceHistory
import Testing

@Suite struct EDivisiveTests {
    /// Noise of a fixed seed around `level`, ±`spread`.
    static func noise(_ count: Int, level: Double, spread: Double, seed: UInt64) -> [Double] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in level + spread * (Double(generator.next() % 2001) / 1000 - 1) }
    }

    @Test func aStepIsFoundWhereItStarts() {
        let series = Self.noise(9, level: 200, spread: 8, seed: 1) + Self.noise(7, level: 260, spread: 8, seed: 2)
        let changes = EDivisive().changes(series)
        #expect(changes.map(\.index) == [9])
        #expect(changes.first.map { $0.after > $0.before } == true)
        #expect((changes.first?.pValue ?? 1) <= 0.01)
    }

    @Test func noiseIsNotAChange() {
        for seed in UInt64(1)...20 {
            let series = Self.noise(30, level: 200, spread: 10, seed: seed)
            #expect(EDivisive().changes(series).isEmpty, "seed \(seed)")
        }
    }

    @Test func aFlatSeriesHasNoChange() {
        #expect(EDivisive().changes(Array(repeating: 5, count: 40)).isEmpty)
        #expect(EDivisive().changes([1, 2]).isEmpty)
        #expect(EDivisive().changes([]).isEmpty)
    }

    @Test func twoStepsAreBothFound() {
        let series = Self.noise(12, level: 100, spread: 3, seed: 3) + Self.noise(12, level: 150, spread: 3, seed: 4)
            + Self.noise(12, level: 100, spread: 3, seed: 5)
        #expect(EDivisive().changes(series).map(\.index) == [12, 24])
    }

    @Test func aLongSeriesIsSearchedInWindows() {
        // 256 points, four times a window (seven windows of 64 overlapping by half), a step at
        // 180: seen from the windows [128, 192) and [160, 224), named once there, and nothing
        // else in the noise of the other windows. What is tested is the windows, not the
        // p-value's resolution (the default's 9,999 shuffles, tested above): 999 shuffles still
        // reach p = 0.001, the cut, for a step no shuffle comes near, at a tenth of the cost.
        var detector = EDivisive()
        detector.permutations = 999
        #expect(detector.window * 4 == 256)
        let series = Self.noise(180, level: 50, spread: 2, seed: 6) + Self.noise(76, level: 60, spread: 2, seed: 7)
        let changes = detector.changes(series)
        #expect(changes.map(\.index) == [180])
        #expect(changes.first.map { $0.pValue <= detector.significance } == true)
    }

    @Test func theSameSeriesGivesTheSameAnswer() {
        let series = Self.noise(20, level: 10, spread: 1, seed: 8) + Self.noise(20, level: 11, spread: 1, seed: 9)
        let first = EDivisive().changes(series)
        #expect(EDivisive().changes(series) == first)
    }

    @Test func aStepBelowTheMinimumMagnitudeIsNotNamed() {
        // A clear 2 % step: significant, but smaller than the 5 % worth naming.
        let series = Array(repeating: 100.0, count: 10) + Array(repeating: 102.0, count: 10)
        #expect(EDivisive().changes(series).isEmpty)
        var detector = EDivisive()
        detector.minimumMagnitude = 0.01
        #expect(detector.changes(series).map(\.index) == [10])
    }
}
