import LifetraceFormat
/// The synthesizer's pseudo-random numbers: xoshiro256** seeded through SplitMix64.
///
/// Written out here rather than taken from the standard library so that a seed gives the same
/// numbers on every platform and Swift version. Distributions use only `+ - * /` and `sqrt`,
/// which IEEE 754 rounds exactly, so they are just as reproducible (no `log`, `exp` or `pow`,
/// whose last bit may differ between C libraries).
struct SynthesisRandom {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose whole sequence is fixed by `seed`.
    init(seed: UInt64) {
        var mixer = seed
        func splitMix() -> UInt64 {
            mixer &+= 0x9E37_79B9_7F4A_7C15
            var z = mixer
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        state = (splitMix(), splitMix(), splitMix(), splitMix())
    }

    /// The next 64 random bits.
    mutating func nextBits() -> UInt64 {
        let result = rotate(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotate(state.3, 45)
        return result
    }

    private func rotate(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double {
        Double(nextBits() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// True with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { unit() < probability }

    /// Uniform in `range`.
    mutating func integer(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(nextBits() % span)
    }

    /// Uniform in [low, high).
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Bell-shaped around `mean` (Irwin-Hall with four terms), spread like a normal distribution
    /// of standard deviation `deviation`, cut at about ±3.5 deviations.
    mutating func bell(mean: Double, deviation: Double) -> Double {
        let sum = unit() + unit() + unit() + unit()
        return mean + (sum - 2.0) * deviation * 1.7320508075688772
    }

    /// A long-tailed duration: `minimum / sqrt(u)`, capped at `maximum`. Most values sit near the
    /// minimum; a few are many times longer, as hitches and network calls are.
    mutating func longTail(minimum: Double, maximum: Double) -> Double {
        let u = max(unit(), 1e-12)
        return min(maximum, minimum / u.squareRoot())
    }

    /// An element picked with the given weights.
    mutating func pick<T>(_ choices: [(weight: Double, value: T)]) -> T {
        let total = choices.reduce(0) { $0 + $1.weight }
        var target = unit() * total
        for choice in choices {
            if target < choice.weight { return choice.value }
            target -= choice.weight
        }
        return choices[choices.count - 1].value
    }

    /// An element of `array`, uniformly.
    mutating func element<T>(of array: [T]) -> T { array[integer(in: 0...(array.count - 1))] }
}
