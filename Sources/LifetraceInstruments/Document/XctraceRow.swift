/// One row of a table, its cells in the schema's column order, and where it starts in the document.
struct XctraceRow: Sendable {
    /// The table's schema.
    var schema: XctraceSchema
    /// The cells, one per column.
    var cells: [XctraceValue]
    /// The line of the row's start tag, from 1.
    var line: Int
    /// The column of the row's start tag, from 1.
    var column: Int

    /// The cell of the column named `mnemonic`, or nil when the schema has no such column or the
    /// cell is empty.
    func cell(_ mnemonic: String) -> XctraceValue? {
        guard let index = schema.column(mnemonic), !cells[index].isSentinel else { return nil }
        return cells[index]
    }
}
