import GRDB

/// The store's schema, as a list of migrations: each step is applied once, in order, and
/// recorded in the store (GRDB's `grdb_migrations` table). A store that records a step this list
/// lacks was written by a newer version and is refused (docs/HISTORY.md, "The schema").
enum HistorySchema {
    /// `PRAGMA application_id` of a history store ("LTHS"), so that another SQLite file is
    /// recognised and left alone.
    static let applicationID: Int32 = 0x4C54_4853

    /// The migrations, oldest first. Never change what a released step makes (`HistorySchemaTests`
    /// holds each step's tables as released): add a step. Each step is written as the SQL SQLite
    /// keeps for it, so that what a step makes cannot change with the library (GRDB's table
    /// builder, which wrote these statements once, may write them otherwise in a later version),
    /// and a new store is made without building it again. A step that only creates tables
    /// cannot break a foreign key, so it runs with the keys checked as it goes (`.immediate`)
    /// rather than GRDB's default, which turns them off and checks every row of every table
    /// afterwards (`PRAGMA foreign_key_check`): the whole store, when an older one is brought up
    /// to date. A step that rebuilds a table must take the default.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-builds-runs-lifetimes", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "PRAGMA application_id = \(applicationID)")
            // Each build's runs; each run's lifetimes, their stalls, and its violations per rule.
            // A row names its parent (deleted with it) and its build (read, and deleted, a build
            // at a time), both indexed.
            try db.execute(sql: """
                CREATE TABLE "build" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "buildID" TEXT NOT NULL UNIQUE, "commitID" TEXT, "branch" TEXT, "appVersion" TEXT, "buildNumber" TEXT, "device" TEXT, "os" TEXT, "date" TEXT NOT NULL);
                CREATE TABLE "run" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "buildId" INTEGER NOT NULL REFERENCES "build"("id") ON DELETE CASCADE, "path" TEXT NOT NULL, "source" TEXT NOT NULL, "events" INTEGER NOT NULL, "lifetimes" INTEGER NOT NULL, "appVersion" TEXT, "os" TEXT, "device" TEXT, UNIQUE ("buildId", "path"));
                CREATE INDEX "run_on_buildId" ON "run"("buildId");
                CREATE TABLE "lifetime" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "runId" INTEGER NOT NULL REFERENCES "run"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "launchKind" TEXT NOT NULL, "launchDuration" INTEGER, "busyInWindow" INTEGER NOT NULL, "willFinishLaunching" INTEGER, "didFinishLaunchingEnd" INTEGER, "firstActive" INTEGER, "firstFrame" INTEGER, "stallCount" INTEGER NOT NULL, "omittedStalls" INTEGER NOT NULL, "onScreen" INTEGER NOT NULL, "background" INTEGER NOT NULL, "timeInStates" TEXT NOT NULL, "endKind" TEXT NOT NULL, "endCode" INTEGER, "endSignal" INTEGER);
                CREATE INDEX "lifetime_on_runId" ON "lifetime"("runId");
                CREATE INDEX "lifetime_on_buildId" ON "lifetime"("buildId");
                CREATE TABLE "stall" ("lifetimeId" INTEGER NOT NULL REFERENCES "lifetime"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "duration" INTEGER NOT NULL, "blame" TEXT NOT NULL);
                CREATE INDEX "stall_on_lifetimeId" ON "stall"("lifetimeId");
                CREATE INDEX "stall_on_buildId" ON "stall"("buildId");
                CREATE TABLE "violation" ("runId" INTEGER NOT NULL REFERENCES "run"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "rule" TEXT NOT NULL, "severity" TEXT NOT NULL, "count" INTEGER NOT NULL);
                CREATE INDEX "violation_on_runId" ON "violation"("runId");
                CREATE INDEX "violation_on_buildId" ON "violation"("buildId");
                """)
        }
        registerFieldData(in: &migrator)
        return migrator
    }
}
