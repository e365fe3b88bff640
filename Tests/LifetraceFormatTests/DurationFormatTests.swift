import LifetraceFormat
import Testing

struct DurationFormatTests {
    @Test("fixed: truncated, whole units below a second, seconds to the millisecond however long", arguments: [
        (Int64(0), "0 ns"), (999, "999 ns"), (1_000, "1 µs"), (999_900, "999 µs"), (999_999, "999 µs"),
        (1_000_000, "1 ms"), (312_700_000, "312 ms"), (999_900_000, "999 ms"), (999_999_999, "999 ms"),
        (1_000_000_000, "1.000 s"), (1_500_000_000, "1.500 s"), (59_999_500_000, "59.999 s"),
        (60_000_000_000, "60.000 s"), (3_600_000_000_000, "3600.000 s"), (-840_000, "-840 µs"),
        (-1_500_000_000, "-1.500 s"), (Int64.max, "9223372036.854 s"), (Int64.min, "-9223372036.854 s"),
    ])
    func fixed(nanoseconds: Int64, text: String) {
        #expect(DurationFormat.fixed.string(nanoseconds) == text)
    }

    @Test("compact: rounded to three decimals of the unit before the unit is chosen; minutes and hours", arguments: [
        (Int64(0), "0 ns"), (999, "999 ns"), (1_000, "1 µs"), (1_500, "1.5 µs"), (999_900, "999.9 µs"),
        (999_999, "999.999 µs"), (999_900_000, "999.9 ms"), (999_999_400, "999.999 ms"), (999_999_500, "1 s"),
        (64_933_500, "64.934 ms"), (1_500_000_000, "1.5 s"), (4_000_500_000, "4.001 s"),
        (59_999_400_000, "59.999 s"), (59_999_500_000, "1 min"), (60_000_000_000, "1 min"),
        (68_600_000_000, "1 min 9 s"), (150_000_000_000, "2 min 30 s"), (3_599_600_000_000, "1 h"),
        (3_600_000_000_000, "1 h"), (3_900_000_000_000, "1 h 5 min"), (-1_500_000_000, "-1.5 s"),
        (-150_000_000_000, "-2 min 30 s"), (Int64.max, "2562047 h 47 min"), (Int64.min, "-2562047 h 47 min"),
    ])
    func compact(nanoseconds: Int64, text: String) {
        #expect(DurationFormat.compact.string(nanoseconds) == text)
    }

    @Test("clock: signed seconds to the millisecond, truncated", arguments: [
        (Int64(0), "+0.000 s"), (999, "+0.000 s"), (999_900_000, "+0.999 s"), (1_234_567_890, "+1.234 s"),
        (59_999_500_000, "+59.999 s"), (60_000_000_000, "+60.000 s"), (3_600_000_000_000, "+3600.000 s"),
        (-3_500_000, "-0.003 s"), (-999, "-0.000 s"), (Int64.max, "+9223372036.854 s"),
        (Int64.min, "-9223372036.854 s"),
    ])
    func clock(nanoseconds: Int64, text: String) {
        #expect(DurationFormat.clock.signed(nanoseconds) == text)
    }

    @Test("signed writes + for zero and positive values in any style")
    func signed() {
        #expect(DurationFormat.compact.signed(250_000_000) == "+250 ms")
        #expect(DurationFormat.compact.signed(-250_000_000) == "-250 ms")
        #expect(DurationFormat.fixed.signed(0) == "+0 ns")
        #expect(DurationFormat.clock.string(900_000_000) == "0.900 s")
    }

    @Test("a busy interval just under a limit never reads as the limit")
    func neverRoundsUpPastWhatHappened() {
        let busy: Int64 = 999_900_000
        let limit: Int64 = 1_000_000_000
        #expect(DurationFormat.fixed.string(busy) != DurationFormat.fixed.string(limit))
        #expect(!DurationFormat.fixed.string(busy).hasPrefix("1"))
    }
}

struct DecimalTextTests {
    @Test("scaled integers with a fixed number of decimals, or trailing zeros dropped")
    func scaled() {
        #expect(DecimalText.string(scaled: 1_500, decimals: 3) == "1.500")
        #expect(DecimalText.string(scaled: 1_500, decimals: 3, dropsTrailingZeros: true) == "1.5")
        #expect(DecimalText.string(scaled: 2_000, decimals: 3, dropsTrailingZeros: true) == "2")
        #expect(DecimalText.string(scaled: 5, decimals: 3) == "0.005")
        #expect(DecimalText.string(scaled: 5, decimals: 3, negative: true) == "-0.005")
        #expect(DecimalText.string(scaled: 42, decimals: 0) == "42")
        #expect(DecimalText.string(scaled: UInt64.max, decimals: 3) == "18446744073709551.615")
    }

    @Test("doubles rounded half away from zero; no sign on a value that rounds to zero")
    func doubles() {
        #expect(DecimalText.string(0.125, decimals: 2) == "0.13")
        #expect(DecimalText.string(-0.125, decimals: 2) == "-0.13")
        #expect(DecimalText.string(12.3, decimals: 2) == "12.30")
        #expect(DecimalText.string(-0.0004, decimals: 3, dropsTrailingZeros: true) == "0")
        #expect(DecimalText.compact(0.05) == "0.05")
        #expect(DecimalText.compact(1.5) == "1.5")
        #expect(DecimalText.compact(7) == "7")
    }

    @Test("values a Double cannot hold to the decimal are written as Swift writes them")
    func outOfRange() {
        #expect(DecimalText.compact(1e16) == "1e+16")
        #expect(DecimalText.compact(-.infinity) == "-inf")
        #expect(DecimalText.compact(.nan) == "nan")
    }
}
