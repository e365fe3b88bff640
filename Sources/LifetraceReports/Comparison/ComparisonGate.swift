import Foundation
import LifetraceFormat

/// When a comparison fails: the largest allowed median regression, absolute budgets, and the
/// significance level a regression must reach to count.
public struct ComparisonGate: Sendable, Hashable {
    /// The largest allowed rise of a metric's median, in percent; nil for none.
    public var maxRegression: Double?
    /// Absolute budgets on the candidate runs.
    public var budgets: [Budget]
    /// The significance level (two-sided Mann-Whitney p-value below it counts). Default 0.05.
    public var alpha: Double
    /// Whether more violations per run in the candidates than in the baseline fail (default):
    /// a new violation is a broken rule, not noise.
    public var failsOnMoreViolations: Bool

    /// A gate.
    public init(
        maxRegression: Double? = nil, budgets: [Budget] = [], alpha: Double = 0.05, failsOnMoreViolations: Bool = true
    ) {
        self.maxRegression = maxRegression
        self.budgets = budgets
        self.alpha = alpha
        self.failsOnMoreViolations = failsOnMoreViolations
    }

    /// Whether the gate checks anything statistical (budgets or a maximum regression), which
    /// needs several runs per side; the violations check counts and needs none.
    public var isEmpty: Bool { maxRegression == nil && budgets.isEmpty }

    /// The members of a budget file, named as the configuration file and the options name them.
    static let fileMembers = ["alpha", "max-regression", "budget"]
    /// The earlier spellings of the budget file's members, still read: `maxRegression`, `budgets`.
    static let fileMemberAliases = ["maxRegression": "max-regression", "budgets": "budget"]

    /// Adds what a budget file says. The file is JSON:
    /// `{"alpha": 0.05, "max-regression": "10%", "budget": {"launch.cold.p50": "400ms", "stalls.count.p90": 1}}`
    /// (`maxRegression` and `budgets`, the earlier spellings, are read too);
    /// every member is optional; what the command line gives wins over the file's alpha and
    /// maximum regression.
    /// Errors name the file, the line and the column of the member at fault
    /// (`budgets.json:3:5: unknown member "budgets2" ...`).
    public mutating func read(file path: String) throws(BudgetError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BudgetError(source: path, reason: "cannot read the budget file")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw BudgetError(source: path, reason: "not valid JSON at \(JSONErrorLocation(of: error, in: [UInt8](data)))")
        }
        let bytes = [UInt8](data)
        let expected = Self.fileMembers.joined(separator: ", ")
        guard let object = parsed as? [String: Any] else {
            let start = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? 0
            throw BudgetError(
                source: Self.place(path, JSONMemberPositions.position(of: start, in: bytes)),
                reason: "expected a JSON object with \(expected)")
        }
        // Foundation gives no positions: the members are found again where they are written.
        let positions = JSONMemberPositions(document: bytes)
        func keyPlace(_ name: String, in members: JSONMemberPositions? = nil) -> String {
            guard let member = (members ?? positions).member(name) else { return path }
            return Self.place(path, (member.line, member.column))
        }
        func valuePlace(_ name: String, in members: JSONMemberPositions? = nil) -> String {
            guard let member = (members ?? positions).member(name) else { return path }
            return Self.place(path, (member.valueLine, member.valueColumn))
        }
        // Each member under the name it is given, by its name today.
        var given: [String: String] = [:]
        for member in positions.members {
            guard let name = Self.fileMembers.contains(member.key) ? member.key : Self.fileMemberAliases[member.key] else {
                throw BudgetError(
                    source: Self.place(path, (member.line, member.column)),
                    reason: "unknown member \"\(member.key)\" (expected \(expected))")
            }
            if let earlier = given[name] {
                let again = earlier == member.key ? "is given twice" : "says again what \"\(earlier)\" says"
                throw BudgetError(
                    source: Self.place(path, (member.line, member.column)),
                    reason: "\"\(member.key)\" \(again): give it once, as \"\(name)\"")
            }
            given[name] = member.key
        }
        if let key = given["alpha"], let alpha = object[key] {
            guard let value = alpha as? Double, value > 0, value < 1 else {
                throw BudgetError(source: valuePlace(key), reason: "alpha must be a number between 0 and 1, such as 0.05")
            }
            self.alpha = value
        }
        if let key = given["max-regression"], let regression = object[key], maxRegression == nil {
            if let text = regression as? String {
                maxRegression = try Budget.percentage(text, source: valuePlace(key))
            } else {
                throw BudgetError(source: valuePlace(key), reason: "\(key) must be a percentage like \"10%\"")
            }
        }
        if let key = given["budget"], let budgets = object[key] {
            guard let entries = budgets as? [String: Any] else {
                throw BudgetError(source: valuePlace(key), reason: "\(key) must be an object of \"metric.statistic\": limit")
            }
            let members = positions.object(key)
            for name in entries.keys.sorted() {
                let limit: String
                switch entries[name] {
                case let text as String: limit = text
                case let number as NSNumber: limit = number.stringValue
                default:
                    throw BudgetError(source: valuePlace(name, in: members), reason: "\(name): the limit must be a string or a number")
                }
                self.budgets.append(try Budget(key: name, value: limit, source: keyPlace(name, in: members)))
            }
        }
    }

    /// `FILE:LINE:COLUMN`, the place a budget error names.
    private static func place(_ path: String, _ position: (line: Int, column: Int)) -> String {
        "\(path):\(position.line):\(position.column)"
    }
}
