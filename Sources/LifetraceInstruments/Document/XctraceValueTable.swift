/// The values of an export's `id` attributes, for the `ref`s that repeat them.
///
/// Bounded in count and in total size (``XctraceLimits``): a document whose `ref`s nest values
/// into ever larger ones stops at the first value or table that would pass a bound.
struct XctraceValueTable {
    private var values: [String: XctraceValue] = [:]
    private var storedSize = 0
    private let limits: XctraceLimits

    /// An empty table.
    init(limits: XctraceLimits) { self.limits = limits }

    /// The value stored for `id`.
    subscript(id: String) -> XctraceValue? { values[id] }

    /// Stores `value` for `id`; returns a reason when a bound would be passed or the `id` is taken.
    mutating func store(_ value: XctraceValue, for id: String) -> String? {
        guard values[id] == nil else { return "id \"\(id)\" is given twice" }
        guard values.count < limits.maxStoredValues else {
            return "more than \(limits.maxStoredValues) ids; the limit keeps memory bounded"
        }
        guard storedSize + value.size <= limits.maxStoredSize else {
            return "the values of all ids pass \(limits.maxStoredSize) bytes; the limit keeps memory bounded"
        }
        values[id] = value
        storedSize += value.size
        return nil
    }
}
