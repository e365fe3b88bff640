import Foundation
import GRDB
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceTestSupport
import Synchronization
import Testing

@testable import LifetraceHistory

@Suite struct HistoryStoreTests {
    /// A run of `lifetimes` cold launches of `launch` ms, one 300 ms stall each.
    static func run(_ path: String, launch: Int64 = 200, lifetimes: Int = 2) -> HistoryRun {
        var milestones = LaunchMilestones()
        milestones.firstFrame = launch * 1_000_000
        let lifetime = { (position: Int) in
            HistoryRun.Lifetime(
                position: position, launchKind: .cold, launchDuration: launch * 1_000_000, busyInWindow: 150_000_000,
                milestones: milestones, stalls: [(300_000_000, "didFinishLaunching > openDatabase")], omittedStalls: 0,
                timeInStates: [("active", 4_000_000_000), ("background", 1_000_000_000)], end: .killedWhileSuspended,
                endCode: nil, endSignal: 9)
        }
        return HistoryRun(
            path: path, source: "trace", events: 40, lifetimeCount: lifetimes,
            metadata: TraceMetadata([("appVersion", "1.2"), ("device", "iPhone15,2")]), lifetimes: (0..<lifetimes).map(lifetime),
            violations: [HistoryRun.RuleCount(rule: "launch-stall", severity: "error", count: 1)])
    }

    static func build(_ id: String) -> BuildRecord { BuildRecord(buildID: id, commit: "c\(id)", branch: "main", date: "2026-11-28T00:00:00Z") }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test func aBuildReadsBackAsItWasAdded() throws {
        let path = try ScratchDirectory.make("history-roundtrip") + "/history.sqlite"
        let store = try HistoryStore(path: path, access: .write)
        let runs = [Self.run("a.ltrace"), Self.run("b.ltrace", launch: 250, lifetimes: 1)]
        try store.add(Self.build("1"), runs: runs)
        let builds = try store.builds()
        #expect(builds.map(\.record) == [Self.build("1")])
        #expect(try store.runs(ofBuild: builds[0].row) == runs)
    }

    /// Rows are written several to a statement: a build of more lifetimes and stalls than one
    /// statement takes, added after another build, reads back with each stall under its own
    /// lifetime (each lifetime's stalls differ in number and blame).
    @Test func rowsBeyondOneStatementReadBackUnderTheirOwnLifetimes() throws {
        let path = try ScratchDirectory.make("history-batches") + "/history.sqlite"
        let store = try HistoryStore(path: path, access: .write)
        try store.add(Self.build("1"), runs: [Self.run("a.ltrace", lifetimes: 3)])
        let runs = [Self.run("a.ltrace", lifetimes: 70), Self.run("b.ltrace", lifetimes: 131)].map { run in
            var run = run
            run.lifetimes = run.lifetimes.map { lifetime in
                var lifetime = lifetime
                lifetime.stalls = (0..<(lifetime.position % 4)).map { (Int64(lifetime.position * 10 + $0), "\(run.path) \(lifetime.position)") }
                // Values bound as they are: empty and non-ASCII text, absent numbers, extremes.
                if lifetime.position % 5 == 1 {
                    lifetime.stalls.append((Int64.max, ""))
                    lifetime.stalls.append((-1, "écran › 表示 \u{2028} \"q\""))
                    lifetime.launchDuration = nil
                    lifetime.milestones = LaunchMilestones()
                    lifetime.endCode = Int64.min
                    lifetime.endSignal = nil
                    lifetime.timeInStates = []
                }
                return lifetime
            }
            return run
        }
        try store.add(Self.build("2"), runs: runs)
        let builds = try store.builds()
        #expect(builds.map(\.record.buildID) == ["1", "2"])
        #expect(try store.runs(ofBuild: builds[1].row) == runs)
        #expect(try store.runs(ofBuild: builds[0].row) == [Self.run("a.ltrace", lifetimes: 3)])
    }

    /// A lifetime's state times are stored as the JSON the reports write for the same array
    /// (written straight, without its tree), and read back in their order.
    @Test func stateTimesAreStoredAsTheReportsWriteThemAndReadBack() throws {
        let times: [(state: String, duration: Int64)] = [
            ("active", 4_000_000_000), ("back\\ground \"quoted\"", -7), ("line\u{2028}sep\u{01}", Int64.max), ("", 0),
        ]
        let text = StateTimesText.encode(times)
        #expect(text == JSONValue.array(times.map { .array([.string($0.state), .int($0.duration)]) }).rendered())
        #expect(StateTimesText.encode([]) == "[]")
        let read = try #require(StateTimesText.decode(text))
        #expect(read.map(\.state) == times.map(\.state))
        #expect(read.map(\.duration) == times.map(\.duration))
    }

    @Test func aSecondAddOfTheSameBuildAddsItsRuns() throws {
        let path = try ScratchDirectory.make("history-same-build") + "/history.sqlite"
        let store = try HistoryStore(path: path, access: .write)
        try store.add(Self.build("7"), runs: [Self.run("a.ltrace")])
        try store.add(Self.build("7"), runs: [Self.run("b.ltrace")])
        let builds = try store.builds()
        #expect(builds.count == 1)
        #expect(try store.runs(ofBuild: builds[0].row).map(\.path) == ["a.ltrace", "b.ltrace"])
        // The same run again refuses the whole add.
        #expect(throws: HistoryStoreError.self) { try store.add(Self.build("7"), runs: [Self.run("c.ltrace"), Self.run("a.ltrace")]) }
        #expect(try store.runs(ofBuild: builds[0].row).map(\.path) == ["a.ltrace", "b.ltrace"])
    }

    @Test func aMissingStoreIsNotCreatedToRead() throws {
        let path = try ScratchDirectory.make("history-missing") + "/none.sqlite"
        let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(path: path, access: .read) }
        #expect(error?.kind == .missing)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileThatIsNotADatabaseIsLeftAsItIs() throws {
        let path = try ScratchDirectory.make("history-corrupt") + "/history.sqlite"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        for access in [HistoryStore.Access.read, .write] {
            let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(path: path, access: access) }
            #expect(error?.kind == .corrupt)
            #expect(error?.description.hasPrefix(path + ": ") == true)
            #expect(error?.description.contains("\n") == false)
        }
        #expect(Self.bytes(path) == garbage)
    }

    @Test func aDamagedStoreIsRefusedAndKept() throws {
        let path = try ScratchDirectory.make("history-damaged") + "/history.sqlite"
        do {
            let store = try HistoryStore(path: path, access: .write)
            try store.add(Self.build("1"), runs: (0..<40).map { Self.run("r\($0).ltrace") })
        }
        // Pages past the header overwritten: SQLite finds the damage when it reads them.
        var data = try #require(Self.bytes(path))
        let checkpointed = data.count > 8192
        if checkpointed { data.replaceSubrange(4096..<8192, with: Data(repeating: 0xA5, count: 4096)) }
        try data.write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        let error = #expect(throws: HistoryStoreError.self) {
            let store = try HistoryStore(path: path, access: .read)
            for build in try store.builds() { _ = try store.runs(ofBuild: build.row) }
        }
        #expect(error?.kind == .corrupt)
        #expect(Self.bytes(path) == data)
    }

    @Test func aStoreOfAnotherProgramIsRefused() throws {
        let path = try ScratchDirectory.make("history-foreign") + "/other.sqlite"
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep')") }
        let before = Self.bytes(path)
        let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(path: path, access: .write) }
        #expect(error?.kind == .foreign)
        #expect(Self.bytes(path) == before)
    }

    /// Another program's WAL database with writes still in its log (that program stopped before
    /// folding them in): refused, and neither the file nor its log is touched, as a connection
    /// that may write would fold the log into the file when it closes.
    @Test func aStoreOfAnotherProgramWithAWriteAheadLogIsLeftAsItIs() throws {
        let directory = try ScratchDirectory.make("history-foreign-wal")
        let live = directory + "/live.sqlite", path = directory + "/other.sqlite"
        var configuration = Configuration()
        configuration.journalMode = .wal
        let other = try DatabaseQueue(path: live, configuration: configuration)
        try other.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep')") }
        // The files as that program left them, its connection still open.
        for suffix in ["", "-wal"] { try FileManager.default.copyItem(atPath: live + suffix, toPath: path + suffix) }
        try other.close()
        let before = [Self.bytes(path), Self.bytes(path + "-wal")]
        #expect(before[1]?.isEmpty == false)
        let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(path: path, access: .write) }
        #expect(error?.kind == .foreign)
        #expect([Self.bytes(path), Self.bytes(path + "-wal")] == before)
    }

    /// Text is stored as GRDB binds it, up to a NUL, so that what is stored is what is read.
    @Test func textIsStoredUpToANul() throws {
        let path = try ScratchDirectory.make("history-nul") + "/history.sqlite"
        let store = try HistoryStore(path: path, access: .write)
        var run = Self.run("a.ltrace", lifetimes: 1)
        run.lifetimes[0].stalls = [(300_000_000, "before\u{0}after")]
        try store.add(Self.build("1"), runs: [run])
        let stored = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT blame FROM stall") }
        #expect(stored == ["before"])
    }

    @Test func aStoreFromANewerVersionIsRefusedAndKept() throws {
        let path = try ScratchDirectory.make("history-newer") + "/history.sqlite"
        do {
            let store = try HistoryStore(path: path, access: .write)
            try store.add(Self.build("1"), runs: [Self.run("a.ltrace")])
        }
        do {
            // A newer version's step, written by another connection that is closed after it.
            let newer = try DatabaseQueue(path: path)
            try newer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-field-payloads')") }
            try newer.close()
        }
        let before = Self.bytes(path)
        for access in [HistoryStore.Access.read, .write] {
            let error = #expect(throws: HistoryStoreError.self) { try HistoryStore(path: path, access: access) }
            #expect(error?.kind == .newerSchema(unknown: ["v9-field-payloads"]))
            #expect(error?.description == "\(path): written by a newer lifetrace (schema steps v9-field-payloads unknown to this one); left as it is")
        }
        #expect(Self.bytes(path) == before)
    }

    @Test func aLockedStoreWaitsThenGivesUpWritingNothing() throws {
        let path = try ScratchDirectory.make("history-locked") + "/history.sqlite"
        let store = try HistoryStore(path: path, access: .write, busyTimeout: 0.2)
        try store.add(Self.build("1"), runs: [Self.run("a.ltrace")])
        // Another connection holds the write lock for the whole attempt.
        let holder = try DatabaseQueue(path: path)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            let error = #expect(throws: HistoryStoreError.self) { try store.add(Self.build("2"), runs: [Self.run("b.ltrace")]) }
            #expect(error?.kind == .locked(seconds: 0.2))
            #expect(error?.description == "\(path): locked by another process for more than 0.2 s; nothing was written")
            try db.execute(sql: "ROLLBACK")
        }
        #expect(try store.builds().map(\.record.buildID) == ["1"])
        try store.add(Self.build("2"), runs: [Self.run("b.ltrace")])
        #expect(try store.builds().map(\.record.buildID) == ["1", "2"])
    }

    @Test func aFullDiskLosesNothingAlreadyStored() throws {
        let path = try ScratchDirectory.make("history-full") + "/history.sqlite"
        do {
            let store = try HistoryStore(path: path, access: .write)
            try store.add(Self.build("1"), runs: [Self.run("a.ltrace")])
        }
        let pages = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_count")! }
        let limited = try HistoryStore(path: path, access: .write, busyTimeout: 1, pageLimit: pages + 2)
        let error = #expect(throws: HistoryStoreError.self) {
            try limited.add(Self.build("2"), runs: (0..<500).map { Self.run("r\($0).ltrace", lifetimes: 5) })
        }
        #expect(error?.kind == .full)
        #expect(error?.description == "\(path): the disk is full; nothing of this build was written, the store is as it was")
        let store = try HistoryStore(path: path, access: .read)
        let builds = try store.builds()
        #expect(builds.map(\.record.buildID) == ["1"])
        #expect(try store.runs(ofBuild: builds[0].row) == [Self.run("a.ltrace")])
        #expect(try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    /// Two jobs that find no store both make it: one makes it, the other waits for it and adds.
    @Test func twoWritersMakingANewStoreAtOnceLoseNothing() throws {
        for attempt in 0..<10 {
            let path = try ScratchDirectory.make("history-new-writers-\(attempt)") + "/history.sqlite"
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { writer in
                do {
                    let store = try HistoryStore(path: path, access: .write)
                    try store.add(Self.build("w\(writer)"), runs: [Self.run("r.ltrace")])
                } catch {
                    failures.withLock { $0.append(String(describing: error)) }
                }
            }
            #expect(failures.withLock { $0 } == [])
            let store = try HistoryStore(path: path, access: .read)
            #expect(Set(try store.builds().map(\.record.buildID)) == ["w0", "w1"])
        }
    }

    @Test func twoWritersAtOnceLoseNothing() throws {
        let path = try ScratchDirectory.make("history-writers") + "/history.sqlite"
        _ = try HistoryStore(path: path, access: .write)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            do {
                // Each writer its own connection, as two CI jobs would have.
                let store = try HistoryStore(path: path, access: .write)
                for build in 0..<25 {
                    try store.add(Self.build("w\(writer)-\(build)"), runs: (0..<4).map { Self.run("r\($0).ltrace") })
                }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let store = try HistoryStore(path: path, access: .read)
        let builds = try store.builds()
        #expect(builds.count == 50)
        #expect(Set(builds.map(\.record.buildID)).count == 50)
        for build in builds { #expect(try store.runs(ofBuild: build.row).count == 4) }
    }
}
