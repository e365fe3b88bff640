import Foundation
import GRDB
import LifetraceHistory
import LifetraceTestSupport
import Testing

/// MetricKit payloads built from Apple's documented examples (Samples/metrickit/README.md):
/// every field of the files is stored, or named, and the field series are the fixtures' own.
@Suite struct MetricKitImportTests {
    static let samples = HistoryCommandTests.repository.appendingPathComponent("Samples/metrickit").path
    static let metricPayload = samples + "/metric-payload.json"
    static let diagnosticPayload = samples + "/diagnostic-payload.json"

    /// The leaves of a JSON file (values that are no object or array), counted here on their own.
    static func leaves(_ path: String) throws -> Int {
        func count(_ value: Any) -> Int {
            if let object = value as? [String: Any] { return object.values.reduce(0) { $0 + count($1) } }
            if let array = value as? [Any] { return array.reduce(0) { $0 + count($1) } }
            return 1
        }
        return count(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))))
    }

    static func payload(_ path: String) throws -> MetricKitPayload {
        guard case .payload(let payload) = try MetricKitReader.read(path: path) else {
            throw MachOFixture.Failure(description: "\(path) is not read as a payload")
        }
        return payload
    }

    /// How many values the store holds for each destination a payload's fields were counted in.
    static func stored(_ destination: String, in db: Database) throws -> Int {
        let parts = destination.split(separator: ".")
        let (table, column) = (String(parts[0]), String(parts[1]))
        // A field kept as given may be null: each is a row.
        let counted = table == "fieldValue" ? "*" : "\"\(column)\""
        return try Int.fetchOne(db, sql: "SELECT count(\(counted)) FROM \(table)") ?? -1
    }

    @Test(arguments: [metricPayload, diagnosticPayload])
    func everyFieldOfAFixtureIsStored(_ fixture: String) throws {
        let payload = try Self.payload(fixture)
        let leaves = try Self.leaves(fixture)
        #expect(leaves > 100)
        #expect(payload.fieldCount == leaves)
        #expect(payload.notes.isEmpty, "\(payload.notes)")
        let directory = try ScratchDirectory.make("metrickit-fields")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try HistoryStore(path: directory + "/history.sqlite", access: .write)
        try store.add(BuildRecord(buildID: "1", date: "2026-11-28T00:00:00Z"), runs: [], payloads: [payload])
        let queue = try DatabaseQueue(path: directory + "/history.sqlite")
        try queue.read { db in
            var stored = 0
            for (destination, count) in payload.accounted.sorted(by: { $0.key < $1.key }) {
                if destination == "checked:histogramNumBuckets" {
                    // Restates its histogram's bucket count: one per histogram stored.
                    let histograms = try Int.fetchOne(db, sql: "SELECT count(DISTINCT field) FROM fieldHistogram")
                    #expect(histograms == count, "\(destination)")
                } else {
                    #expect(try Self.stored(destination, in: db) == count, "\(destination)")
                }
                stored += count
            }
            #expect(stored == leaves)
            #expect(try Int.fetchOne(db, sql: "SELECT fields FROM fieldPayload") == leaves)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM fieldValue WHERE NOT documented") == 0)
        }
    }

    @Test func theMetricPayloadsFiguresAreItsHistogramsAndCounts() throws {
        let payload = try Self.payload(Self.metricPayload)
        #expect(payload.kind == .metric)
        #expect([payload.appVersion, payload.buildNumber, payload.device, payload.os] == ["4.2", "1187", "iPhone15,2", "iPhone OS 17.5 (21F79)"])
        let launch = try #require(payload.histograms.first { $0.metric == "launch" })
        #expect(launch.unit == "ns")
        #expect(launch.buckets.map(\.count) == [2, 30, 50, 18])
        #expect(launch.buckets[1].start == 100_000_000 && launch.buckets[1].end == 200_000_000)
        #expect(Set(payload.histograms.compactMap(\.metric)) == ["launch", "launchOptimized", "resume", "extendedLaunch", "hang"])
        #expect(payload.exits.filter { $0.context == "foreground" }.count == 6)
        #expect(payload.exits.filter { $0.context == "background" }.count == 12)
        #expect(payload.exits.contains { $0.context == "background" && $0.reason == "suspendedWithLockedFile" && $0.count == 4 })
        #expect(payload.exits.contains { $0.context == "background" && $0.reason == "backgroundTaskAssertionTimeout" && $0.count == 6 })

        let directory = try ScratchDirectory.make("metrickit-series")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = directory + "/history.sqlite"
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "7", Self.samples])
        #expect(added.status == 0, "\(added.error)")
        #expect(added.output.contains("added 0 runs and 2 MetricKit payloads to build 7, version 4.2 (1187)"), "\(added.output)")
        let document = try HistoryCommandTests.show(store)
        let points = try #require(document["points"] as? [[String: Any]])
        #expect(points.first?["payloads"] as? Int == 2)
        #expect(points.first?["device"] as? String == "iPhone15,2")
        var figures: [String: Double] = [:]
        for series in document["series"] as? [[String: Any]] ?? [] {
            let figure = (series["figures"] as? [Any])?.first as? [String: Any]
            figures[series["metric"] as? String ?? ""] = (figure?["value"] as? NSNumber)?.doubleValue
        }
        // 100 launches: the 50th falls 18 of 50 into 200-300 ms, the 90th 8 of 18 into 300-400 ms.
        #expect(figures["field.launch.p50"] == 236_000_000)
        #expect(figures["field.launch.p90"] == 344_444_444)
        // Hangs counted at their buckets' middles: 12 x 375 ms + 4 x 750 ms + 1 x 1.5 s = 9 s in 2 hours.
        #expect(figures["field.hangRate"] == 4.5)
        #expect(abs((figures["field.exits.foreground.watchdog"] ?? 0) - 100 * 3 / 49) < 1e-9)
        #expect(abs((figures["field.exits.background.suspendedWithLockedFile"] ?? 0) - 100 * 4 / 106) < 1e-9)
        #expect(figures["field.exits.background.illegalInstruction"] == 0)
        let text = try LifetraceCommand.run(["history", "show", "--no-config", "--history", store])
        #expect(text.output.contains("1 build (by build, in the order they were added), 0 runs, 2 MetricKit payloads"), "\(text.output)")
        #expect(text.output.contains("field.launch.p50"))
        let page = try LifetraceCommand.run(["history", "show", "--no-config", "--history", store, "--format", "html"])
        #expect(page.output.contains("<code>field.exits.background.backgroundTaskAssertionTimeout</code>"))
    }

    @Test func aFieldAppleDoesNotDocumentIsKeptAndNamed() throws {
        let directory = try ScratchDirectory.make("metrickit-unknown")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var text = try String(contentsOfFile: Self.metricPayload, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"gpuMetrics\" : {", with: "\"gpuMetrics\" : {\n    \"cumulativeGPUFrames\" : \"12 frames\",")
        text = text.replacingOccurrences(
            of: "\"cumulativeNormalAppExitCount\" : 40,", with: "\"cumulativeNormalAppExitCount\" : 40,\n \"cumulativeThermalExitCount\" : 5,")
        let file = directory + "/day.json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let payload = try Self.payload(file)
        #expect(payload.fieldCount == (try Self.leaves(file)))
        #expect(payload.notes == [
            "\(file): $.applicationExitMetrics.foregroundExitData.cumulativeThermalExitCount: an exit count Apple does not document for the foreground; kept as `thermal`",
            "\(file): $.gpuMetrics.cumulativeGPUFrames: a field Apple does not document; kept as it is",
        ])
        #expect(payload.exits.contains { $0.reason == "thermal" && $0.count == 5 })
        #expect(payload.values.contains { $0.field == "gpuMetrics.cumulativeGPUFrames" && !$0.documented && $0.amount == 12 && $0.unit == "frames" })
        let store = directory + "/history.sqlite"
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "1", file])
        #expect(added.status == 0)
        #expect(added.error.split(separator: "\n").map(String.init) == payload.notes.map { "lifetrace: note: " + $0 })
    }

    /// MetricKit writes the launch histograms as `histogrammedTimeToFirstDrawKey` and
    /// `histogrammedResumeTime`, and a signpost's count as `totalSignpostCount`
    /// (Samples/metrickit/README.md); the property names are no JSON members, so a payload
    /// spelling them is kept, named, and draws no series.
    @Test func onlyTheMembersMetricKitWritesDrawASeries() throws {
        let directory = try ScratchDirectory.make("metrickit-spellings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var text = try String(contentsOfFile: Self.metricPayload, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"histogrammedResumeTime\"", with: "\"histogrammedApplicationResumeTime\"")
        text = text.replacingOccurrences(of: "\"totalSignpostCount\"", with: "\"totalCount\"")
        let file = directory + "/day.json"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let payload = try Self.payload(file)
        #expect(payload.fieldCount == (try Self.leaves(file)))
        #expect(payload.notes.sorted() == [
            "\(file): $.applicationLaunchMetrics.histogrammedApplicationResumeTime: a histogram Apple does not document; kept as it is",
            "\(file): $.signpostMetrics[0].totalCount: a field Apple does not document; kept as it is",
        ])
        #expect(payload.histograms.filter { $0.metric == "resume" }.isEmpty)
        #expect(payload.histograms.map(\.metric).contains("launch"))
    }

    @Test func aPayloadIsToldByItsContentNotItsName() throws {
        let directory = try ScratchDirectory.make("metrickit-content")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/device/2026-11-26", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.metricPayload, toPath: directory + "/device/2026-11-26/metrics")
        try FileManager.default.copyItem(atPath: Self.diagnosticPayload, toPath: directory + "/device/diagnostics.txt")
        // JSON of something else (an object, an array), and a text file that starts like JSON, are no payloads.
        try Data("{\"name\": \"settings\"}".utf8).write(to: URL(fileURLWithPath: directory + "/device/settings.json"))
        try Data("{ not JSON at all".utf8).write(to: URL(fileURLWithPath: directory + "/device/notes.md"))
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: directory + "/device/list.json"))
        let (payloads, traces) = try MetricKitFiles.sort([directory + "/device"])
        #expect(payloads.map(\.path).sorted() == [directory + "/device/2026-11-26/metrics", directory + "/device/diagnostics.txt"])
        #expect(payloads.map(\.kind.rawValue).sorted() == ["diagnostic", "metric"])
        #expect(traces.isEmpty)
    }

    /// A payload named through a link is read as a payload (the link followed, as any file's),
    /// and a directory of traces is left for the traces.
    @Test func aPayloadThroughALinkIsReadAndTracesAreLeft() throws {
        let directory = try ScratchDirectory.make("metrickit-link")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let link = directory + "/today.json"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Self.metricPayload)
        let traces = directory + "/traces"
        try FileManager.default.createDirectory(atPath: traces, withIntermediateDirectories: false)
        try Data().write(to: URL(fileURLWithPath: traces + "/run.ltrace"))
        let sorted = try MetricKitFiles.sort([link, traces])
        #expect(sorted.payloads.map(\.path) == [link])
        #expect(sorted.traces == [traces])
    }
}
