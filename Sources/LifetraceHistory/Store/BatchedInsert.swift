import GRDB
import GRDBSQLite

/// Rows of one table written several to a statement (`INSERT ... VALUES (...), (...), ...`):
/// a build adds a row per lifetime and per stall, and each statement GRDB runs costs about as
/// much bookkeeping as SQLite's insert of a row; written by the batch, that cost is paid once
/// for up to ``rowsPerStatement`` rows. The rows reach the table in the order they are appended.
///
/// A row's values are bound to the statement's parameters by `bind`, through a ``RowBinder``,
/// straight from the row's own fields: GRDB's `StatementArguments` would box each value as a
/// `DatabaseValue` first, which cost more than the insert (docs/PERFORMANCE.md, "A build's rows
/// bound in place").
struct BatchedInsert<Row> {
    /// The most rows one statement writes: 64, or fewer where 64 rows would bind more than 999
    /// values, the most SQLite allows in one statement before 3.32.0 ("Maximum Number Of Host
    /// Parameters In A Single SQL Statement", sqlite.org/limits.html).
    let rowsPerStatement: Int
    private let head: String
    private let rowPlaceholders: String
    private let bind: (Row, inout RowBinder) -> Void
    private var pending: [Row] = []
    /// The statement of ``rowsPerStatement`` rows, once prepared: a batch lives in one
    /// transaction of one database, and is dropped with it.
    private var fullStatement: Statement?

    /// Rows of `columns` into `table`; `bind` binds one value per column, in the columns' order.
    init(into table: String, columns: [String], bind: @escaping (Row, inout RowBinder) -> Void) {
        head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        rowPlaceholders = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        rowsPerStatement = max(1, min(64, 999 / columns.count))
        self.bind = bind
        pending.reserveCapacity(rowsPerStatement)
    }

    /// Adds a row, and writes the pending rows when they fill a statement.
    mutating func append(_ row: Row, in db: Database) throws {
        pending.append(row)
        if pending.count == rowsPerStatement { try flush(in: db) }
    }

    /// Writes the rows still pending. The full statement is prepared at its first use and kept
    /// for the add; the shorter one, written once per add, is not.
    mutating func flush(in db: Database) throws {
        guard !pending.isEmpty else { return }
        let full = pending.count == rowsPerStatement
        let kept = full ? fullStatement : nil
        let statement = try kept ?? db.makeStatement(sql: Self.sql(head, rowPlaceholders, rows: pending.count))
        if full { fullStatement = statement }
        try RowBinder.execute(statement, fresh: kept == nil, in: db) { values in
            for row in pending {
                bind(row, &values)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private static func sql(_ head: String, _ rowPlaceholders: String, rows: Int) -> String {
        head + Array(repeating: rowPlaceholders, count: rows).joined(separator: ", ")
    }
}

/// Binds values to a statement's parameters one after the other, from the first, through
/// SQLite's C API (`sqlite3_bind_*`, sqlite.org/c3ref/bind_blob.html). Text is copied by SQLite
/// (`SQLITE_TRANSIENT`). The first failure is kept, and thrown before the statement runs.
struct RowBinder {
    private let statement: SQLiteStatement
    private var index: CInt = 1
    private var failure: CInt = SQLITE_OK

    private init(_ statement: SQLiteStatement) {
        self.statement = statement
    }

    /// Runs `statement` with the values `bind` binds to its parameters, in order: as many as it
    /// has. `fresh`: the statement was not run by this function before, or may have been run by
    /// others since (a cached statement).
    static func execute(_ statement: Statement, fresh: Bool = true, in db: Database, _ bind: (inout RowBinder) -> Void) throws {
        if fresh {
            // GRDB's arguments set to none, unchecked: this resets the statement and clears its
            // bindings, and from then on `execute()` runs it with the bindings it holds.
            statement.setUncheckedArguments(StatementArguments())
        } else {
            // Run before by this function, and by no one else: reset (SQLite binds only a
            // statement that is not running), its bindings kept, as each is bound anew below.
            // The code is the last run's, which succeeded (a failed run ended the add).
            sqlite3_reset(statement.sqliteStatement)
        }
        var binder = RowBinder(statement.sqliteStatement)
        bind(&binder)
        try binder.finish(of: statement, in: db)
        try statement.execute()
    }

    mutating func bind(_ value: Int64) {
        record(sqlite3_bind_int64(statement, index, value))
    }

    mutating func bind(_ value: Int) {
        bind(Int64(value))
    }

    mutating func bind(_ value: Int64?) {
        if let value { bind(value) } else { bindNull() }
    }

    mutating func bind(_ value: Int?) {
        if let value { bind(Int64(value)) } else { bindNull() }
    }

    /// Text as GRDB binds it, up to its first NUL (a C string): the store holds what GRDB reads.
    mutating func bind(_ value: String) {
        var text = value
        let code = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                let length = chars.firstIndex(of: 0) ?? chars.count
                // An empty buffer may have no address, which SQLite would read as NULL.
                return sqlite3_bind_text64(
                    statement, index, chars.baseAddress ?? Self.emptyText, sqlite3_uint64(length), Self.transient, UInt8(SQLITE_UTF8))
            }
        }
        record(code)
    }

    mutating func bind(_ value: String?) {
        if let value { bind(value) } else { bindNull() }
    }

    private mutating func bindNull() {
        record(sqlite3_bind_null(statement, index))
    }

    private mutating func record(_ code: CInt) {
        if failure == SQLITE_OK { failure = code }
        index += 1
    }

    /// Throws the first failure to bind, or a count of values other than the statement's
    /// parameters (a row that bound more or fewer values than its columns).
    private func finish(of statement: Statement, in db: Database) throws {
        if failure != SQLITE_OK {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: failure), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: statement.sql)
        }
        let parameters = sqlite3_bind_parameter_count(statement.sqliteStatement)
        guard index - 1 == parameters else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(index - 1) values bound to \(parameters) parameters", sql: statement.sql)
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: the value is copied before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
    /// An empty C string in the binary's constant data.
    private static var emptyText: UnsafePointer<CChar> {
        UnsafeRawPointer(("" as StaticString).utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
