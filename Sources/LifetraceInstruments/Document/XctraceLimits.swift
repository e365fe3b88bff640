/// The bounds that keep an export's reading in bounded memory, whatever the document claims.
///
/// An export repeats a value by `ref` to an earlier element's `id`; the reader keeps each `id`'s
/// value, so the table of values, the size of one value (a `ref` inside an `id`'s element copies
/// the referred value in), the nesting and the events are all bounded. Past a bound the reading
/// stops with an error naming the line and column.
public struct XctraceLimits: Sendable {
    /// The deepest element nesting.
    public var maxDepth = 32
    /// The longest attribute value or element text, in UTF-8 bytes.
    public var maxStringLength = 64 << 10
    /// The largest value, in UTF-8 bytes of its strings plus ``elementCost`` per element.
    public var maxValueSize = 256 << 10
    /// The most `id`s kept.
    public var maxStoredValues = 1 << 20
    /// The most bytes kept by all `id`s together, counted as for ``maxValueSize``.
    public var maxStoredSize = 64 << 20
    /// The most events one import yields.
    public var maxEvents = 1 << 20

    /// What one element costs in the size counts, besides its strings: about what a kept value
    /// takes in memory beyond its characters, so that the size bounds bound memory.
    public static let elementCost = 160

    /// The default limits (docs/INSTRUMENTS.md, "Limits").
    public init() {}

    /// Limits with these bounds; the others default.
    public init(maxDepth: Int? = nil, maxStringLength: Int? = nil, maxValueSize: Int? = nil, maxStoredValues: Int? = nil, maxStoredSize: Int? = nil, maxEvents: Int? = nil) {
        if let maxDepth { self.maxDepth = maxDepth }
        if let maxStringLength { self.maxStringLength = maxStringLength }
        if let maxValueSize { self.maxValueSize = maxValueSize }
        if let maxStoredValues { self.maxStoredValues = maxStoredValues }
        if let maxStoredSize { self.maxStoredSize = maxStoredSize }
        if let maxEvents { self.maxEvents = maxEvents }
    }
}
