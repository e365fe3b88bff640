/// A table's schema in an export: its name and its columns' mnemonics, in the order of a row's cells.
struct XctraceSchema: Sendable {
    /// The schema's name, such as `life-cycle-period`.
    var name: String
    /// The columns' mnemonics (`start`, `duration`, `process`...).
    var columns: [String]

    /// The position of the column named `mnemonic`.
    func column(_ mnemonic: String) -> Int? { columns.firstIndex(of: mnemonic) }
}
