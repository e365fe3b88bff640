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
                let exists = try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM fieldPayload WHERE buildId = ? AND path = ?)", arguments: [buildRow, payload.path])
                if exists == true { throw HistoryStoreError(path: path, .duplicateRun(build: build.buildID, path: payload.path)) }
                try Self.insert(payload, build: buildRow, in: db)
            }
            for run in runs {
                let exists = try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM run WHERE buildId = ? AND path = ?)", arguments: [buildRow, run.path])
                if exists == true { throw HistoryStoreError(path: path, .duplicateRun(build: build.buildID, path: run.path)) }
                try Self.insert(run, build: buildRow, in: db)
            }
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

    private static func insert(_ run: HistoryRun, build: Int64, in db: Database) throws {
        try execute(
            db.cachedStatement(
                sql: "INSERT INTO run (buildId, path, source, events, lifetimes, appVersion, os, device) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
            [
                build, run.path, run.source, run.events, run.lifetimeCount, run.metadata["appVersion"], run.metadata["os"],
                run.metadata["device"],
            ])
        let runRow = db.lastInsertedRowID
        let lifetimeInsert = try db.cachedStatement(
            sql: """
                INSERT INTO lifetime (runId, buildId, position, launchKind, launchDuration, busyInWindow, willFinishLaunching,
                    didFinishLaunchingEnd, firstActive, firstFrame, stallCount, omittedStalls, onScreen, background, timeInStates,
                    endKind, endCode, endSignal)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let stallInsert = try db.cachedStatement(
            sql: "INSERT INTO stall (lifetimeId, buildId, position, duration, blame) VALUES (?, ?, ?, ?, ?)")
        for lifetime in run.lifetimes {
            let milestones = lifetime.milestones
            try execute(lifetimeInsert, [
                runRow, build, lifetime.position, lifetime.launchKind.rawValue, lifetime.launchDuration, lifetime.busyInWindow,
                milestones.willFinishLaunching, milestones.didFinishLaunchingEnd, milestones.firstActive, milestones.firstFrame,
                lifetime.stalls.count + lifetime.omittedStalls, lifetime.omittedStalls, lifetime.onScreen, lifetime.background,
                StateTimesText.encode(lifetime.timeInStates), lifetime.end.rawValue, lifetime.endCode, lifetime.endSignal,
            ])
            let lifetimeRow = db.lastInsertedRowID
            for (position, stall) in lifetime.stalls.enumerated() {
                try execute(stallInsert, [lifetimeRow, build, position, stall.duration, stall.blame])
            }
        }
        let violationInsert = try db.cachedStatement(
            sql: "INSERT INTO violation (runId, buildId, rule, severity, count) VALUES (?, ?, ?, ?, ?)")
        for entry in run.violations {
            try execute(violationInsert, [runRow, build, entry.rule, entry.severity, entry.count])
        }
    }

    /// Runs the insert `statement` with `arguments`, one for each of its placeholders, bound
    /// without GRDB's check of their count: the statements are written here, beside their
    /// arguments (and the tests read every column back). The check, and the temporary bindings
    /// `execute(arguments:)` makes, cost more than the row's insert (a build adds a row per
    /// lifetime and per stall).
    private static func execute(_ statement: Statement, _ arguments: StatementArguments) throws {
        statement.setUncheckedArguments(arguments)
        try statement.execute()
    }
}
