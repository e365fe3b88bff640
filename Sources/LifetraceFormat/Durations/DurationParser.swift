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

/// Reads durations written like `250ms`, `1.5s`, `20s`, `2m` into nanoseconds.
public enum DurationParser {
    /// The units, longest suffix first so that `ms` is not read as `s`.
    static let units: [(suffix: String, nanoseconds: Double)] = [
        ("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9), ("m", 60e9), ("h", 3600e9),
    ]

    /// The number of nanoseconds `text` stands for.
    public static func nanoseconds(_ text: String) throws(DurationError) -> Int64 {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw DurationError(text: text, reason: "it is empty") }
        let match = units.filter { trimmed.hasSuffix($0.suffix) }.max { $0.suffix.count < $1.suffix.count }
        guard let unit = match else {
            throw DurationError(text: text, reason: "it has no unit")
        }
        let number = String(trimmed.dropLast(unit.suffix.count)).trimmingWhitespace()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number)
        else {
            throw DurationError(text: text, reason: "\"\(number)\" is not a non-negative number")
        }
        let ns = value * unit.nanoseconds
        guard ns <= Double(TraceTime.limit) else {
            throw DurationError(text: text, reason: "it is longer than 2^60 ns (about 36 years)")
        }
        return Int64(ns.rounded())
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
