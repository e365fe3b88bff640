import GRDB
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

extension HistoryStore {
    /// Adds `runs` under `build`, in one transaction: the build is created when the store does
    /// not have it (a second job of the same build adds to it), and each run is stored with its
    /// lifetimes, stalls and violations. A run whose path the build already has refuses the whole
    /// add; nothing of it is written then, nor on any other error. MetricKit `payloads` are
    /// added under the build the same way (a payload file the build already has refuses it too).
    public func add(_ build: BuildRecord, runs: [HistoryRun], payloads: [MetricKitPayload] = []) throws(HistoryStoreError) {
        try write { db in
            let buildRow = try Self.buildRow(build, in: db)
            for payload in payloads {
                try refusingDuplicate(payload.path, of: build) { try Self.insert(payload, build: buildRow, in: db) }
            }
            var lifetimes = BatchedInsert(into: "lifetime", columns: Self.lifetimeColumns, bind: Self.bindLifetime)
            var violations = BatchedInsert(into: "violation", columns: ["runId", "buildId", "rule", "severity", "count"]) {
                (row: (run: Int64, build: Int64, entry: HistoryRun.RuleCount), values: inout RowBinder) in
                values.bind(row.run)
                values.bind(row.build)
                values.bind(row.entry.rule)
                values.bind(row.entry.severity)
                values.bind(row.entry.count)
            }
            let firstLifetimeRow = try Self.nextRowID(of: "lifetime", adding: runs.reduce(0) { $0 + $1.lifetimes.count }, in: db)
            var lifetimeRow = firstLifetimeRow
            for run in runs {
                let runRow = try refusingDuplicate(run.path, of: build) { try Self.insert(run, build: buildRow, in: db) }
                for lifetime in run.lifetimes {
                    try lifetimes.append(LifetimeRow(id: lifetimeRow, run: runRow, build: buildRow, lifetime: lifetime), in: db)
                    lifetimeRow += 1
                }
                for entry in run.violations {
                    try violations.append((runRow, buildRow, entry), in: db)
                }
            }
            try lifetimes.flush(in: db)
            try violations.flush(in: db)
            // The stalls once every lifetime is written: each names its lifetime's row, and the
            // foreign key is checked as the stall is written. The rows are walked in the order
            // their ids were given above.
            var stalls = BatchedInsert(into: "stall", columns: ["lifetimeId", "buildId", "position", "duration", "blame"]) {
                (row: (lifetime: Int64, build: Int64, position: Int, stall: (duration: Int64, blame: String)), values: inout RowBinder) in
                values.bind(row.lifetime)
                values.bind(row.build)
                values.bind(row.position)
                values.bind(row.stall.duration)
                values.bind(row.stall.blame)
            }
            lifetimeRow = firstLifetimeRow
            for run in runs {
                for lifetime in run.lifetimes {
                    for (position, stall) in lifetime.stalls.enumerated() {
                        try stalls.append((lifetimeRow, buildRow, position, stall), in: db)
                    }
                    lifetimeRow += 1
                }
            }
            try stalls.flush(in: db)
        }
    }

    /// `insert`'s result; a run or a payload file the build already has is refused: the only
    /// unique key of the `run` and `fieldPayload` tables is a row's build and path, and the
    /// other rows an insert writes have none.
    private func refusingDuplicate<T>(_ file: String, of build: BuildRecord, _ insert: () throws -> T) throws -> T {
        do {
            return try insert()
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw HistoryStoreError(path: path, .duplicateRun(build: build.buildID, path: file))
        }
    }

    /// The row id of `build`, inserted when new; fields the stored build lacks are filled in.
    private static func buildRow(_ build: BuildRecord, in db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO build (buildID, commitID, branch, appVersion, buildNumber, device, os, date)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (buildID) DO UPDATE SET
                    commitID = coalesce(commitID, excluded.commitID), branch = coalesce(branch, excluded.branch),
                    appVersion = coalesce(appVersion, excluded.appVersion),
                    buildNumber = coalesce(buildNumber, excluded.buildNumber),
                    device = coalesce(device, excluded.device), os = coalesce(os, excluded.os)
                """,
            arguments: [
                build.buildID, build.commit, build.branch, build.appVersion, build.buildNumber, build.device, build.os, build.date,
            ])
        return try Int64.fetchOne(db, sql: "SELECT id FROM build WHERE buildID = ?", arguments: [build.buildID])!
    }

    /// The run's row, inserted; its id.
    private static func insert(_ run: HistoryRun, build: Int64, in db: Database) throws -> Int64 {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO run (buildId, path, source, events, lifetimes, appVersion, os, device) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        try RowBinder.execute(statement, in: db) { values in
            values.bind(build)
            values.bind(run.path)
            values.bind(run.source)
            values.bind(run.events)
            values.bind(run.lifetimeCount)
            values.bind(run.metadata["appVersion"])
            values.bind(run.metadata["os"])
            values.bind(run.metadata["device"])
        }
        return db.lastInsertedRowID
    }

    private static let lifetimeColumns = [
            "id", "runId", "buildId", "position", "launchKind", "launchDuration", "busyInWindow", "willFinishLaunching",
            "didFinishLaunchingEnd", "firstActive", "firstFrame", "stallCount", "omittedStalls", "onScreen", "background",
            "timeInStates", "endKind", "endCode", "endSignal",
        ]

    /// A lifetime's row: the lifetime, its id and its run's and build's.
    private struct LifetimeRow {
        var id: Int64
        var run: Int64
        var build: Int64
        var lifetime: HistoryRun.Lifetime
    }

    /// Binds the values of `row`, in the order of ``lifetimeColumns``.
    private static func bindLifetime(_ row: LifetimeRow, to values: inout RowBinder) {
        let lifetime = row.lifetime
        let milestones = lifetime.milestones
        values.bind(row.id)
        values.bind(row.run)
        values.bind(row.build)
        values.bind(lifetime.position)
        values.bind(lifetime.launchKind.rawValue)
        values.bind(lifetime.launchDuration)
        values.bind(lifetime.busyInWindow)
        values.bind(milestones.willFinishLaunching)
        values.bind(milestones.didFinishLaunchingEnd)
        values.bind(milestones.firstActive)
        values.bind(milestones.firstFrame)
        values.bind(lifetime.stalls.count + lifetime.omittedStalls)
        values.bind(lifetime.omittedStalls)
        values.bind(lifetime.onScreen)
        values.bind(lifetime.background)
        values.bind(StateTimesText.encode(lifetime.timeInStates))
        values.bind(lifetime.end.rawValue)
        values.bind(lifetime.endCode)
        values.bind(lifetime.endSignal)
    }

    /// The first of `count` consecutive ids for new rows of `table` (whose key is `id`, declared
    /// `AUTOINCREMENT`): one past the largest id the table ever held, which SQLite keeps in
    /// `sqlite_sequence` (sqlite.org/autoinc.html), or holds now. The ids are given by the add
    /// itself so that its stalls can name their lifetimes' rows without a statement per
    /// lifetime; that is sound because the add runs in an immediate write transaction, the
    /// store's only writer until it ends (another writer waits, or is refused as busy). Ids past
    /// the largest integer SQLite holds are refused as SQLite refuses them, as a full store.
    private static func nextRowID(of table: String, adding count: Int, in db: Database) throws -> Int64 {
        let largest = try Int64.fetchOne(
            db,
            sql: """
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), coalesce((SELECT max(id) FROM \(table)), 0))
                """,
            arguments: [table]) ?? 0
        guard largest < Int64.max - Int64(count) else {
            throw DatabaseError(resultCode: .SQLITE_FULL, message: "no row ids left in \(table)")
        }
        return largest + 1
    }
}
