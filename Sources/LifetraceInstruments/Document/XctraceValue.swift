/// One value of an export: an element with its text, its `fmt` (the value as Instruments shows
/// it) and its child elements, with every `ref` already replaced by the value it names.
///
/// A `thread` holds a `tid` and a `process`, which holds a `pid`; a `sentinel` is an empty cell.
struct XctraceValue: Sendable {
    /// The element's name: its engineering type (`start-time`, `thread`, `string`...).
    var element: String
    /// The element's text, trimmed of surrounding whitespace.
    var text: String
    /// The `fmt` attribute, when there is one.
    var fmt: String?
    /// The child elements, in order.
    var children: [XctraceValue]
    /// UTF-8 bytes of the strings plus ``XctraceLimits/elementCost`` per element, children included.
    var size: Int

    /// Whether this is an empty cell.
    var isSentinel: Bool { element == "sentinel" }

    /// The first child element named `element`.
    func child(_ element: String) -> XctraceValue? {
        children.first { $0.element == element }
    }

    /// The text as an unsigned integer, or nil when it is not one.
    var unsigned: UInt64? { UInt64(text) }
}
