import Foundation
import GRDB
import LifetraceHistory
import LifetraceTestSupport
import Testing

/// Bad MetricKit payloads: one line naming the file and where, exit 2, and the store as it was;
/// absurd claims cost no more memory or recursion than the file's size.
@Suite struct MetricKitBadInputTests {
    /// A store with one build, and a file `name` with `text` beside it.
    static func setUp(_ label: String, name: String, text: String) throws -> (directory: String, store: String, file: String) {
        let (directory, store) = try HistoryBadInputTests.storeWithOneBuild(label)
        let file = directory + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return (directory, store, file)
    }

    /// Adds `file` as build 2: the status and standard error, and whether the store kept its bytes.
    static func add(_ store: String, _ file: String) throws -> (status: Int32, error: String, unchanged: Bool) {
        let before = FileManager.default.contents(atPath: store)
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "2", file])
        return (added.status, added.error, FileManager.default.contents(atPath: store) == before && before != nil)
    }

    static func metricText() throws -> String { try String(contentsOfFile: MetricKitImportTests.metricPayload, encoding: .utf8) }

    @Test func malformedJSONIsOneLineWithItsPlace() throws {
        let text = try Self.metricText().replacingOccurrences(of: "\"gpuMetrics\" : {", with: "\"gpuMetrics\" : {,")
        let (directory, store, file) = try Self.setUp("metrickit-json", name: "day.json", text: text)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.add(store, file)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("lifetrace: \(file): line "), "\(result.error)")
        #expect(result.error.hasSuffix("; nothing was added\n"))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(result.unchanged)
    }

    @Test func aFieldOfTheWrongKindIsNamedByItsPath() throws {
        let text = try Self.metricText().replacingOccurrences(of: "\"bucketCount\" : 50", with: "\"bucketCount\" : \"fifty\"")
        let (directory, store, file) = try Self.setUp("metrickit-kind", name: "day.json", text: text)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Self.add(store, file)
        #expect(result.status == 2)
        #expect(result.error == """
            lifetrace: \(file): $.applicationLaunchMetrics.histogrammedTimeToFirstDrawKey.histogramValue.2.bucketCount: \
            not a readable MetricKit payload: expected a count (a whole number from 0 to 2^53), found "fifty"; nothing was added

            """)
        #expect(result.unchanged)
    }

    @Test func anAbsurdCountIsRefusedAndALargeOneSumsWithoutWrapping() throws {
        let absurd = try Self.metricText().replacingOccurrences(of: "\"bucketCount\" : 50", with: "\"bucketCount\" : 1e300")
        let (directory, store, file) = try Self.setUp("metrickit-absurd", name: "day.json", text: absurd)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let refused = try Self.add(store, file)
        #expect(refused.status == 2)
        #expect(refused.error.contains("bucketCount: not a readable MetricKit payload: expected a count"), "\(refused.error)")
        #expect(refused.unchanged)
        // 2^53 in every launch bucket: the sum is 2^55, and the median the middle bucket's start.
        var large = try Self.metricText()
        for count in ["2", "30", "50", "18"] {
            large = large.replacingOccurrences(of: "\"bucketCount\" : \(count) }", with: "\"bucketCount\" : 9007199254740992 }")
        }
        try Data(large.utf8).write(to: URL(fileURLWithPath: file))
        let added = try Self.add(store, file)
        #expect(added.status == 0, "\(added.error)")
        let series = try #require(HistoryCommandTests.show(store)["series"] as? [[String: Any]])
        let p50 = series.first { $0["metric"] as? String == "field.launch.p50" }?["figures"] as? [Any]
        #expect(((p50?.last as? [String: Any])?["value"] as? NSNumber)?.int64Value == 200_000_000)
    }

    /// A frame `depth` subframes deep, written out.
    static func deepTree(_ depth: Int) -> String {
        let frame = "{\"binaryUUID\":\"4C4C44A6-5555-3144-A1D5-CC5ADFA55E48\",\"offsetIntoBinaryTextSegment\":16,\"sampleCount\":1,\"subFrames\":["
        let tree = String(repeating: frame, count: depth) + String(repeating: "]}", count: depth)
        return """
            {"timeStampBegin":"2026-11-26 09:41:00 +0000","timeStampEnd":"2026-11-26 09:41:00 +0000","hangDiagnostics":[{"version":"1.0.0",\
            "diagnosticMetaData":{"hangDuration":"1 sec"},"callStackTree":{"callStackPerThread":true,"callStacks":[{"threadAttributed":true,\
            "callStackRootFrames":[\(tree)]}]}}]}
            """
    }

    @Test func aDeepStackTreeIsWalkedWithoutRecursionAndAnAbsurdOneRefused() throws {
        let (directory, store, file) = try Self.setUp("metrickit-deep", name: "hang.json", text: Self.deepTree(200))
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let added = try Self.add(store, file)
        #expect(added.status == 0, "\(added.error)")
        let queue = try DatabaseQueue(path: store)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT max(depth) + 1 FROM fieldFrame") } == 200)
        try Data(Self.deepTree(100_000).utf8).write(to: URL(fileURLWithPath: file))
        let refused = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "3", file])
        #expect(refused.status == 2)
        #expect(refused.error.hasPrefix("lifetrace: \(file): "), "\(refused.error)")
        #expect(refused.error.split(separator: "\n").count == 1)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM build") } == 2)
    }

    @Test func aPayloadTheBuildHasAlreadyIsRefused() throws {
        let (directory, store, file) = try Self.setUp("metrickit-twice", name: "day.json", text: try Self.metricText())
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Self.add(store, file).status == 0)
        let queue = try DatabaseQueue(path: store)
        let rows = { try queue.read { try Int.fetchOne($0, sql: "SELECT (SELECT count(*) FROM fieldPayload) + (SELECT count(*) FROM fieldHistogram)") } }
        let before = try rows()
        let again = try Self.add(store, file)
        #expect(again.status == 2)
        #expect(again.error == "lifetrace: \(store): build 2 already has the run \(file); nothing was written\n")
        #expect(try rows() == before)
    }
}
