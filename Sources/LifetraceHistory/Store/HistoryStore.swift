import Foundation
import GRDB
import LifetraceFormat

/// The history of builds: one SQLite file (docs/HISTORY.md). Every build's runs are added in one
/// transaction, so a failed add leaves the store as it was; two processes adding at once wait
/// for each other (write-ahead log, a busy timeout) and lose nothing.
public final class HistoryStore: Sendable {
    /// The store's path.
    public let path: String
    /// How long a write waits for another process's write to end before giving up (seconds).
    public let busyTimeout: Double
    let database: DatabaseQueue

    /// How a store is opened.
    public enum Access: Sendable {
        /// To read: the file must exist.
        case read
        /// To add builds: the file is created when missing.
        case write
    }

    /// Opens the store at `path`. Throws ``HistoryStoreError``: missing (to read), not a store,
    /// written by a newer version, damaged. Nothing is written to a file that is not a store of
    /// this version or older.
    public convenience init(path: String, access: Access, busyTimeout: Double = 30) throws(HistoryStoreError) {
        try self.init(path: path, access: access, busyTimeout: busyTimeout, pageLimit: nil)
    }

    /// ``init(path:access:busyTimeout:)`` with a limit on the store's pages, which makes a full
    /// disk happen where a test wants it.
    init(path: String, access: Access, busyTimeout: Double, pageLimit: Int?) throws(HistoryStoreError) {
        self.path = path
        self.busyTimeout = busyTimeout
        let exists = FileManager.default.fileExists(atPath: path)
        if !exists && access == .read { throw HistoryStoreError(path: path, .missing) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout)
        configuration.readonly = access == .read
        configuration.label = "history"
        configuration.prepareDatabase { db in
            if let pageLimit { try db.execute(sql: "PRAGMA max_page_count = \(pageLimit)") }
        }
        database = try Self.oneLine(path: path, busyTimeout: busyTimeout) {
            // An existing file is recognised before anything is written to it: through the
            // connection that then writes (opening writes nothing), or, when a write-ahead log or
            // a rollback journal lies beside it, through a read-only connection first, as one
            // that may write would fold the log into the file or roll the journal back, even in
            // a file that is not a store.
            var current: Bool?
            if exists && access == .write && Self.hasJournal(path) {
                var reading = configuration
                reading.readonly = true
                let probe = try DatabaseQueue(path: path, configuration: reading)
                defer { try? probe.close() }
                current = try Self.recognise(probe, path: path)
            }
            let database = try DatabaseQueue(path: path, configuration: configuration)
            if exists && current == nil { current = try Self.recognise(database, path: path) }
            if access == .write {
                try Self.prepareToWrite(
                    database, path: path, current: current ?? false, until: Date().addingTimeInterval(busyTimeout))
            } else if current != true {
                throw HistoryStoreError(path: path, .sqlite("written by an older lifetrace; `lifetrace history add` brings it up to date"))
            }
            return database
        }
    }

    /// Whether SQLite's write-ahead log or rollback journal of `path` exists.
    private static func hasJournal(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "-wal") || FileManager.default.fileExists(atPath: path + "-journal")
    }

    /// Puts the store in WAL mode and applies the schema steps it lacks (none when `current`: a
    /// step, once applied, stays). Two processes making a new store at once race: the one that
    /// loses sees an error (SQLite refuses at once, without waiting, the write lock the switch to
    /// WAL needs over the other's read lock; a table the other made), and tries again until the
    /// other is done, or the busy timeout has passed. Other errors end the add at once.
    private static func prepareToWrite(_ database: DatabaseQueue, path: String, current: Bool, until deadline: Date) throws {
        let racing: [ResultCode] = [.SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_ERROR, .SQLITE_CONSTRAINT, .SQLITE_SCHEMA]
        while true {
            do {
                try useWriteAheadLog(database, path: path)
                if !current { try HistorySchema.migrator.migrate(database) }
                return
            } catch let error as DatabaseError where racing.contains(error.resultCode) {
                guard Date() < deadline else { throw error }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    /// Puts the store in WAL mode (sqlite.org/wal.html), which it keeps: a reader goes on while a
    /// writer adds, and two writers queue on the lock. Commits are not synced, checkpoints are
    /// (`synchronous = NORMAL`, "many applications choose NORMAL when in WAL mode",
    /// sqlite.org/pragma.html#pragma_synchronous): a crash loses no committed build, a power loss
    /// the builds committed since the last checkpoint. This is GRDB's WAL set-up without the
    /// empty table it makes and drops on each open, which only its database pools need.
    private static func useWriteAheadLog(_ database: DatabaseQueue, path: String) throws {
        try database.writeWithoutTransaction { db in
            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
            guard mode == "wal" else {
                throw HistoryStoreError(path: path, .sqlite("cannot keep a write-ahead log here (journal mode \(mode ?? "unknown"))"))
            }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
    }

    /// Reads an existing file before anything may write to it: an SQLite file of another
    /// program, or a store with schema steps this version does not know, is refused. Whether
    /// the store has every step this version knows.
    private static func recognise(_ database: DatabaseQueue, path: String) throws -> Bool {
        try database.read { db in
            // A store another process is making has the migrations' table before its own tables
            // and its application id, which come in one transaction.
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            guard tables.contains(where: { $0 != "grdb_migrations" }) else { return false }
            let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            guard application == HistorySchema.applicationID else { throw HistoryStoreError(path: path, .foreign) }
            let migrator = HistorySchema.migrator
            let applied = try migrator.appliedIdentifiers(db)
            let known = Set(migrator.migrations)
            guard applied.isSubset(of: known) else {
                throw HistoryStoreError(path: path, .newerSchema(unknown: applied.subtracting(known).sorted()))
            }
            return applied == known
        }
    }

    /// Runs `body` in one write transaction, taken at once (so that two writers queue on the
    /// lock instead of failing on an upgrade).
    func write<T>(_ body: (Database) throws -> T) throws(HistoryStoreError) -> T {
        try oneLine {
            var result: T?
            try database.inTransaction(.immediate) { db in
                result = try body(db)
                return .commit
            }
            return result!
        }
    }

    /// Runs `body` in one read transaction (a snapshot: a build added meanwhile is not half seen).
    func read<T>(_ body: (Database) throws -> T) throws(HistoryStoreError) -> T {
        try oneLine { try database.read(body) }
    }

    private func oneLine<T>(_ work: () throws -> T) throws(HistoryStoreError) -> T {
        try Self.oneLine(path: path, busyTimeout: busyTimeout, work)
    }

    /// `work`'s result, SQLite's errors turned into one line naming the store at `path`.
    private static func oneLine<T>(path: String, busyTimeout: Double, _ work: () throws -> T) throws(HistoryStoreError) -> T {
        do {
            return try work()
        } catch let error as HistoryStoreError {
            throw error
        } catch let error as DatabaseError {
            throw HistoryStoreError(path: path, error, busySeconds: busyTimeout)
        } catch {
            throw HistoryStoreError(path: path, .sqlite(String(describing: error)))
        }
    }
}
