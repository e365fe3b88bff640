/// Violations as an analysis keeps them: the first ``limit`` found in full, every later one
/// counted by rule only, so that what an analysis holds never grows with what a small trace can
/// claim (a million marks after `willTerminate` are a million violations).
public struct ViolationList: Sendable, Hashable {
    /// The number of violations kept in full per trace unless the options say otherwise.
    public static let defaultLimit = 1000

    /// The most violations kept in full.
    public let limit: Int
    /// The violations kept in full, in the order they were found.
    public private(set) var kept: [Violation] = []
    /// The violations found past ``limit``, counted by rule.
    public private(set) var omitted: [Rule: Int] = [:]

    /// An empty list that keeps at most `limit` violations in full.
    public init(limit: Int = ViolationList.defaultLimit) {
        self.limit = max(0, limit)
    }

    /// Whether a new violation would only be counted.
    @inline(__always)
    public var isFull: Bool { kept.count >= limit }

    /// The number of violations counted but not kept.
    public var omittedCount: Int { omitted.values.reduce(0, +) }

    /// Every violation found, kept or not.
    public var count: Int { kept.count + omittedCount }

    /// Keeps `violation`, or counts it when the list is full.
    public mutating func append(_ violation: Violation) {
        if isFull { omitted[violation.rule, default: 0] += 1 } else { kept.append(violation) }
    }

    /// Counts a violation of `rule` without keeping it (the list is full, so it would not be).
    public mutating func count(_ rule: Rule) {
        omitted[rule, default: 0] += 1
    }

    /// Counts `times` violations of `rule` without keeping them: the rules judged them from
    /// counts (stalls past a lifetime's kept ones), with no event to show.
    public mutating func count(_ rule: Rule, times: Int) {
        guard times > 0 else { return }
        omitted[rule, default: 0] += times
    }

    /// Appends `other`'s violations, kept while there is room, and its counts.
    public mutating func append(contentsOf other: ViolationList) {
        for violation in other.kept { append(violation) }
        for (rule, count) in other.omitted { omitted[rule, default: 0] += count }
    }

    /// Sorts the kept violations by time (ties in the order they were found).
    mutating func sortByTime() {
        kept = kept.enumerated().sorted {
            ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset)
        }.map(\.element)
    }
}
