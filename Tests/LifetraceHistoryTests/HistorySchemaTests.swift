import Foundation
import GRDB
@testable import LifetraceHistory
import LifetraceTestSupport
import Testing

/// The store's migrations: a store of an earlier step is brought up to date by `history add`
/// with everything it held, and a released step's tables never change.
@Suite struct HistorySchemaTests {
    static let firstStep = "v1-builds-runs-lifetimes"

    /// The tables and indexes a step list makes, as SQLite keeps their definitions.
    static func definitions(upTo step: String) throws -> [String] {
        let queue = try DatabaseQueue()
        try HistorySchema.migrator.migrate(queue, upTo: step)
        return try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'grdb_%' ORDER BY name")
        }
    }

    @Test func aStoreOfTheFirstStepGainsTheFieldTablesAndKeepsItsBuilds() throws {
        let path = try ScratchDirectory.make("history-upgrade") + "/history.sqlite"
        do {
            let queue = try DatabaseQueue(path: path)
            try HistorySchema.migrator.migrate(queue, upTo: Self.firstStep)
            try queue.write { try $0.execute(sql: "INSERT INTO build (buildID, date) VALUES ('41', '2026-11-01T00:00:00Z')") }
            try queue.close()
        }
        // Read as it is: older, and left so until something is added.
        let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(path: path, access: .read) }
        #expect(error?.description.contains("written by an older lifetrace") == true)
        let store = try HistoryStore(path: path, access: .write)
        let payload = try MetricKitImportTests.payload(MetricKitImportTests.metricPayload)
        try store.add(BuildRecord(buildID: "42", date: "2026-11-02T00:00:00Z"), runs: [], payloads: [payload])
        #expect(try store.builds().map(\.record.buildID) == ["41", "42"])
        #expect(try store.fieldData(ofBuild: store.builds()[1].row).payloads == 1)
        #expect(try store.fieldData(ofBuild: store.builds()[0].row).payloads == 0)
    }

    /// The first step's tables and indexes as released: a store written then has exactly these.
    static let firstStepAsReleased = [
            #"CREATE TABLE "build" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "buildID" TEXT NOT NULL UNIQUE, "commitID" TEXT, "branch" TEXT, "appVersion" TEXT, "buildNumber" TEXT, "device" TEXT, "os" TEXT, "date" TEXT NOT NULL)"#,
            #"CREATE TABLE "lifetime" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "runId" INTEGER NOT NULL REFERENCES "run"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "launchKind" TEXT NOT NULL, "launchDuration" INTEGER, "busyInWindow" INTEGER NOT NULL, "willFinishLaunching" INTEGER, "didFinishLaunchingEnd" INTEGER, "firstActive" INTEGER, "firstFrame" INTEGER, "stallCount" INTEGER NOT NULL, "omittedStalls" INTEGER NOT NULL, "onScreen" INTEGER NOT NULL, "background" INTEGER NOT NULL, "timeInStates" TEXT NOT NULL, "endKind" TEXT NOT NULL, "endCode" INTEGER, "endSignal" INTEGER)"#,
            #"CREATE INDEX "lifetime_on_buildId" ON "lifetime"("buildId")"#,
            #"CREATE INDEX "lifetime_on_runId" ON "lifetime"("runId")"#,
            #"CREATE TABLE "run" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "buildId" INTEGER NOT NULL REFERENCES "build"("id") ON DELETE CASCADE, "path" TEXT NOT NULL, "source" TEXT NOT NULL, "events" INTEGER NOT NULL, "lifetimes" INTEGER NOT NULL, "appVersion" TEXT, "os" TEXT, "device" TEXT, UNIQUE ("buildId", "path"))"#,
            #"CREATE INDEX "run_on_buildId" ON "run"("buildId")"#,
            #"CREATE TABLE sqlite_sequence(name,seq)"#,
            #"CREATE TABLE "stall" ("lifetimeId" INTEGER NOT NULL REFERENCES "lifetime"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "duration" INTEGER NOT NULL, "blame" TEXT NOT NULL)"#,
            #"CREATE INDEX "stall_on_buildId" ON "stall"("buildId")"#,
            #"CREATE INDEX "stall_on_lifetimeId" ON "stall"("lifetimeId")"#,
            #"CREATE TABLE "violation" ("runId" INTEGER NOT NULL REFERENCES "run"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "rule" TEXT NOT NULL, "severity" TEXT NOT NULL, "count" INTEGER NOT NULL)"#,
            #"CREATE INDEX "violation_on_buildId" ON "violation"("buildId")"#,
            #"CREATE INDEX "violation_on_runId" ON "violation"("runId")"#,
    ]

    @Test func theFirstStepsTablesAreAsReleased() throws {
        #expect(try Self.definitions(upTo: Self.firstStep) == Self.firstStepAsReleased)
    }

    @Test func theFieldStepAddsTablesAndChangesNoneOfTheFirst() throws {
        let first = try Self.definitions(upTo: Self.firstStep)
        let all = try Self.definitions(upTo: "v2-metrickit-field-data")
        #expect(Set(first).isSubset(of: Set(all)))
        #expect(all.count > first.count)
    }
}
