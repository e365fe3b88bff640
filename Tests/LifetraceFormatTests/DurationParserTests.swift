import LifetraceFormat
import LifetraceOutput
import Testing

struct DurationParserTests {
    @Test("durations with units")
    func valid() throws {
        #expect(try DurationParser.nanoseconds("250ms") == 250_000_000)
        #expect(try DurationParser.nanoseconds("1.5s") == 1_500_000_000)
        #expect(try DurationParser.nanoseconds("20s") == 20_000_000_000)
        #expect(try DurationParser.nanoseconds("2m") == 120_000_000_000)
        #expect(try DurationParser.nanoseconds("750us") == 750_000)
        #expect(try DurationParser.nanoseconds("10ns") == 10)
        #expect(try DurationParser.nanoseconds(" 3s ") == 3_000_000_000)
    }

    @Test("bad durations name the problem", arguments: [
        ("", "it is empty"), ("250", "it has no unit"), ("fast", "it has no unit"),
        ("-1s", "\"-1\" is not a non-negative number"), ("1.2.3s", "\"1.2.3\" is not a non-negative number"),
        ("250MS", "\"MS\" is not a unit: units are lower case (ns, us, µs, ms, s, m, min, h)"), ("1 Min", "\"Min\" is not a unit: units are lower case (ns, us, µs, ms, s, m, min, h)"),
        ("ms", "the number is missing before \"ms\""),
        ("400ms=3", "\"=\" cannot be part of a duration"), ("5ms,", "\",\" cannot be part of a duration"),
    ])
    func invalid(text: String, reason: String) {
        #expect(throws: DurationError(text: text, reason: reason)) { try DurationParser.nanoseconds(text) }
    }

    @Test("the error is one line with an example")
    func message() {
        let error = DurationError(text: "12x", reason: "it has no unit")
        #expect(error.description == "invalid duration \"12x\": it has no unit (write a number and a unit: 250ms, 1.5s, 20s)")
    }
}

struct DurationParserPrintedFormTests {
    @Test("minutes as the tool prints them, and durations of several terms")
    func printed() throws {
        #expect(try DurationParser.nanoseconds("1min") == 60_000_000_000)
        #expect(try DurationParser.nanoseconds("1 min") == 60_000_000_000)
        #expect(try DurationParser.nanoseconds("250 ms") == 250_000_000)
        #expect(try DurationParser.nanoseconds("840 µs") == 840_000)
        #expect(try DurationParser.nanoseconds("2 min 30 s") == 150_000_000_000)
        #expect(try DurationParser.nanoseconds("1m30s") == 90_000_000_000)
        #expect(try DurationParser.nanoseconds("1 h 5 min") == 3_900_000_000_000)
        #expect(throws: DurationError(text: "1 min 30", reason: "it has no unit")) { try DurationParser.nanoseconds("1 min 30") }
        #expect(throws: DurationError.self) { try DurationParser.nanoseconds("1152921504 s 1152921504 s") }
    }

    @Test("what DurationFormat writes reads back", arguments: [
        Int64(840), 999_000, 250_000_000, 1_500_000_000, 60_000_000_000, 150_000_000_000, 3_900_000_000_000,
    ])
    func roundTrip(nanoseconds: Int64) throws {
        #expect(try DurationParser.nanoseconds(DurationFormat.fixed.string(nanoseconds)) == nanoseconds)
    }
}

struct DurationParserExponentTests {
    @Test("a number with an exponent is a number: 1e308ms is out of range, not without a unit", arguments: [
        "1e308ms", "1E308ms", "1e40s", "2e9s", "1e999999999999h", "1.5e+20 min",
    ])
    func outOfRange(text: String) {
        #expect(throws: DurationError(text: text, reason: "it is longer than 2^60 ns (about 36 years)")) {
            try DurationParser.nanoseconds(text)
        }
    }

    @Test("exponents read exactly")
    func exact() throws {
        #expect(try DurationParser.nanoseconds("1e3ms") == 1_000_000_000)
        #expect(try DurationParser.nanoseconds("1.5e3 ms") == 1_500_000_000)
        #expect(try DurationParser.nanoseconds("2E-3s") == 2_000_000)
        #expect(try DurationParser.nanoseconds("25e-1 s 1e2ms") == 2_600_000_000)
        #expect(try DurationParser.nanoseconds("0e999999s") == 0)
        #expect(try DurationParser.nanoseconds("1e-99s") == 0)
        // 2^60 ns exactly, and one nanosecond more.
        #expect(try DurationParser.nanoseconds("1152921504606846976e0ns") == 1 << 60)
        #expect(throws: DurationError.self) { try DurationParser.nanoseconds("1152921504606846977e0ns") }
    }

    @Test("what is not an exponent stays an error of its own", arguments: [
        ("1e", "it has no unit"), ("1es", "\"1e\" is not a non-negative number"), ("1.2e3.4s", "\"1.2e3.4\" is not a non-negative number"),
        ("1e3", "it has no unit"),
    ])
    func notExponents(text: String, reason: String) {
        #expect(throws: DurationError(text: text, reason: reason)) { try DurationParser.nanoseconds(text) }
    }
}
