import LifetraceFormat
import LifetraceOutput
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

    @Test("a mark on a scale: in the style's unit, to the digit of the largest power of ten not above the resolution", arguments: [
        (Int64(87_800_000_000), Int64(20_000_000), "87.80 s"), (87_829_999_999, 20_000_000, "87.82 s"),
        (1_305_633_002_000, 2_000, "1305.633002 s"), (88_000_000_000, 1_000_000_000, "88 s"),
        (200_000_000_000, 100_000_000_000, "200 s"), (250_000_000, 50_000_000, "250 ms"),
        (300_045_000, 45_000, "300.04 ms"), (300_045_000, 0, "300.045000 ms"), (840, 1_000, "840 ns"),
        (-1_500_000, 100_000, "-1.5 ms"),
    ])
    func resolution(nanoseconds: Int64, resolution: Int64, text: String) {
        #expect(DurationFormat.fixed.string(nanoseconds, resolution: resolution) == text)
    }

    @Test("the clock to a resolution stays in seconds: a moment is never written in another unit")
    func clockResolution() {
        #expect(DurationFormat.clock.signed(250_000_000, resolution: 50_000_000) == "+0.25 s")
        #expect(DurationFormat.clock.signed(-3_000_000, resolution: 1_000_000) == "-0.003 s")
        #expect(TraceClock.moment(87_805_000_000, resolution: 1_000_000) == TraceClock.moment(87_805_000_000))
    }

    @Test("a limit reads as given and a value beside it never reads as the limit unless it is", arguments: [
        (Int64(300_000_000), Int64(251_500_000), "300 ms", "251 ms"),
        (300_000_000, 300_400_000, "300.0 ms", "300.4 ms"), (300_000_000, 300_000_000, "300 ms", "300 ms"),
        (251_400_000, 251_500_000, "251.4 ms", "251.5 ms"), (251_400_000, 251_450_000, "251.40 ms", "251.45 ms"),
        (1_500_000, 279_400_000, "1.5 ms", "279.4 ms"), (2_000_000_000, 285_000_000, "2.000 s", "285 ms"),
        (2_000_000_000, 2_000_000_001, "2.000000000 s", "2.000000001 s"), (400_000_000, 399_999_999, "400 ms", "399 ms"),
    ])
    func limitAndValue(limit: Int64, value: Int64, limitText: String, valueText: String) {
        let written = DurationFormat.fixed.strings(limit: limit, value: value)
        #expect(written.limit == limitText)
        #expect(written.value == valueText)
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
        #expect(DurationFormat.fixed.signed(250_000_000) == "+250 ms")
        #expect(DurationFormat.fixed.signed(-250_000_000) == "-250 ms")
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
