import GRDB

/// Rows of one table written several to a statement (`INSERT ... VALUES (...), (...), ...`):
/// a build adds a row per lifetime and per stall, and each statement GRDB runs costs about as
/// much bookkeeping as SQLite's insert of a row; written by the batch, that cost is paid once
/// for up to ``rowsPerStatement`` rows. The rows reach the table in the order they are appended.
struct BatchedInsert {
    /// The most rows one statement writes: 64, or fewer where 64 rows would bind more than 999
    /// values, the most SQLite allows in one statement before 3.32.0 ("Maximum Number Of Host
    /// Parameters In A Single SQL Statement", sqlite.org/limits.html).
    let rowsPerStatement: Int
    private let head: String
    private let rowPlaceholders: String
    private let fullStatementSQL: String
    private var pending = StatementArguments()
    private var pendingRows = 0

    /// Rows of `columns` into `table`; each row appended gives one value per column, in order.
    init(into table: String, columns: [String]) {
        head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        rowPlaceholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        rowsPerStatement = max(1, min(64, 999 / columns.count))
        fullStatementSQL = Self.sql(head, rowPlaceholders, rows: rowsPerStatement)
    }

    /// Adds a row, and writes the pending rows when they fill a statement.
    mutating func append(_ row: StatementArguments, in db: Database) throws {
        pending += row
        pendingRows += 1
        if pendingRows == rowsPerStatement { try flush(in: db) }
    }

    /// Writes the rows still pending. The full statement is prepared once and kept by the
    /// database; the shorter one, written once per add, is not.
    mutating func flush(in db: Database) throws {
        guard pendingRows > 0 else { return }
        let statement =
            pendingRows == rowsPerStatement
            ? try db.cachedStatement(sql: fullStatementSQL)
            : try db.makeStatement(sql: Self.sql(head, rowPlaceholders, rows: pendingRows))
        // Unchecked: every row appended gives one value per column (the callers write the
        // columns beside the values, and the tests read every column back).
        statement.setUncheckedArguments(pending)
        try statement.execute()
        pending = StatementArguments()
        pendingRows = 0
    }

    private static func sql(_ head: String, _ rowPlaceholders: String, rows: Int) -> String {
        head + Array(repeating: rowPlaceholders, count: rows).joined(separator: ", ")
    }
}
