import LifetraceFormat

/// The one place that decides how much of a name a message quotes.
///
/// Names come from the trace or the rule file and have no length limit of their own (a
/// symbol may be megabytes long). A message or a blame text that quoted such a name whole
/// would copy it once per finding, so memory would grow with what a small input claims:
/// 2000 findings about one interned 1 MB name are 2 GB of text. Every message builder
/// (the analyzer's messages, stall blame, background task labels, the rule engine's
/// messages) shows names through ``shown(_:)`` instead, and so do the JSON witnesses
/// (`events[]`), which would otherwise write the name whole once per finding.
public enum NameText {
    /// The most Unicode scalars of a name a message shows.
    public static let limit = 200

    /// `name` unchanged when it has at most ``limit`` Unicode scalars; otherwise its first
    /// ``limit`` scalars, `…`, and its full length in UTF-8 bytes: `aaaa… (1000000 bytes)`.
    /// Costs at most ``limit`` scalars of work and memory whatever the name's length.
    public static func shown(_ name: String) -> String {
        if name.utf8.count <= limit { return name }
        var end = name.unicodeScalars.startIndex
        var count = 0
        while count < limit, end != name.unicodeScalars.endIndex {
            name.unicodeScalars.formIndex(after: &end)
            count += 1
        }
        if end == name.unicodeScalars.endIndex { return name }
        return String(name.unicodeScalars[..<end]) + "… (\(name.utf8.count) bytes)"
    }
}

extension SymbolTable {
    /// The name behind `symbol` as a message shows it (``NameText/shown(_:)``), or nil for
    /// ``Symbol/none``.
    public func shown(_ symbol: Symbol) -> String? {
        string(symbol).map(NameText.shown)
    }
}
