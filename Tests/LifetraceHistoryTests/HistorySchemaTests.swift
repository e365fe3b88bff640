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

    @Test func theFieldStepAddsTablesAndChangesNoneOfTheFirst() throws {
        let first = try Self.definitions(upTo: Self.firstStep)
        let all = try Self.definitions(upTo: "v2-metrickit-field-data")
        #expect(Set(first).isSubset(of: Set(all)))
        #expect(all.count > first.count)
    }
}
