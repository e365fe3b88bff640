/// A measurement as MetricKit's JSON writes it: a number with grouping commas and a unit, such as
/// `"1,300 kB"`, `"20 sec"`, `"200 ms"` or `"100 kiloinstructions"` (the text of an
/// `NSMeasurement`, docs/HISTORY.md "MetricKit"). A duration is also read in nanoseconds.
struct MetricKitMeasurement: Sendable, Hashable {
    /// The number.
    var amount: Double
    /// The unit as written (`ms`, `sec`, `kB`); empty when none.
    var unit: String

    /// Nanoseconds per unit of the durations MetricKit writes.
    private static let nanosecondsPer: [String: Double] = [
        "ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "sec": 1e9, "secs": 1e9, "min": 60e9, "hr": 3600e9, "h": 3600e9,
    ]

    /// A measurement from its number and unit.
    init(amount: Double, unit: String) {
        self.amount = amount
        self.unit = unit
    }

    /// The measurement of `text`; nil when it does not start with a number.
    init?(_ text: String) {
        var number = ""
        var rest = Substring(text.drop { $0 == " " })
        while let character = rest.first, character.isNumber || character == "." || character == "," || character == "-" || character == "+"
            || (character == "e" && !number.isEmpty && rest.dropFirst().first.map { $0.isNumber || $0 == "-" } == true)
        {
            if character != "," { number.append(character) }
            rest = rest.dropFirst()
        }
        guard let amount = Double(number), amount.isFinite else { return nil }
        self.amount = amount
        unit = rest.trimmingCharacters(in: " ")
    }

    /// The amount in nanoseconds, when the unit is a duration's.
    var nanoseconds: Double? {
        Self.nanosecondsPer[unit].map { amount * $0 }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
