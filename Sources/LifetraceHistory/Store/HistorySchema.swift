import GRDB

/// The store's schema, as a list of migrations: each step is applied once, in order, and
/// recorded in the store (GRDB's `grdb_migrations` table). A store that records a step this list
/// lacks was written by a newer version and is refused (docs/HISTORY.md, "The schema").
enum HistorySchema {
    /// `PRAGMA application_id` of a history store ("LTHS"), so that another SQLite file is
    /// recognised and left alone.
    static let applicationID: Int32 = 0x4C54_4853

    /// The migrations, oldest first. Never change what a released step makes (`HistorySchemaTests`
    /// holds the first step's tables as released): add a step. A step that only creates tables
    /// cannot break a foreign key, so it runs with the keys checked as it goes (`.immediate`)
    /// rather than GRDB's default, which turns them off and checks every row of every table
    /// afterwards (`PRAGMA foreign_key_check`): the whole store, when an older one is brought up
    /// to date. A step that rebuilds a table must take the default.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-builds-runs-lifetimes", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.create(table: "build") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("buildID", .text).notNull().unique()
                for name in ["commitID", "branch", "appVersion", "buildNumber", "device", "os"] { table.column(name, .text) }
                table.column("date", .text).notNull()
            }
            try db.create(table: "run") { table in
                table.autoIncrementedPrimaryKey("id")
                table.parent("build").notNull()
                table.column("path", .text).notNull()
                table.column("source", .text).notNull()
                table.column("events", .integer).notNull()
                table.column("lifetimes", .integer).notNull()
                for name in ["appVersion", "os", "device"] { table.column(name, .text) }
                table.uniqueKey(["buildId", "path"])
            }
            try db.create(table: "lifetime") { table in
                table.autoIncrementedPrimaryKey("id")
                table.owned(by: "run")
                table.column("position", .integer).notNull()
                table.column("launchKind", .text).notNull()
                table.column("launchDuration", .integer)
                table.column("busyInWindow", .integer).notNull()
                for name in ["willFinishLaunching", "didFinishLaunchingEnd", "firstActive", "firstFrame"] { table.column(name, .integer) }
                for name in ["stallCount", "omittedStalls", "onScreen", "background"] { table.column(name, .integer).notNull() }
                table.column("timeInStates", .text).notNull()
                table.column("endKind", .text).notNull()
                table.column("endCode", .integer)
                table.column("endSignal", .integer)
            }
            try db.create(table: "stall") { table in
                table.owned(by: "lifetime")
                table.column("position", .integer).notNull()
                table.column("duration", .integer).notNull()
                table.column("blame", .text).notNull()
            }
            try db.create(table: "violation") { table in
                table.owned(by: "run")
                table.column("rule", .text).notNull()
                table.column("severity", .text).notNull()
                table.column("count", .integer).notNull()
            }
        }
        registerFieldData(in: &migrator)
        return migrator
    }
}

extension TableDefinition {
    /// The columns of a row that belongs to a `parent` row: the parent, and the build (so that
    /// a build is read, and deleted, at a time). Released steps make their tables with it: it
    /// never changes (`HistorySchemaTests` holds the first step's tables as released).
    func owned(by parent: String) {
        self.parent(parent).notNull()
        column("buildId", .integer).notNull().indexed()
    }

    /// The column `<table>Id` of a row that belongs to a `table` row, deleted with it, and
    /// indexed: the column and index GRDB's `belongsTo` makes (`HistorySchemaTests` holds them),
    /// named here rather than inflected from the table's name, which compiles the inflections'
    /// regular expressions each time a store is created. The referenced column is named too
    /// (every table's key is `id`): left implicit, GRDB reads the parent's primary key from the
    /// schema, which it reloads after each statement of a migration.
    @discardableResult
    func parent(_ table: String) -> ColumnDefinition {
        column("\(table)Id", .integer).indexed().references(table, column: "id", onDelete: .cascade)
    }
}
