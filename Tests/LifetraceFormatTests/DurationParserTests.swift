import LifetraceFormat
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
        #expect(try DurationParser.nanoseconds(DurationFormat.compact.string(nanoseconds)) == nanoseconds)
        #expect(try DurationParser.nanoseconds(DurationFormat.fixed.string(nanoseconds)) == nanoseconds)
    }
}
