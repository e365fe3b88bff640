import Foundation
import LifetraceTestSupport
import Testing

/// Bad input to `lifetrace history`: one line naming the file, a documented exit status, and
/// the store as it was.
@Suite struct HistoryBadInputTests {
    static func storeWithOneBuild(_ label: String) throws -> (directory: String, store: String) {
        let directory = try ScratchDirectory.make(label)
        try HistoryCommandTests.writeBuilds(directory, builds: 2, runs: 2, regression: 0)
        let store = directory + "/history.sqlite"
        try HistoryCommandTests.addBuilds(directory, count: 1, store: store)
        return (directory, store)
    }

    static func points(_ store: String) throws -> Int {
        (try HistoryCommandTests.show(store)["points"] as? [Any])?.count ?? -1
    }

    @Test func rowsReadBackAsTheTracesTheyCameFrom() throws {
        let (directory, store) = try Self.storeWithOneBuild("history-rows")
        let rows = directory + "/rows.ndjson"
        let written = try LifetraceCommand.run(["report", "--no-config", directory + "/build-01", "--format", "ndjson", "-o", rows])
        #expect(written.status == 0, "\(written.error)")
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "from-rows", "--rows", rows])
        #expect(added.status == 0, "\(added.error)")
        let series = try #require(HistoryCommandTests.show(store)["series"] as? [[String: Any]])
        // Every figure of the build read from rows is the one of the build analysed here.
        for metric in series {
            let figures = metric["figures"] as? [Any] ?? []
            #expect(figures.count == 2)
            #expect((figures.first as? NSDictionary) == (figures.last as? NSDictionary), "\(metric["metric"] ?? "")")
        }
    }

    @Test func aMalformedRowAddsNothing() throws {
        let (directory, store) = try Self.storeWithOneBuild("history-malformed")
        let rows = directory + "/rows.ndjson"
        try Data("{\"schema\":1,\"row\":\"trace\",\"path\":\"a.jsonl\",\"events\":3,\"lifetimes\":0}\n{\"row\":\"lifetime\",\"path\":\"a.jsonl\"\n".utf8)
            .write(to: URL(fileURLWithPath: rows))
        let before = FileManager.default.contents(atPath: store)
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "2", "--rows", rows])
        #expect(added.status == 2)
        #expect(added.error == "lifetrace: \(rows):2: not a lifetrace row: not JSON; nothing was added\n")
        #expect(FileManager.default.contents(atPath: store) == before)
        #expect(try Self.points(store) == 1)
    }

    @Test func anUnreadableTraceAddsNothing() throws {
        let (directory, store) = try Self.storeWithOneBuild("history-unreadable")
        let cut = directory + "/build-02/cut.ltrace"
        try Data("LTRC not really a trace".utf8).write(to: URL(fileURLWithPath: cut))
        let added = try LifetraceCommand.run(["history", "add", "--no-config", "--history", store, "--build", "2", directory + "/build-02"])
        #expect(added.status == 2)
        let lines = added.error.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("lifetrace: " + cut + ": ") == true)
        #expect(lines.last == "lifetrace: \(store): nothing was added: 1 of the build's traces could not be read")
        #expect(try Self.points(store) == 1)
    }

    @Test func aCorruptStoreIsOneLineAndLeftAsItIs() throws {
        let directory = try ScratchDirectory.make("history-corrupt-cli")
        try HistoryCommandTests.writeBuilds(directory, builds: 1, runs: 1, regression: 0)
        let store = directory + "/history.sqlite"
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: store))
        for arguments in [["add", directory + "/build-01"], ["show"]] {
            let result = try LifetraceCommand.run(["history"] + arguments + ["--no-config", "--history", store])
            #expect(result.status == 2)
            #expect(result.error == "lifetrace: \(store): not a readable history store (the file is not an SQLite database, or it is damaged); left as it is\n")
        }
        #expect(FileManager.default.contents(atPath: store) == garbage)
    }

    @Test func noStoreNamedIsAUsageError() throws {
        let directory = try ScratchDirectory.make("history-no-store")
        let result = try ChildProcess.run(LifetraceCommand.path, ["history", "show", "--no-config"])
        #expect(result.status == 2)
        #expect(result.error.contains("no history store: give --history PATH, or `history:` in .lifetrace.yml"))
        _ = directory
    }

    @Test func theConfigurationFileNamesTheStore() throws {
        let (directory, store) = try Self.storeWithOneBuild("history-config")
        let configuration = directory + "/.lifetrace.yml"
        try Data("history: history.sqlite\n".utf8).write(to: URL(fileURLWithPath: configuration))
        let shown = try LifetraceCommand.run(["history", "show", "--config", configuration, "--format", "json"])
        #expect(shown.status == 0, "\(shown.error)")
        #expect(shown.output.contains("\"label\":\"1\""))
        _ = store
    }
}
