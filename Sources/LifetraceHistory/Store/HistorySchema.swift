import GRDB

/// The store's schema, as a list of migrations: each step is applied once, in order, and
/// recorded in the store (GRDB's `grdb_migrations` table). A store that records a step this list
/// lacks was written by a newer version and is refused (docs/HISTORY.md, "The schema").
enum HistorySchema {
    /// `PRAGMA application_id` of a history store ("LTHS"), so that another SQLite file is
    /// recognised and left alone.
    static let applicationID: Int32 = 0x4C54_4853

    /// The migrations, oldest first. Never edit a step once released: add one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-builds-runs-lifetimes") { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            try db.create(table: "build") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("buildID", .text).notNull().unique()
                table.column("commitID", .text)
                table.column("branch", .text)
                table.column("appVersion", .text)
                table.column("buildNumber", .text)
                table.column("device", .text)
                table.column("os", .text)
                table.column("date", .text).notNull()
            }
            try db.create(table: "run") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("build", onDelete: .cascade).notNull()
                table.column("path", .text).notNull()
                table.column("source", .text).notNull()
                table.column("events", .integer).notNull()
                table.column("lifetimes", .integer).notNull()
                table.column("appVersion", .text)
                table.column("os", .text)
                table.column("device", .text)
                table.uniqueKey(["buildId", "path"])
            }
            try db.create(table: "lifetime") { table in
                table.autoIncrementedPrimaryKey("id")
                table.belongsTo("run", onDelete: .cascade).notNull()
                table.column("buildId", .integer).notNull().indexed()
                table.column("position", .integer).notNull()
                table.column("launchKind", .text).notNull()
                table.column("launchDuration", .integer)
                table.column("busyInWindow", .integer).notNull()
                table.column("willFinishLaunching", .integer)
                table.column("didFinishLaunchingEnd", .integer)
                table.column("firstActive", .integer)
                table.column("firstFrame", .integer)
                table.column("stallCount", .integer).notNull()
                table.column("omittedStalls", .integer).notNull()
                table.column("onScreen", .integer).notNull()
                table.column("background", .integer).notNull()
                table.column("timeInStates", .text).notNull()
                table.column("endKind", .text).notNull()
                table.column("endCode", .integer)
                table.column("endSignal", .integer)
            }
            try db.create(table: "stall") { table in
                table.belongsTo("lifetime", onDelete: .cascade).notNull()
                table.column("buildId", .integer).notNull().indexed()
                table.column("position", .integer).notNull()
                table.column("duration", .integer).notNull()
                table.column("blame", .text).notNull()
            }
            try db.create(table: "violation") { table in
                table.belongsTo("run", onDelete: .cascade).notNull()
                table.column("buildId", .integer).notNull().indexed()
                table.column("rule", .text).notNull()
                table.column("severity", .text).notNull()
                table.column("count", .integer).notNull()
            }
        }
        registerFieldData(in: &migrator)
        return migrator
    }
}
