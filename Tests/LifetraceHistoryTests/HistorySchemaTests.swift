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

    /// The field step's tables and indexes as released (the columns that reference a table name
    /// its key since, which GRDB otherwise reads from the schema: the SQL is the same).
    static let fieldStepAsReleased = [
        #"CREATE TABLE "fieldDiagnostic" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "kind" TEXT NOT NULL, "position" INTEGER NOT NULL, "version" TEXT, "duration" INTEGER, "appVersion" TEXT, "buildNumber" TEXT, "device" TEXT, "os" TEXT, "callStackPerThread" BOOLEAN, "blame" TEXT NOT NULL)"#,
        #"CREATE INDEX "fieldDiagnostic_on_buildId" ON "fieldDiagnostic"("buildId")"#,
        #"CREATE INDEX "fieldDiagnostic_on_fieldPayloadId" ON "fieldDiagnostic"("fieldPayloadId")"#,
        #"CREATE TABLE "fieldExit" ("fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "context" TEXT NOT NULL, "reason" TEXT NOT NULL, "count" INTEGER NOT NULL)"#,
        #"CREATE INDEX "fieldExit_on_buildId" ON "fieldExit"("buildId")"#,
        #"CREATE INDEX "fieldExit_on_fieldPayloadId" ON "fieldExit"("fieldPayloadId")"#,
        #"CREATE TABLE "fieldFrame" ("fieldDiagnosticId" INTEGER NOT NULL REFERENCES "fieldDiagnostic"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "stack" INTEGER NOT NULL, "parent" INTEGER NOT NULL, "depth" INTEGER NOT NULL, "binaryUUID" TEXT, "binaryName" TEXT, "offset" INTEGER, "address" INTEGER, "sampleCount" INTEGER, "function" TEXT, "file" TEXT, "line" INTEGER)"#,
        #"CREATE INDEX "fieldFrame_on_buildId" ON "fieldFrame"("buildId")"#,
        #"CREATE INDEX "fieldFrame_on_fieldDiagnosticId" ON "fieldFrame"("fieldDiagnosticId")"#,
        #"CREATE TABLE "fieldHistogram" ("fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "field" TEXT NOT NULL, "metric" TEXT, "unit" TEXT NOT NULL, "position" INTEGER NOT NULL, "bucketStart" DOUBLE NOT NULL, "bucketEnd" DOUBLE NOT NULL, "count" INTEGER NOT NULL)"#,
        #"CREATE INDEX "fieldHistogram_on_buildId" ON "fieldHistogram"("buildId")"#,
        #"CREATE INDEX "fieldHistogram_on_fieldPayloadId" ON "fieldHistogram"("fieldPayloadId")"#,
        #"CREATE TABLE "fieldPayload" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "buildId" INTEGER NOT NULL REFERENCES "build"("id") ON DELETE CASCADE, "path" TEXT NOT NULL, "kind" TEXT NOT NULL, "begin" TEXT, "end" TEXT, "appVersion" TEXT, "buildNumber" TEXT, "device" TEXT, "os" TEXT, "architecture" TEXT, "region" TEXT, "fields" INTEGER NOT NULL, "notes" INTEGER NOT NULL, UNIQUE ("buildId", "path"))"#,
        #"CREATE INDEX "fieldPayload_on_buildId" ON "fieldPayload"("buildId")"#,
        #"CREATE TABLE "fieldStack" ("fieldDiagnosticId" INTEGER NOT NULL REFERENCES "fieldDiagnostic"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "position" INTEGER NOT NULL, "threadAttributed" BOOLEAN)"#,
        #"CREATE INDEX "fieldStack_on_buildId" ON "fieldStack"("buildId")"#,
        #"CREATE INDEX "fieldStack_on_fieldDiagnosticId" ON "fieldStack"("fieldDiagnosticId")"#,
        #"CREATE TABLE "fieldValue" ("fieldPayloadId" INTEGER NOT NULL REFERENCES "fieldPayload"("id") ON DELETE CASCADE, "buildId" INTEGER NOT NULL, "fieldDiagnosticId" INTEGER REFERENCES "fieldDiagnostic"("id") ON DELETE CASCADE, "field" TEXT NOT NULL, "value", "amount" DOUBLE, "unit" TEXT, "documented" BOOLEAN NOT NULL)"#,
        #"CREATE INDEX "fieldValue_on_buildId" ON "fieldValue"("buildId")"#,
        #"CREATE INDEX "fieldValue_on_fieldDiagnosticId" ON "fieldValue"("fieldDiagnosticId")"#,
        #"CREATE INDEX "fieldValue_on_fieldPayloadId" ON "fieldValue"("fieldPayloadId")"#,
    ]

    @Test func theFieldStepsTablesAreAsReleased() throws {
        let first = Set(try Self.definitions(upTo: Self.firstStep))
        #expect(try Self.definitions(upTo: "v2-metrickit-field-data").filter { !first.contains($0) } == Self.fieldStepAsReleased)
    }

    @Test func theFieldStepAddsTablesAndChangesNoneOfTheFirst() throws {
        let first = try Self.definitions(upTo: Self.firstStep)
        let all = try Self.definitions(upTo: "v2-metrickit-field-data")
        #expect(Set(first).isSubset(of: Set(all)))
        #expect(all.count > first.count)
    }
}
