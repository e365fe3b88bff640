import LifetraceFormat

/// A duration could not be read from text.
public struct DurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text as given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    /// Creates an error.
    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    /// One line for the command line.
    public var description: String { "invalid duration \"\(text)\": " + explanation }

    /// What is wrong, with an example of what is right, for a message that shows the text already.
    public var explanation: String { "\(reason) (write a number and a unit: 250ms, 1.5s, 20s)" }
}

/// Reads durations written like `250ms`, `1.5s`, `20s`, `2m` into nanoseconds, the way the tool
/// prints them (``DurationFormat``): `250 ms`, `840 µs`, `1.500 s`, and in minutes and hours:
/// `1 min`, `2 min 30 s`, `1 h 5 min`.
/// A duration of several terms is their sum; each term is a number and a unit. A number may
/// have an exponent (`1.5e3ms`), as the other numbers the tool reads may.
public enum DurationParser {
    /// The units, longest suffix first so that `ms` is not read as `s`.
    static let units: [(suffix: String, nanoseconds: Int64)] = [
        ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ("m", 60_000_000_000), ("min", 60_000_000_000), ("h", 3_600_000_000_000),
    ]

    /// The number of nanoseconds `text` stands for.
    public static func nanoseconds(_ text: String) throws(DurationError) -> Int64 {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw DurationError(text: text, reason: "it is empty") }
        var total: Int64 = 0
        for term in terms(trimmed) {
            let (sum, overflow) = total.addingReportingOverflow(try nanoseconds(term: term, of: text))
            guard !overflow, sum <= TraceTime.limit else {
                throw DurationError(text: text, reason: "it is longer than 2^60 ns (about 36 years)")
            }
            total = sum
        }
        return total
    }

    /// `text` cut after each unit that a number follows: `2 min 30 s` is `2 min` and `30 s`.
    private static func terms(_ text: String) -> [Substring] {
        var terms: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        var afterUnit = false
        while index < text.endIndex {
            let character = text[index]
            if isExponent(at: index, in: text) {
                // `1e3ms`: the `e` of a number's exponent, not a unit.
                afterUnit = false
            } else if afterUnit && (character.isASCII && character.isNumber) {
                terms.append(text[start..<index])
                start = index
                afterUnit = false
            } else if character.isLetter {
                afterUnit = true
            } else if !character.isWhitespace {
                afterUnit = false
            }
            index = text.index(after: index)
        }
        terms.append(text[start...])
        return terms
    }

    /// Whether the character at `index` is the `e` (or `E`) of an exponent: right after a digit
    /// or a decimal point that follows one, and before a digit or a sign and a digit.
    private static func isExponent(at index: String.Index, in text: String) -> Bool {
        guard text[index] == "e" || text[index] == "E", index > text.startIndex else { return false }
        let before = text[text.index(before: index)]
        guard before.isASCII && (before.isNumber || before == ".") else { return false }
        var next = text.index(after: index)
        if next < text.endIndex, text[next] == "+" || text[next] == "-" { next = text.index(after: next) }
        return next < text.endIndex && text[next].isASCII && text[next].isNumber
    }

    /// A number written with an exponent (`1.5e3`, `2E-3`) as plain decimals (`1500`, `0.002`),
    /// exactly, so that the bound below holds the same for both spellings; `tooLong` when the
    /// number has more than 40 digits before its point (past any bound), nil when it is not a
    /// number.
    private static func plainDecimal(_ number: String) -> (text: String, tooLong: Bool)? {
        let parts = number.split(omittingEmptySubsequences: false) { $0 == "e" || $0 == "E" }
        guard parts.count == 2 else { return nil }
        let mantissa = parts[0]
        var exponentText = Substring(parts[1])
        let negative = exponentText.first == "-"
        if exponentText.first == "+" || exponentText.first == "-" { exponentText = exponentText.dropFirst() }
        let pieces = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard !exponentText.isEmpty, exponentText.allSatisfy({ $0.isASCII && $0.isNumber }), pieces.count <= 2,
            pieces.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), pieces.contains(where: { !$0.isEmpty })
        else { return nil }
        let digits = Array(pieces.joined())
        guard digits.contains(where: { $0 != "0" }) else { return ("0", false) }
        // Exponents past a few digits are either past every bound or below a nanosecond.
        let magnitude = exponentText.drop { $0 == "0" }.count > 6 ? 10_000_000 : Int(exponentText) ?? 0
        let point = pieces[0].count + (negative ? -magnitude : magnitude)
        if point > 40 { return ("", true) }
        if point <= 0 { return (point < -40 ? "0" : "0." + String(repeating: "0", count: -point) + String(digits), false) }
        if point >= digits.count { return (String(digits) + String(repeating: "0", count: point - digits.count), false) }
        return (String(digits[..<point]) + "." + String(digits[point...]), false)
    }

    /// The units as a message lists them.
    static var unitNames: String { units.map(\.suffix).joined(separator: ", ") }

    /// Why a term that ends in no unit is not a duration: a character no duration has (`=`), a
    /// unit in capitals (`250MS`), or no unit at all (`250`, `fast`).
    private static func missingUnit(_ term: String) -> String {
        if let foreign = term.first(where: { !($0.isNumber || $0.isLetter || $0.isWhitespace || ".+-".contains($0)) }) {
            return "\"\(foreign)\" cannot be part of a duration"
        }
        let letters = String(term.reversed().prefix { $0.isLetter }.reversed())
        if !letters.isEmpty, units.contains(where: { $0.suffix == letters.lowercased() }) {
            return "\"\(letters)\" is not a unit: units are lower case (\(unitNames))"
        }
        return "it has no unit"
    }

    /// The nanoseconds of one term, a number and a unit; errors name the whole `text`.
    private static func nanoseconds(term: Substring, of text: String) throws(DurationError) -> Int64 {
        let trimmed = String(term).trimmingWhitespace()
        let match = units.filter { trimmed.hasSuffix($0.suffix) }.max { $0.suffix.count < $1.suffix.count }
        guard let unit = match else {
            throw DurationError(text: text, reason: missingUnit(trimmed))
        }
        var number = String(trimmed.dropLast(unit.suffix.count)).trimmingWhitespace()
        guard !number.isEmpty else {
            throw DurationError(text: text, reason: "the number is missing before \"\(unit.suffix)\"")
        }
        let tooLong = DurationError(text: text, reason: "it is longer than 2^60 ns (about 36 years)")
        if number.contains(where: { $0 == "e" || $0 == "E" }), let plain = plainDecimal(number) {
            if plain.tooLong { throw tooLong }
            number = plain.text
        }
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            Double(number) != nil
        else {
            throw DurationError(text: text, reason: "\"\(number)\" is not a non-negative number")
        }
        // The whole part in exact integer arithmetic, so that the 2^60 ns bound is the same in
        // every unit (a Double would round 2^60 + 1 ns down to 2^60 and take it); the fraction,
        // less than one unit, in floating point.
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        let digits = parts[0].drop { $0 == "0" }
        guard digits.count <= 19, let whole = digits.isEmpty ? 0 : Int64(digits) else { throw tooLong }
        let (wholeNanoseconds, overflow) = whole.multipliedReportingOverflow(by: unit.nanoseconds)
        guard !overflow else { throw tooLong }
        var fraction: Int64 = 0
        if parts.count == 2, let value = Double("0." + parts[1]) {
            fraction = Int64((value * Double(unit.nanoseconds)).rounded())
        }
        let (nanoseconds, sumOverflow) = wholeNanoseconds.addingReportingOverflow(fraction)
        guard !sumOverflow, nanoseconds <= TraceTime.limit else { throw tooLong }
        return nanoseconds
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice = slice.dropFirst() }
        while slice.last?.isWhitespace == true { slice = slice.dropLast() }
        return String(slice)
    }
}
